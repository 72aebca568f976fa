import { invalidInput } from './errors';

/**
 * A staged media upload (docs/media-uploads.md): declared first (name, type, length), its bytes
 * PUT to a signed URL of Herald's own, then completed into the media store, then used by posts.
 * Unused staged media expires (HERALD_MEDIA_UPLOAD_TTL_MS after creation); a post that uses it
 * marks it `used`, which keeps its bytes: the media store is durable and content-addressed.
 */
export type MediaUploadType = 'video' | 'image' | 'document';
export const MEDIA_UPLOAD_TYPES = ['video', 'image', 'document'] as const satisfies readonly MediaUploadType[];

export type MediaUploadState = 'created' | 'uploading' | 'completed' | 'used' | 'expired';

export interface MediaUpload {
  id: string;
  accountId: string;
  filename: string;
  contentType: string;
  mediaType: MediaUploadType;
  contentLength: number;
  /** What the client said the file came from (free text, kept for it). */
  source?: string;
  state: Exclude<MediaUploadState, 'expired'>;
  createdAt: Date;
  expiresAt: Date;
  /** Once completed: SHA-256 of the bytes (computed while they were written), the type sniffed from them, the media store id. */
  sha256?: string;
  sniffedType?: string;
  mediaId?: string;
  completedAt?: Date;
  /** The first post that used it (its request id). */
  usedBy?: string;
}

/** The state a reader sees: a record past its expiry that the cleanup has not removed yet reads `expired`. */
export const stateAt = (u: MediaUpload, now: Date): MediaUploadState => (u.state !== 'used' && u.expiresAt <= now ? 'expired' : u.state);

/** The content types each media type takes (the sniffer knows each of them by its bytes). */
export const UPLOAD_CONTENT_TYPES: Record<MediaUploadType, readonly string[]> = {
  video: ['video/mp4', 'video/quicktime', 'video/webm', 'video/x-matroska'],
  image: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
  document: [
    'application/pdf', 'application/msword', 'application/vnd.ms-powerpoint',
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  ],
};

/**
 * Whether bytes sniffed as `sniffed` may be declared as `declared`. Formats whose magic numbers
 * cannot tell their variants apart count as one: MP4 and MOV share the ISO BMFF `ftyp` box
 * (many cameras write MOV brands into .mp4 files), WebM is Matroska, and the Office formats are
 * a zip (docx, pptx) or an OLE compound file (doc, ppt) whichever of them it holds.
 */
export function sniffMatches(declared: string, sniffed: string | undefined): boolean {
  if (!sniffed) return false;
  const family = (t: string) => FAMILY[t] ?? t;
  return family(declared) === family(sniffed);
}
const FAMILY: Record<string, string> = {
  'video/mp4': 'iso-bmff', 'video/quicktime': 'iso-bmff',
  'video/webm': 'matroska', 'video/x-matroska': 'matroska',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'zip',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'zip',
  'application/zip': 'zip',
  'application/msword': 'ole', 'application/vnd.ms-powerpoint': 'ole', 'application/x-ole-storage': 'ole',
};

/** A file name as it is stored and shown: printable, at most 255 characters. */
export function checkFilename(value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalidInput('filename is required: the file\'s name, such as clip.mp4.', { violations: [{ field: 'filename', message: 'required' }] });
  if (/[\p{Cc}\p{Cs}]/u.test(value) || value.length > 255 || /[/\\]/.test(value)) {
    throw invalidInput('filename must be a plain file name: printable, no path separators, at most 255 characters.', { violations: [{ field: 'filename', message: 'printable, no / or \\, ≤ 255 characters' }] });
  }
  return value;
}

/** A content length: a positive integer within the media size limit. */
export function checkContentLength(value: unknown, maxBytes: number): number {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 1) {
    throw invalidInput('content_length must be the file\'s size in bytes: a positive integer.', { violations: [{ field: 'content_length', message: 'a positive integer' }] });
  }
  if (n > maxBytes) throw invalidInput(`content_length ${n} is larger than the media size limit of ${maxBytes} bytes.`, { violations: [{ field: 'content_length', message: `at most ${maxBytes}` }], limit_bytes: maxBytes }, 'media_too_large');
  return n;
}

/** A content type of the declared media type (lower case, parameters dropped). */
export function checkContentType(value: unknown, mediaType: MediaUploadType): string {
  const type = typeof value === 'string' ? value.split(';')[0]!.trim().toLowerCase() : '';
  const taken = UPLOAD_CONTENT_TYPES[mediaType];
  if (!taken.includes(type)) {
    throw invalidInput(`content_type "${String(value)}" is not a ${mediaType} type Herald takes; use one of ${taken.join(', ')}.`, { violations: [{ field: 'content_type', message: `one of ${taken.join(', ')}` }] }, 'media_type_unsupported');
  }
  return type;
}

/** `Content-Range: bytes <start>-<end>/<total>` of a chunk; null for a header that is not of that form. */
export function parseContentRange(header: string): { start: number; end: number; total: number } | null {
  const m = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(header.trim());
  if (!m) return null;
  const [start, end, total] = [Number(m[1]), Number(m[2]), Number(m[3])];
  return Number.isSafeInteger(total) && start <= end && end < total ? { start, end, total } : null;
}

/** What the API answers about an upload (GET /media-uploads/{id}). */
export function toMediaUploadView(u: MediaUpload, now: Date, receivedBytes: number) {
  return {
    upload_id: u.id,
    state: stateAt(u, now),
    filename: u.filename,
    content_type: u.contentType,
    media_type: u.mediaType,
    content_length: u.contentLength,
    received_bytes: receivedBytes,
    expires_at: u.expiresAt.toISOString(),
    created_at: u.createdAt.toISOString(),
    ...(u.source !== undefined ? { source: u.source } : {}),
    ...(u.sha256 ? { sha256: u.sha256 } : {}),
    ...(u.sniffedType ? { sniffed_type: u.sniffedType } : {}),
    ...(u.mediaId ? { media_id: u.mediaId } : {}),
    ...(u.completedAt ? { completed_at: u.completedAt.toISOString() } : {}),
    ...(u.usedBy ? { used_by: u.usedBy } : {}),
  };
}
