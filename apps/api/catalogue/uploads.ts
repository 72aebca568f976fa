import { z } from 'zod';
import { isPlatform, PLATFORM_ALIASES, type MediaKind, type Platform } from '../../../core/domain/platforms';
import { UPLOAD_FIELDS, type UploadField } from '../../../core/domain/upload-fields';
import { invalidInput } from '../../../core/domain/errors';
import { PROFILE_USERNAME_MAX } from '../../../core/domain/profile';
import { validateQueueSettings } from '../../../core/domain/queue';
import { formBoolean, list, readFormBoolean, refuseUnavailablePlatforms, single } from '../input';
import { operation, refusedAs, ruledBy, type FilePart } from './types';
import { clampedNumber, ok, ProfileUsername } from './common';
import { networkUploadFields } from './settings';

/** Uploads (publish), their status and history, scheduled posts, retries and the posting queue. */

/** The schema of one declared common field; media and integers are read by their own code (media intake, queue options). */
function commonFieldSchema(field: UploadField): z.ZodType | undefined {
  const required = `${field.name}${field.type === 'platforms' ? '[]' : ''} is required: ${field.description}`;
  switch (field.type) {
    case 'text': {
      let base = z.string({ error: field.required ? required : `${field.name} must be text` });
      if (field.required) base = base.min(1, required);
      if (field.maxLength) base = base.max(field.maxLength, `${field.name} is at most ${field.maxLength} characters`);
      return z.preprocess(single, field.required ? base : base.optional());
    }
    case 'boolean': return formBoolean;
    case 'platforms': return z.array(z.string()).min(1, required);
    default: return undefined;
  }
}

/** The common fields as the handler reads them. */
export interface UploadCommonBody {
  user: string;
  platform: string[];
  title?: string;
  description?: string;
  request_id?: string;
  external_id?: string;
  async_upload?: boolean;
  scheduled_date?: string;
  timezone?: string;
  add_to_queue?: boolean;
  first_comment?: string;
}

/**
 * The common fields of the three upload endpoints, built from their one declaration
 * (core/domain/upload-fields.ts). The handler parses them after the reddit check and after
 * `platform[]` is read in its three spellings; the networks' own fields are checked by their schemas.
 */
export const UploadCommonFields = z.object(Object.fromEntries(UPLOAD_FIELDS.flatMap((field) => {
  const schema = commonFieldSchema(field);
  return schema ? [[field.name, schema]] : [];
}))) as unknown as z.ZodType<UploadCommonBody>;

/** What `/upload_document` takes (LinkedIn documents). */
const DOCUMENT_TYPES = ['application/pdf', 'application/vnd.ms-powerpoint', 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'application/msword', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'] as const;

/**
 * The common fields as the edge checks them, in their declaration's order: the same rules and
 * messages as UploadCommonFields (the handler's parse), without its preprocessing (single values
 * of repeated form fields, `platform[]` in its three spellings) so the document shows the types.
 * reddit in platform[] answers 503 first. Media are read by media intake (files or URLs): here
 * their shape only; which networks are known is checked by the handler (`platform_not_supported`).
 */
function documentedCommonFields(kind: MediaKind): { shape: Record<string, z.ZodType>; files: Record<string, FilePart> } {
  const shape: Record<string, z.ZodType> = {};
  const files: Record<string, FilePart> = {};
  for (const field of UPLOAD_FIELDS) {
    if (field.endpoints && !field.endpoints.includes(kind)) continue;
    const name = field.aliases?.find((a) => a.endsWith('[]')) ?? field.name;
    const also = field.aliases?.length ? ` Also sent as ${[field.name, ...field.aliases].filter((n) => n !== name).join(', ')}.` : '';
    const describe = `${field.description}${also}`;
    const required = `${field.name}${field.type === 'platforms' ? '[]' : ''} is required: ${field.description}`;
    let schema: z.ZodType;
    switch (field.type) {
      case 'platforms':
        schema = ruledBy((_, all) => {
          refuseUnavailablePlatforms(all['platform[]'], all.platform);
          const named = list(all['platform[]'] ?? all.platform) ?? (kind === 'document' ? ['linkedin'] : []);
          normalizePlatforms(named);
          return named;
        }, z.array(z.string()).min(1, required));
        break;
      case 'boolean': schema = ruledBy(readFormBoolean, z.boolean({ error: 'must be true or false' }).optional()); break;
      case 'integer': schema = ruledBy(maxPostsPerSlot, z.int().min(1).optional()); break;
      case 'media': schema = z.string().optional(); files[name] = { description: field.description, required: false, contentTypes: name === 'document' ? [...DOCUMENT_TYPES] : ['video/*'] }; break;
      case 'media_list': schema = z.union([z.array(z.string()), z.string()]).optional(); files[name] = { description: field.description, multiple: true }; break;
      default: {
        let base = z.string({ error: field.required ? required : `${field.name} must be text` });
        if (field.required) base = base.min(1, required);
        if (field.maxLength) base = base.max(field.maxLength, `${field.name} is at most ${field.maxLength} characters`);
        schema = ruledBy(single, field.required ? base : base.optional());
      }
    }
    shape[name] = schema.describe(describe);
  }
  return { shape, files };
}

/** platform[] as networks (aliases such as twitter taken, repeats dropped); 400 `platform_not_supported` naming the unknown ones. */
export function normalizePlatforms(raw: string[]): Platform[] {
  const unknown: string[] = [];
  const platforms = new Set<Platform>();
  for (const value of raw.map((v) => v.toLowerCase())) {
    const platform = PLATFORM_ALIASES[value] ?? value;
    if (isPlatform(platform)) platforms.add(platform);
    else unknown.push(value);
  }
  if (unknown.length) {
    throw invalidInput(`Unknown platform ${unknown.map((u) => `"${u}"`).join(', ')} in platform[].`, { violations: unknown.map((u) => ({ field: 'platform[]', message: `unknown platform "${u}"` })) }, 'platform_not_supported');
  }
  return [...platforms];
}

/** `max_posts_per_slot`: only with add_to_queue, a whole number of at least 1. */
function maxPostsPerSlot(value: unknown, all: Record<string, unknown>): number | undefined {
  const raw = single(value);
  if (raw === undefined) return undefined;
  if (readFormBoolean(all.add_to_queue) !== true) {
    throw invalidInput('max_posts_per_slot goes only with add_to_queue=true.', { violations: [{ field: 'max_posts_per_slot', message: 'only with add_to_queue' }] });
  }
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1) throw invalidInput('max_posts_per_slot must be a whole number of at least 1.', { violations: [{ field: 'max_posts_per_slot', message: 'whole number ≥ 1' }] });
  return n;
}

const TargetResult = z.looseObject({
  platform: z.string(),
  success: z.boolean(),
  post_id: z.string().optional(),
  url: z.string().optional(),
  error: z.string().optional(),
  error_code: z.string().optional(),
  warnings: z.array(z.string()),
  first_comment_posted: z.boolean().optional(),
  finished_at: z.string(),
}).describe('One network\'s result; networks add fields of their own (available_pages, …).');

/** core/domain/upload-view.ts. */
export const UploadView = {
  request_id: z.string(),
  job_id: z.string().optional(),
  external_id: z.string().optional(),
  status: z.enum(['scheduled', 'pending', 'in_progress', 'completed', 'cancelled']),
  scheduled_date: z.string().optional(),
  timezone: z.string().optional(),
  queue_slot: z.string().optional(),
  all_succeeded: z.boolean().nullable().describe('true when every network succeeded, false once one failed, null while unknown.'),
  profile_username: z.string(),
  media_type: z.enum(['video', 'photo', 'text', 'document']),
  platforms: z.array(z.string()),
  title: z.string(),
  results: z.record(z.string(), TargetResult).describe('Results by network, as they arrive.'),
  summary: z.object({ total: z.number(), succeeded: z.number(), failed: z.number(), pending: z.number() }),
  warnings: z.array(z.string()),
  created_at: z.string(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
};
const Upload = z.object(UploadView);
const Scheduled = z.object({ ...UploadView, job_id: z.string(), scheduled_date: z.string(), timezone: z.string() });

const UPLOAD_ERRORS = {
  400: 'A field is missing or invalid (the message names it; `violations[]` lists each), an unknown network (`platform_not_supported`), a network\'s own field refused, media a network cannot take.',
  403: 'The plan excludes the network (free-plan tiktok) or the profile is blocked.',
  404: 'PROFILE_NOT_FOUND.',
  409: 'A network account must be reconnected (`reauth_required`), or the queue is full (`queue_full`).',
  413: 'A file is larger than the upload limit (`file_too_large`).',
  415: 'The body is not JSON, urlencoded or multipart.',
  429: 'Monthly quota, a network\'s daily cap or a paused account (`account_restricted`, with `retry_after_seconds`).',
  503: 'reddit_unavailable: reddit is in platform[].',
} as const;

const UPLOAD_RESPONSES = {
  200: { description: 'Published (synchronous): the results of every network.', schema: ok(UploadView) },
  202: { description: 'Accepted: asynchronous (`async_upload`, or longer than 59 s), scheduled (`job_id`, `scheduled_date`) or queued (`queue_slot`). Poll getUploadStatus.', schema: ok({ ...UploadView, message: z.string().optional() }) },
};

const HEADERS_NOTE = ' Headers: `Idempotency-Key` (or `X-Idempotency-Key`, `X-Request-Id`) makes a retry return the first request; `X-External-Id` sets external_id.';

function uploadOperation<const I extends string>(id: I, kind: MediaKind, path: string, summary: string, what: string) {
  const common = documentedCommonFields(kind);
  const networks = networkUploadFields(kind);
  return operation({
    id, method: 'post', path, tags: ['publish'], summary,
    description: `${what} Publishes now (200 with each network's result), asynchronously (\`async_upload=true\`: 202, then poll getUploadStatus with request_id), at \`scheduled_date\` (202 with job_id) or in the profile's next queue slot (\`add_to_queue=true\`). Each network's own fields (\`<network>_title\`, tiktok \`privacy_level\`, pinterest \`pinterest_board_id\`, …) go in the same body.${HEADERS_NOTE} Common errors: 400 naming the field, 404 \`PROFILE_NOT_FOUND\`, 409 \`reauth_required\`, 429 quotas and caps, 503 \`reddit_unavailable\`.`,
    auth: 'apiKey',
    body: z.looseObject({ ...networks.shape, ...common.shape }),
    bodyTypes: kind === 'text' ? ['json', 'form', 'multipart'] : ['multipart', 'json', 'form'],
    ...(Object.keys({ ...common.files, ...networks.files }).length ? { files: { ...networks.files, ...common.files } } : {}),
    responses: UPLOAD_RESPONSES,
    errors: UPLOAD_ERRORS,
    // Documents come as file parts only (no URL).
    mcp: kind === 'text' ? {} : { files: Object.fromEntries(Object.keys(common.files).map((f) => [f, (f === 'document' ? ['base64'] : ['url', 'base64']) as Array<'url' | 'base64'>])) },
  });
}

export const uploadVideo = uploadOperation('uploadVideo', 'video', '/upload', 'Publish a video', 'Publishes one video (a file part `video`, or its public URL) with a title to one or more networks of a profile.');
export const uploadPhotos = uploadOperation('uploadPhotos', 'photo', '/upload_photos', 'Publish photos', 'Publishes photos (file parts `photos[]`, or public URLs; a carousel where the network has one) to one or more networks of a profile.');
export const uploadText = uploadOperation('uploadText', 'text', '/upload_text', 'Publish a text post', 'Publishes a text post (`title` is the text) to one or more networks of a profile.');

export const uploadDocument = uploadOperation('uploadDocument', 'document', '/upload_document', 'Publish a LinkedIn document', 'Publishes a document (a PDF, PPT, PPTX, DOC or DOCX file part `document`, up to 100 MB) as a LinkedIn document post: `title` names the document, `description` (or `commentary`, `linkedin_description`) is the commentary, with `visibility`, `target_linkedin_page_id`, `linkedin_disable_reshare`; platform[] defaults to linkedin.');

export const getUploadStatus = operation({
  id: 'getUploadStatus', method: 'get', path: '/svc/status', tags: ['uploads'],
  summary: 'Status of an upload',
  description: 'The status and per-network results of one upload, by request_id (any upload) or job_id (scheduled posts). Poll it after a 202, not faster than every 5 seconds (answers are cached 2-5 s, `HERALD_STATUS_CACHE_MS`, while nothing changes): `status` goes pending → in_progress → completed; `results` fills per network. A change to any upload of the account (an edit, a cancel, a retry, an operation on a published post, the worker\'s progress) shows on the next read, on every API process. Here `success` is true only once the upload finished and every network succeeded (`status` completed, `all_succeeded` true): false while it is scheduled, pending or in progress, and after a failure or a cancellation. Stop polling on `status` completed or cancelled. Errors: 400 neither id sent, 404 `UPLOAD_NOT_FOUND`.',
  auth: 'apiKey',
  query: z.object({ request_id: z.string().optional().describe('The request_id of the upload.'), job_id: z.string().optional().describe('The job_id of a scheduled post.') }),
  responses: {
    200: {
      description: 'The upload.',
      schema: z.looseObject({ success: z.boolean().describe('true once the upload finished and every network succeeded; false before and after a failure.'), ...UploadView }),
      headers: { 'Cache-Control': 'private, no-cache: the answer may change with the next write; the server does the caching.' },
    },
  },
  errors: { 400: 'Send request_id or job_id.', 404: 'UPLOAD_NOT_FOUND.' },
});

/** The handler's own query schema: parsed at the edge, read by the handler as `input.query`. */
export const HistoryQuery = z.object({
  page: z.coerce.number().int().min(1).default(1).describe('Page, from 1.'),
  limit: z.coerce.number().int().min(1).max(100).default(20).describe('Uploads per page, 1-100.'),
  platform: z.string().refine(isPlatform, 'unknown platform').optional().describe('Only uploads to this network.'),
  status: z.enum(['scheduled', 'pending', 'in_progress', 'completed', 'cancelled']).optional(),
  profile_username: z.string().optional(),
  start: z.coerce.date({ error: 'start must be an ISO-8601 date' }).optional().describe('Created at or after (ISO-8601).'),
  end: z.coerce.date({ error: 'end must be an ISO-8601 date' }).optional().describe('Created before (ISO-8601).'),
  request_id: z.string().optional(),
  job_id: z.string().optional(),
  external_id: z.string().optional(),
  cursor: z.string().optional().describe('Cursor form: the next_cursor of the previous page, with the same filters (page is then ignored).'),
});

export const listUploadHistory = operation({
  id: 'listUploadHistory', method: 'get', path: '/svc/history', tags: ['uploads'],
  summary: 'Upload history',
  description: 'Past and pending uploads, newest first, paginated, filtered by network, status, profile, creation date, or an exact request_id / job_id / external_id. Use to find an upload you did not keep the request_id of. Page by `page` or, to walk the whole history, by `cursor` = the previous page\'s `next_cursor` (null on the last page): both cost the same on any page. Errors: 400 naming the filter, 400 `invalid_cursor`.',
  auth: 'apiKey',
  query: HistoryQuery,
  responses: { 200: { description: 'One page of uploads.', schema: ok({ history: z.array(Upload), page: z.number(), limit: z.number(), total: z.number(), has_more: z.boolean(), next_cursor: z.string().nullable().describe('The cursor of the next page; null on the last page.') }) } },
  errors: { 400: 'A filter is invalid (named in the message), or invalid_cursor.' },
});

export const listScheduledPosts = operation({
  id: 'listScheduledPosts', method: 'get', path: '/svc/schedule', tags: ['scheduled'],
  summary: 'List scheduled posts',
  description: 'Scheduled or queued posts that have not run yet, soonest first, with their job_id and date. Use job_id to edit or cancel one. Up to `limit` per page (default 1000); the next page by `cursor` = `next_cursor`. Errors: 400 `invalid_cursor`.',
  auth: 'apiKey',
  query: z.object({
    limit: z.coerce.number().int().min(1).max(1000).default(1000).describe('Posts per page, 1-1000.'),
    cursor: z.string().optional().describe('The next_cursor of the previous page.'),
  }),
  responses: { 200: { description: 'Scheduled posts.', schema: ok({ scheduled: z.array(Scheduled), total: z.number(), has_more: z.boolean(), next_cursor: z.string().nullable() }) } },
  errors: { 400: 'invalid_cursor.' },
});

const JobIdParams = z.object({ job_id: z.string().describe('The job_id of the scheduled post.') });

export const cancelScheduledPost = operation({
  id: 'cancelScheduledPost', method: 'delete', path: '/svc/schedule/{job_id}', tags: ['scheduled'],
  summary: 'Cancel a scheduled post',
  description: 'Cancels a scheduled or queued post before it runs; it will not be published. Errors: 404 `JOB_NOT_FOUND`, 409 `job_not_cancellable` once it runs.',
  auth: 'apiKey',
  params: JobIdParams,
  responses: { 200: { description: 'Cancelled.', schema: ok({ ...Scheduled.shape, message: z.string() }) } },
  errors: { 404: 'JOB_NOT_FOUND: no scheduled post with this job_id.', 409: 'job_not_cancellable: the post is running or ran.' },
});

export const editScheduledPost = operation({
  id: 'editScheduledPost', method: 'patch', path: '/svc/schedule/{job_id}', tags: ['scheduled'],
  summary: 'Edit a scheduled post',
  description: 'Changes the date, text or per-network fields of a scheduled post; omitted fields stay. The edited post is checked like a new one. Errors: 400 invalid date or field, 404 `JOB_NOT_FOUND`, 409 `job_not_editable` once it runs.',
  auth: 'apiKey',
  params: JobIdParams,
  body: z.looseObject({
    scheduled_date: z.string().optional().describe('New ISO-8601 date-time, in the future, within 365 days.'),
    timezone: z.string().optional().describe('IANA zone of scheduled_date.'),
    title: z.string().optional(),
    description: z.string().optional(),
  }).describe('Also any per-network field (`<network>_title`, the networks\' settings), merged over the original request.'),
  responses: { 200: { description: 'The edited post.', schema: ok(Scheduled.shape) } },
  errors: { 400: 'An invalid date or field.', 404: 'JOB_NOT_FOUND: no scheduled post with this job_id.', 409: 'job_not_editable: the post is running or ran.' },
});

/** The commercial API's clients edit with POST on the same path: the same operation. */
export const editScheduledPostPost = operation({
  ...editScheduledPost,
  id: 'editScheduledPostPost', method: 'post',
  summary: 'Edit a scheduled post (POST)',
  description: `${editScheduledPost.description} Same as PATCH, for clients that send POST.`,
  mcp: { exclude: true },
});

export const retryUpload = operation({
  id: 'retryUpload', method: 'post', path: '/svc/posts/retry', tags: ['uploads'],
  summary: 'Retry failed networks',
  description: 'Sends the networks that failed in a finished upload again, with the original media and settings (request_id or job_id). Answers 202; poll getUploadStatus. Errors: 400 no id, 404 `UPLOAD_NOT_FOUND`, 409 `upload_not_finished` (still running or being retried).',
  auth: 'apiKey',
  body: z.looseObject({ request_id: z.string().optional(), job_id: z.string().optional() }),
  responses: { 202: { description: 'Retrying.', schema: ok({ ...UploadView, retried_platforms: z.array(z.string()), message: z.string() }) } },
  errors: { 400: 'Send request_id or job_id, or nothing failed.', 404: 'UPLOAD_NOT_FOUND.', 409: 'upload_not_finished.' },
});

const QueueSlot = z.object({ slot_at: z.string(), used: z.number(), capacity: z.number() });
const QueueSettings = z.object({
  profile_username: z.string(),
  timezone: z.string(),
  slots: z.array(z.object({ day: z.string(), time: z.string(), hour: z.number(), minute: z.number() })),
  days_of_week: z.array(z.number()).describe('0 = Monday … 6 = Sunday.'),
  posts_per_slot: z.number(),
  max_posts_per_slot: z.number(),
  updated_at: z.string(),
});
const ProfileQuery = z.object({
  profile_username: ruledBy((v, all) => {
    const value = single(v ?? all.username);
    if (typeof value !== 'string' || !value) throw invalidInput('profile_username is required as a query parameter.', { violations: [{ field: 'profile_username', message: 'required' }] });
    return value;
  }, ProfileUsername),
  username: z.string().optional().describe('Alias of profile_username.'),
});
const QUEUE_404 = 'PROFILE_NOT_FOUND, or QUEUE_NOT_CONFIGURED (save settings first).';

export const getQueueSettings = operation({
  id: 'getQueueSettings', method: 'get', path: '/svc/queue/settings', tags: ['queue'],
  summary: 'Queue settings of a profile',
  description: 'The posting queue of a profile: weekly slots in a time zone and posts per slot. Errors: 404 `QUEUE_NOT_CONFIGURED` until settings are saved.',
  auth: 'apiKey',
  query: ProfileQuery,
  responses: { 200: { description: 'The settings.', schema: ok({ settings: QueueSettings }) } },
  errors: { 400: 'profile_username is required.', 404: QUEUE_404 },
});

export const saveQueueSettings = operation({
  id: 'saveQueueSettings', method: 'post', path: '/svc/queue/settings', tags: ['queue'],
  summary: 'Save queue settings',
  description: 'Sets a profile\'s posting queue: `timezone` (IANA), `slots` ([{day: "monday", time: "09:30"}] or hour/minute) or the flat layout (`days_of_week` 0-6 with times), `posts_per_slot` 1-100. Uploads with add_to_queue=true then take the next free slot. Errors: 400 naming the field.',
  auth: 'apiKey',
  body: z.looseObject({
    profile_username: refusedAs('invalid_request', z.string({ error: 'profile_username is required.' }).min(1, { error: 'profile_username is required.' }).max(PROFILE_USERNAME_MAX)),
    // The settings are checked together (core/domain/queue.ts names every offending field): once, on the first of them.
    timezone: ruledBy((v, all) => {
      validateQueueSettings(all);
      return v;
    }, z.string().optional().describe('IANA time zone (default UTC).')),
    slots: z.array(z.looseObject({ day: z.string().optional(), time: z.string().optional(), hour: z.union([z.int(), z.string()]).optional(), minute: z.union([z.int(), z.string()]).optional() }))
      .describe('[{day: "monday", time: "09:30"}], or [{hour, minute}] with days_of_week.'),
    days_of_week: z.array(z.union([z.int().min(0).max(6), z.string()])).optional().describe('0 (Monday) to 6 (Sunday).'),
    posts_per_slot: z.union([z.int(), z.string()]).optional().describe('1-100.'),
    max_posts_per_slot: z.union([z.int(), z.string()]).optional().describe('Same as posts_per_slot.'),
  }),
  responses: { 200: { description: 'The saved settings.', schema: ok({ settings: QueueSettings }) } },
  errors: { 400: 'A field is invalid (violations name each).', 404: 'PROFILE_NOT_FOUND.' },
});

export const previewQueue = operation({
  id: 'previewQueue', method: 'get', path: '/svc/queue/preview', tags: ['queue'],
  summary: 'Preview the queue',
  description: 'The next free slots of a profile\'s queue (default 10, at most 100) with how full each is.',
  auth: 'apiKey',
  query: ProfileQuery.extend({
    count: clampedNumber(10, 1, 100).describe('Slots to show; out-of-range values are clamped (default 10).'),
  }),
  responses: { 200: { description: 'Free slots.', schema: ok({ slots: z.array(QueueSlot) }) } },
  errors: { 400: 'profile_username is required.', 404: QUEUE_404 },
});

export const nextQueueSlot = operation({
  id: 'nextQueueSlot', method: 'get', path: '/svc/queue/next-slot', tags: ['queue'],
  summary: 'Next free queue slot',
  description: 'Where the next add_to_queue post of a profile would go; null when the queue is full within 365 days.',
  auth: 'apiKey',
  query: ProfileQuery,
  responses: { 200: { description: 'The next slot.', schema: ok({ profile_username: z.string(), timezone: z.string(), next_slot: z.string().nullable(), slot: QueueSlot.nullable() }) } },
  errors: { 400: 'profile_username is required.', 404: QUEUE_404 },
});

export const uploadOperations = [
  uploadVideo, uploadPhotos, uploadText, uploadDocument, getUploadStatus, listUploadHistory, listScheduledPosts, cancelScheduledPost, editScheduledPost, editScheduledPostPost,
  retryUpload, getQueueSettings, saveQueueSettings, previewQueue, nextQueueSlot,
];
