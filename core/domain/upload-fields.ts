import { PLATFORMS, type MediaKind } from './platforms';

/**
 * The request fields of the upload endpoints that are not some network's own setting: ONE
 * declaration. The edge builds its schema from it, intake derives which fields are common and
 * which are not part of a post's content, and the later OpenAPI / MCP documents generate from it.
 * Each network's own fields are declared by its settings schema (the descriptor).
 */
export type UploadFieldType = 'text' | 'boolean' | 'integer' | 'platforms' | 'media' | 'media_list';

export interface UploadField {
  name: string;
  type: UploadFieldType;
  /** Endpoints that take it; all three when absent. */
  endpoints?: readonly MediaKind[];
  required?: boolean;
  maxLength?: number;
  /** Form spellings that mean the same field (`platform[]`, `photos[]`). */
  aliases?: readonly string[];
  /** How a request names this post rather than what it posts: left out of the duplicate check. */
  identity?: boolean;
  /** One `<platform>_<name>` variant per network overrides it for that network. */
  perPlatform?: boolean;
  description: string;
}

export const UPLOAD_FIELDS: readonly UploadField[] = [
  { name: 'user', type: 'text', required: true, description: 'The profile username to publish as.' },
  { name: 'platform', type: 'platforms', required: true, aliases: ['platform[]'], description: 'Target networks: repeated platform[] fields, a JSON array or a comma list.' },
  { name: 'title', type: 'text', perPlatform: true, description: 'The text of the post (caption, message, video title); `<platform>_title` overrides it for one network.' },
  { name: 'description', type: 'text', description: 'Longer text where a network has one (YouTube description, LinkedIn commentary, …).' },
  { name: 'video', type: 'media', endpoints: ['video'], required: true, description: 'The video: a file part, an http(s) URL, or `media-upload:<upload_id>` (a completed staged upload of media_type video).' },
  { name: 'document', type: 'media', endpoints: ['document'], required: true, description: 'The document (LinkedIn): a PDF, PPT, PPTX, DOC or DOCX file part, up to 100 MB, or `media-upload:<upload_id>` (a completed staged upload of media_type document).' },
  { name: 'photos', type: 'media_list', endpoints: ['photo'], required: true, aliases: ['photos[]'], description: 'The photos, in order: file parts, http(s) URLs, or `media-upload:<upload_id>` values (completed staged uploads of media_type image; video too for mixed carousels).' },
  { name: 'request_id', type: 'text', maxLength: 255, identity: true, description: 'Idempotency key (also Idempotency-Key, X-Idempotency-Key or X-Request-Id): a repeat returns the first request.' },
  { name: 'external_id', type: 'text', maxLength: 255, identity: true, description: 'Your own reference, returned with the upload (also X-External-Id).' },
  { name: 'async_upload', type: 'boolean', identity: true, description: 'Answer 202 at once instead of waiting for the result.' },
  { name: 'scheduled_date', type: 'text', description: 'ISO-8601 date-time to publish at (within 365 days); with timezone when it has no offset.' },
  { name: 'timezone', type: 'text', description: 'IANA time zone of scheduled_date (default UTC).' },
  { name: 'add_to_queue', type: 'boolean', description: "Publish at the profile's next free queue slot." },
  { name: 'max_posts_per_slot', type: 'integer', description: 'With add_to_queue: take a slot holding fewer than this many posts.' },
  { name: 'first_comment', type: 'text', perPlatform: true, description: 'A comment posted under the published post; `<platform>_first_comment` overrides it.' },
  { name: 'first_comment_media', type: 'media_list', aliases: ['first_comment_media[]'], description: 'Media of the first comment, where a network takes it.' },
];

/** Every name a common field may arrive under: aliases and the per-network overrides included. */
export const COMMON_UPLOAD_FIELD_NAMES: ReadonlySet<string> = new Set(UPLOAD_FIELDS.flatMap((f) => [
  f.name, ...(f.aliases ?? []), ...(f.perPlatform ? PLATFORMS.map((p) => `${p}_${f.name}`) : []),
]));

/** Fields that name a request rather than what it posts: a repeat differing only in them is the same post. */
export const IDENTITY_UPLOAD_FIELDS: ReadonlySet<string> = new Set(UPLOAD_FIELDS.filter((f) => f.identity).map((f) => f.name));
