/**
 * TikTok through the Content Posting API v2 (developers.tiktok.com: content-posting-api-reference-
 * direct-post, -upload-video, -photo-post, -query-creator-info, -get-video-status,
 * content-posting-api-media-transfer-guide, oauth-user-access-token-management,
 * tiktok-api-v2-error-handling).
 *
 * Video: creator_info/query → video/init (direct post) or inbox/video/init (draft) → PUT the bytes
 * to `upload_url` in ordered chunks (or PULL_FROM_URL) → status/fetch, polled with `wait` steps.
 * Photos: creator_info/query → content/init with the public URL of each image → status/fetch.
 *
 * First comments go through TikTok API for Business, the only TikTok API that writes comments
 * (business-api.tiktok.com/portal/docs, "Create a new comment on an owned video", v1.3):
 * `POST /v1.3/business/comment/create/ {business_id, video_id, text}` with an `Access-Token`
 * header; `business_id` is the account's open_id. The connection's token is used for it.
 *
 * Fields the spec gates by connection capability (music, location, cover image) are not in TikTok's
 * public reference; they travel in `post_info` as `music_id`, `music_volume`, `music_start_ms`,
 * `music_end_ms`, `original_sound_volume`, `location_id`, `location_name`, `cover_image_url`.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { MediaRef } from '../../../core/domain/media';
import type { SettingField, SettingsSchema, SettingViolation } from '../../../core/domain/settings';
import type {
  Comments, OAuthConnector, PlatformAdapter, PlatformCredentials, PlatformDescriptor, PublishContext,
  PublishOutcome, PublishPost, PublishStep, TokenRefresher, VerifiedConnection,
} from '../../../core/ports/platform';
import type { CallContext } from '../../../core/ports/platform';
import { exchangeJson, isObject, type HttpExchange, type Json } from '../kit/http';

export const TIKTOK_API_BASE = 'https://open.tiktokapis.com';
export const TIKTOK_AUTH_BASE = 'https://www.tiktok.com';
export const TIKTOK_BUSINESS_API_BASE = 'https://business-api.tiktok.com/open_api';
/** Scopes Herald asks for: publish (direct post), upload (drafts), and the identity. */
export const TIKTOK_SCOPES: readonly string[] = ['video.publish', 'video.upload', 'user.info.basic'];
export const TIKTOK_PRIVACY_LEVELS = ['PUBLIC_TO_EVERYONE', 'MUTUAL_FOLLOW_FRIENDS', 'FOLLOWER_OF_CREATOR', 'SELF_ONLY'] as const;

const TIKTOK_WEB = 'https://www.tiktok.com';
const MB = 1024 * 1024;
const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_UPLOAD_TIMEOUT_MS = 120_000;
// Media transfer guide: chunks of 5–64 MB, the last one up to 128 MB; a file under 5 MB goes whole.
const MIN_CHUNK = 5 * MB;
const MAX_CHUNK = 64 * MB;
const DEFAULT_CHUNK = 10 * MB;
const MAX_CHUNKS = 1000;
const PHOTO_TITLE_MAX = 90;
const PHOTO_DESCRIPTION_MAX = 4000;
const COVER_IMAGE_MAX_BYTES = 20 * MB;
const COVER_IMAGE_TYPES = ['image/jpeg', 'image/webp', 'image/png'];
/** API for Business takes up to 1,200 characters of comment text. */
const COMMENT_MAX_CHARS = 1200;
const DEFAULT_COVER_TIMESTAMP_MS = 1000;
/** TikTok counts its init limit (6 requests) per minute: without a header, wait out the window. */
const DEFAULT_RATE_LIMIT_WAIT_MS = 60_000;
const HOUR_MS = 3_600_000;
/** Spec "restriction_reason values": account-level spam verdicts park the account this long. */
const RESTRICTION_MS: Record<string, number> = {
  spam_risk_too_many_posts: HOUR_MS,
  spam_risk_user_banned_from_posting: 7 * 24 * HOUR_MS,
};

export interface TikTokPlatformOptions {
  /** The app's client key. */
  clientId: string;
  clientSecret: string;
  /** Default https://open.tiktokapis.com (API and token endpoint); a simulator in tests and the sandbox. */
  apiBase?: string;
  /** Default https://www.tiktok.com (the authorize page). */
  authBase?: string;
  /** Default https://business-api.tiktok.com/open_api (first comments). */
  businessApiBase?: string;
  scopes?: readonly string[];
  /** How videos reach TikTok: pushed in chunks (default), or pulled from a verified public URL. */
  videoSource?: 'FILE_UPLOAD' | 'PULL_FROM_URL';
  /** Chunk size for videos of 5 MB and more; clamped to 5–64 MB. Default 10 MB. */
  chunkSizeBytes?: number;
  /** Delay between status polls while TikTok processes. Default 5 s. */
  pollIntervalMs?: number;
  /** Polls while processing before giving up. Default 360 (30 min at 5 s). */
  maxStatusPolls?: number;
  /** After PUBLISH_COMPLETE without a post id: delay between polls and how many. Default 15 s × 12. */
  postIdPollIntervalMs?: number;
  postIdPolls?: number;
  timeoutMs?: number;
  /** Per uploaded chunk. Default 120 s. */
  uploadTimeoutMs?: number;
  fetch?: typeof fetch;
  now?: () => Date;
}

// ---------------------------------------------------------------------------------------------
// Settings: every TikTok field of the spec, per endpoint.

const VP: SettingField['endpoints'] = ['video', 'photo'];

const tiktokSettings: SettingsSchema = {
  fields: [
    { name: 'privacy_level', type: 'string', endpoints: VP, oneOf: TIKTOK_PRIVACY_LEVELS,
      description: 'Allowed set is per account. Omitted: the account default on video, PUBLIC_TO_EVERYONE on photos.' },
    { name: 'post_mode', type: 'string', endpoints: VP, oneOf: ['DIRECT_POST', 'MEDIA_UPLOAD'],
      description: 'DIRECT_POST when omitted; MEDIA_UPLOAD sends a draft to the TikTok inbox.' },
    { name: 'tiktok_upload_to_draft', aliases: ['upload_to_draft'], type: 'boolean', endpoints: VP, default: false,
      description: 'true is post_mode=MEDIA_UPLOAD.' },
    { name: 'disable_inbox_fallback', type: 'boolean', endpoints: VP, default: false },
    { name: 'disable_comment', type: 'boolean', endpoints: VP, default: false },
    { name: 'disable_duet', type: 'boolean', endpoints: ['video'], default: false },
    { name: 'disable_stitch', type: 'boolean', endpoints: ['video'], default: false },
    { name: 'cover_timestamp', type: 'integer', endpoints: ['video'], min: 0, default: DEFAULT_COVER_TIMESTAMP_MS,
      description: 'Milliseconds into the video.' },
    { name: 'tiktok_cover_image_url', type: 'url', endpoints: ['video'],
      description: 'JPG/WebP/PNG, max 20 MB; wins over cover_timestamp and tiktok_cover_image.' },
    { name: 'tiktok_cover_image', type: 'file', endpoints: ['video'] },
    { name: 'tiktok_music_id', type: 'string', endpoints: VP },
    { name: 'tiktok_music_volume', type: 'integer', endpoints: ['video'], min: 0, max: 100, description: '50 when a track is set.' },
    { name: 'tiktok_music_start', type: 'integer', endpoints: ['video'], min: 0, description: 'Milliseconds into the track.' },
    { name: 'tiktok_music_end', type: 'integer', endpoints: ['video'], min: 0, description: 'Milliseconds into the track.' },
    { name: 'tiktok_original_sound_volume', type: 'integer', endpoints: ['video'], min: 0, max: 100, description: '50 when music is present.' },
    { name: 'tiktok_location_id', type: 'string', endpoints: VP },
    { name: 'tiktok_location_name', type: 'string', endpoints: VP },
    { name: 'brand_content_toggle', type: 'boolean', endpoints: VP, default: false },
    { name: 'brand_organic_toggle', type: 'boolean', endpoints: VP, default: false },
    // The platform-specific spelling wins over the cross-network is_ai_generated.
    { name: 'tiktok_is_ai_generated', aliases: ['is_aigc', 'is_ai_generated'], type: 'boolean', endpoints: VP, default: false },
    { name: 'auto_add_music', type: 'boolean', endpoints: ['photo'], default: false },
    { name: 'photo_cover_index', type: 'integer', endpoints: ['photo'], min: 0, default: 0, description: '0-based.' },
    { name: 'tiktok_description', aliases: ['description'], type: 'string', endpoints: ['photo'], maxLength: PHOTO_DESCRIPTION_MAX },
  ],
  check(values, ctx) {
    const violations: SettingViolation[] = [];
    if (values.tiktok_location_id !== undefined && values.tiktok_location_name === undefined) {
      violations.push({ field: 'tiktok_location_name', message: 'tiktok_location_name is required when tiktok_location_id is sent.' });
    }
    if (values.post_mode === 'DIRECT_POST' && values.tiktok_upload_to_draft === true) {
      violations.push({ field: 'tiktok_upload_to_draft', message: 'tiktok_upload_to_draft=true asks for a draft (MEDIA_UPLOAD) but post_mode is DIRECT_POST: send one of them.' });
    }
    const start = values.tiktok_music_start;
    const end = values.tiktok_music_end;
    if (typeof start === 'number' && typeof end === 'number' && end <= start) {
      violations.push({ field: 'tiktok_music_end', message: 'tiktok_music_end must be after tiktok_music_start.' });
    }
    if (ctx.endpoint === 'photo' && typeof values.photo_cover_index === 'number' && values.photo_cover_index >= ctx.mediaCount) {
      violations.push({ field: 'photo_cover_index', message: `photo_cover_index is 0-based and there are ${ctx.mediaCount} photos.` });
    }
    return violations;
  },
};

export const tiktokDescriptor: PlatformDescriptor = {
  id: 'tiktok',
  displayName: 'TikTok',
  connect: 'oauth',
  endpoints: ['video', 'photo'],
  limits: {
    textMaxChars: 2200,
    // TikTok takes 4 GB; the service caps uploads at 3 GB.
    video: {
      maxBytes: 3 * 1024 * MB, minSeconds: 3, maxSeconds: 600,
      containers: ['mov,mp4,m4a,3gp,3g2,mj2', 'matroska,webm'], minShortSidePx: 360, minFps: 23, maxFps: 60,
    },
    // TikTok refuses PNG photos.
    photo: { maxBytes: 20 * MB, maxCount: 35, contentTypes: ['image/jpeg', 'image/webp'] },
  },
  settings: tiktokSettings,
  rules: { dailyCap: 15, perMinuteCap: 6, excludedPlans: ['free'] },
};

// ---------------------------------------------------------------------------------------------
// Failure mapping.

/** What came back from TikTok, before it is given a meaning. */
export type TikTokOutcome =
  | HttpExchange
  /** A success status whose body is not what the call returns. */
  | { kind: 'malformed'; status: number; what: string }
  /** status/fetch answered FAILED with this `fail_reason`. */
  | { kind: 'publish_failed'; failReason: string }
  /** status/fetch kept answering "processing" past the poll budget. */
  | { kind: 'processing_timeout'; publishId: string; polls: number };

const fail = (failure: PlatformError['failure'], message: string, upstream: PlatformError['upstream'] = {}) =>
  new PlatformError('tiktok', failure, message, upstream);

function retryAfterMs(headers: Headers): number {
  const seconds = Number.parseFloat(headers.get('retry-after') ?? '');
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
  const resetAt = Number.parseFloat(headers.get('x-ratelimit-reset') ?? '');
  if (Number.isFinite(resetAt) && resetAt * 1000 > Date.now()) return Math.ceil(resetAt * 1000 - Date.now());
  return DEFAULT_RATE_LIMIT_WAIT_MS;
}

/** A TikTok error code (Content Posting API codes and status `fail_reason` values) given its meaning. */
function mapCode(code: string, said: string, upstream: PlatformError['upstream'], now: Date, headers?: Headers): PlatformError {
  const message = `TikTok: ${said}`;
  switch (code) {
    case 'access_token_invalid':
    case 'scope_not_authorized':
    case 'scope_permission_missed':
    case 'auth_removed':
      return fail({ kind: 'auth_expired', reason: code }, `${message}. Reconnect the TikTok account.`, upstream);
    case 'invalid_grant':
      return fail({ kind: 'auth_expired', reason: 'invalid_grant' }, `${message}. Reconnect the TikTok account.`, upstream);
    case 'rate_limit_exceeded':
      return fail({ kind: 'rate_limited', retryAfterMs: headers ? retryAfterMs(headers) : DEFAULT_RATE_LIMIT_WAIT_MS }, message, upstream);
    case 'privacy_level_option_mismatch':
      return fail({ kind: 'invalid_content', code: 'tiktok_privacy_unavailable' }, message, upstream);
    case 'internal_error':
    case 'internal':
      return fail({ kind: 'transient' }, `${message} (TikTok-side failure; try again later).`, upstream);
    case 'invalid_params':
    case 'invalid_param':
    case 'invalid_file_upload':
    case 'file_format_check_failed':
    case 'duration_check_failed':
    case 'frame_rate_check_failed':
    case 'picture_size_check_failed':
    case 'file_size_check_failed':
      return fail({ kind: 'invalid_content', code }, message, upstream);
  }
  const pause = RESTRICTION_MS[code];
  if (pause !== undefined) {
    return fail({ kind: 'restricted', reason: code, until: new Date(now.getTime() + pause) }, message, upstream);
  }
  if ((upstream.status ?? 0) >= 500) return fail({ kind: 'transient' }, `${message} (HTTP ${upstream.status}; try again later).`, upstream);
  // Other spam_risk_* verdicts are about this post (or the draft backlog): they never park the account.
  return fail({ kind: 'rejected', code }, message, upstream);
}

/**
 * The one place TikTok's answers get a meaning in the core taxonomy. TikTok speaks three error
 * shapes: Content Posting `{error:{code,message,log_id}}`, OAuth `{error, error_description}` and
 * API for Business `{code: <number>, message}`; each is classified by its code, then by HTTP
 * status. Messages never contain tokens.
 */
export function mapTikTokFailure(outcome: TikTokOutcome, timeoutMs: number, now: Date = new Date()): PlatformError {
  switch (outcome.kind) {
    case 'no_response': {
      const what = outcome.reason === 'timeout' ? `TikTok did not answer within ${timeoutMs} ms`
        : outcome.reason === 'aborted' ? 'The request to TikTok was cancelled before it answered'
        : `The connection to TikTok failed${outcome.detail ? ` (${outcome.detail})` : ''}`;
      return fail({ kind: 'transient' }, `${what}; the outcome is unknown: the request may or may not have taken effect.`);
    }
    case 'malformed':
      // TikTok may have acted on the request: retrying could post twice, so this is not transient.
      return fail({ kind: 'rejected', code: 'unexpected_response' },
        `TikTok answered HTTP ${outcome.status} without ${outcome.what}; check the account before retrying.`, { status: outcome.status });
    case 'publish_failed':
      return mapCode(outcome.failReason, `the post failed (${outcome.failReason})`, { code: outcome.failReason }, now);
    case 'processing_timeout':
      return fail({ kind: 'rejected', code: 'processing_timeout' },
        `TikTok was still processing ${outcome.publishId} after ${outcome.polls} status checks; it may still appear on the account, so check before retrying.`);
    case 'response':
      break;
  }

  const { status, headers } = outcome;
  const body = isObject(outcome.body) ? outcome.body : {};
  const v2 = isObject(body.error) ? body.error : undefined;
  if (v2 && typeof v2.code === 'string' && v2.code !== 'ok') {
    const said = typeof v2.message === 'string' && v2.message ? v2.message : v2.code;
    return mapCode(v2.code, said, { status, code: v2.code }, now, headers);
  }
  if (typeof body.error === 'string') {
    const said = typeof body.error_description === 'string' && body.error_description ? body.error_description : body.error;
    if (body.error === 'invalid_grant') return mapCode('invalid_grant', said, { status, code: body.error }, now);
    if (status === 429 || body.error === 'rate_limit_exceeded') return mapCode('rate_limit_exceeded', said, { status, code: body.error }, now, headers);
    if (status >= 500) return fail({ kind: 'transient' }, `TikTok is failing (HTTP ${status}); try again later.`, { status, code: body.error });
    return fail({ kind: 'rejected', code: body.error }, `TikTok: ${said}`, { status, code: body.error });
  }
  if (typeof body.code === 'number' && body.code !== 0) {
    // API for Business codes (business-api.tiktok.com/portal/docs, "Return codes").
    const said = typeof body.message === 'string' && body.message ? body.message : `code ${body.code}`;
    const upstream = { status, code: body.code };
    if (body.code === 40100) return fail({ kind: 'rate_limited', retryAfterMs: retryAfterMs(headers) }, `TikTok: ${said}`, upstream);
    if (body.code === 40104 || body.code === 40105) return fail({ kind: 'auth_expired', reason: 'access_token_invalid' }, `TikTok: ${said}. Reconnect the TikTok account.`, upstream);
    if (body.code === 40002) return fail({ kind: 'invalid_content', code: 'invalid_params' }, `TikTok: ${said}`, upstream);
    if (body.code >= 50000) return fail({ kind: 'transient' }, `TikTok is failing (${said}); try again later.`, upstream);
    return fail({ kind: 'rejected', code: String(body.code) }, `TikTok: ${said}`, upstream);
  }
  if (status === 429) return mapCode('rate_limit_exceeded', `HTTP ${status}`, { status }, now, headers);
  if (status === 401) return fail({ kind: 'auth_expired', reason: 'access_token_invalid' }, 'TikTok refused the token (HTTP 401). Reconnect the TikTok account.', { status });
  if (status >= 500) return fail({ kind: 'transient' }, `TikTok is failing (HTTP ${status}); try again later.`, { status });
  return fail({ kind: 'rejected' }, `TikTok refused the request (HTTP ${status}).`, { status });
}

// ---------------------------------------------------------------------------------------------
// Pre-send validation: what TikTok must refuse fails here, before anything is sent.

const chars = (text: string) => [...text].length;
const invalid = (code: string, message: string) => fail({ kind: 'invalid_content', code }, message);

function validateVideo(post: PublishPost): MediaRef {
  const limits = tiktokDescriptor.limits.video!;
  const [video, ...rest] = post.media;
  if (!video || rest.length || video.kind !== 'video') {
    throw invalid('media_count', 'A TikTok video post takes exactly one video.');
  }
  if (video.size > limits.maxBytes!) throw invalid('video_too_large', `TikTok videos are limited to ${limits.maxBytes! / 1024 / MB} GB here; this one has ${video.size} bytes.`);
  const info = video.info;
  if (info?.durationSeconds != null && (info.durationSeconds < limits.minSeconds! || info.durationSeconds > limits.maxSeconds!)) {
    throw invalid('video_duration', `TikTok videos last ${limits.minSeconds}-${limits.maxSeconds} s; this one lasts ${info.durationSeconds} s.`);
  }
  if (info?.container != null && !limits.containers!.includes(info.container)) {
    throw invalid('video_format', `TikTok takes MP4, MOV or WebM videos; this one is ${info.container}.`);
  }
  if (info?.width != null && info.height != null && Math.min(info.width, info.height) < limits.minShortSidePx!) {
    throw invalid('video_resolution', `TikTok needs at least ${limits.minShortSidePx} px on the short side; this video is ${info.width}x${info.height}.`);
  }
  if (info?.frameRate != null && (info.frameRate < limits.minFps! || info.frameRate > limits.maxFps!)) {
    throw invalid('video_frame_rate', `TikTok takes ${limits.minFps}-${limits.maxFps} fps; this video has ${info.frameRate}.`);
  }
  const max = tiktokDescriptor.limits.textMaxChars!;
  if (chars(post.title) > max) throw invalid('text_too_long', `TikTok video titles are limited to ${max} characters; this one has ${chars(post.title)}.`);
  const cover = post.settings.tiktok_cover_image;
  if (isMediaRef(cover) && (!COVER_IMAGE_TYPES.includes(cover.contentType) || cover.size > COVER_IMAGE_MAX_BYTES)) {
    throw invalid('cover_image_invalid', 'tiktok_cover_image must be a JPG, WebP or PNG image of at most 20 MB.');
  }
  const coverAt = post.settings.cover_timestamp;
  if (typeof coverAt === 'number' && info?.durationSeconds != null && coverAt > info.durationSeconds * 1000) {
    throw invalid('cover_timestamp_out_of_range', `cover_timestamp ${coverAt} ms is past the end of the video (${Math.round(info.durationSeconds * 1000)} ms).`);
  }
  return video;
}

function validatePhotos(post: PublishPost, description: string | undefined): MediaRef[] {
  const limits = tiktokDescriptor.limits.photo!;
  if (!post.media.length || post.media.length > limits.maxCount!) {
    throw invalid('media_count', `A TikTok photo post takes 1-${limits.maxCount} photos; this one has ${post.media.length}.`);
  }
  post.media.forEach((photo, i) => {
    if (photo.kind !== 'image') throw invalid('media_kind', 'TikTok photo posts take images only.');
    if (!limits.contentTypes!.includes(photo.contentType)) {
      throw invalid('photo_format', `TikTok takes JPG or WebP photos; photo ${i + 1} is ${photo.contentType}.`);
    }
    if (photo.size > limits.maxBytes!) throw invalid('photo_too_large', `TikTok photos are limited to 20 MB; photo ${i + 1} has ${photo.size} bytes.`);
  });
  if (chars(post.title) > PHOTO_TITLE_MAX) {
    throw invalid('text_too_long', `TikTok photo titles are limited to ${PHOTO_TITLE_MAX} characters; this one has ${chars(post.title)}.`);
  }
  if (description !== undefined && chars(description) > PHOTO_DESCRIPTION_MAX) {
    throw invalid('text_too_long', `tiktok_description is limited to ${PHOTO_DESCRIPTION_MAX} characters; this one has ${chars(description)}.`);
  }
  const cover = post.settings.photo_cover_index;
  if (typeof cover === 'number' && cover >= post.media.length) {
    throw invalid('photo_cover_index', `photo_cover_index ${cover} is past the last of ${post.media.length} photos.`);
  }
  return post.media;
}

function isMediaRef(value: unknown): value is MediaRef {
  return isObject(value) && typeof value.id === 'string' && typeof value.contentType === 'string' && typeof value.size === 'number';
}

// ---------------------------------------------------------------------------------------------
// Planning: which settings this connection may send, and how they map onto `post_info`.

interface Plan {
  draft: boolean;
  /** The privacy level asked for, after the capability check. */
  privacy?: string;
  /** `post_info` fields of a direct post, besides title and privacy_level. */
  postInfo: Json;
  warnings: string[];
}

const capabilityWarning = (field: string, capability: string) =>
  `${field} was ignored: this TikTok connection lacks the "${capability}" capability (reconnect the account to get it).`;

/** Direct-post metadata a draft cannot carry: TikTok's inbox flow takes none of it. */
const DRAFT_DROPS: Record<'video' | 'photo', readonly string[]> = {
  video: ['privacy_level', 'disable_comment', 'disable_duet', 'disable_stitch', 'tiktok_cover_image_url', 'tiktok_cover_image',
    'tiktok_music_id', 'tiktok_location_id', 'brand_content_toggle', 'brand_organic_toggle', 'tiktok_is_ai_generated'],
  photo: ['privacy_level', 'disable_comment', 'tiktok_music_id', 'tiktok_location_id', 'brand_content_toggle', 'brand_organic_toggle',
    'tiktok_is_ai_generated'],
};

function planPost(post: PublishPost, caps: ReadonlySet<string>, media: PublishContext['media']): Plan {
  const s = post.settings;
  const warnings: string[] = [];
  const draft = s.post_mode === 'MEDIA_UPLOAD' || s.tiktok_upload_to_draft === true;
  const video = post.kind === 'video';
  const set = (name: string) => s[name] !== undefined && s[name] !== null && s[name] !== false;
  const coverAt = typeof s.cover_timestamp === 'number' ? s.cover_timestamp : DEFAULT_COVER_TIMESTAMP_MS;

  if (draft) {
    const dropped = [
      // inbox/video/init takes no caption; photo drafts keep title and description.
      ...(video && post.title.trim() ? ['title'] : []),
      ...DRAFT_DROPS[video ? 'video' : 'photo'].filter(set),
      ...(video && coverAt !== DEFAULT_COVER_TIMESTAMP_MS ? ['cover_timestamp'] : []),
    ];
    if (dropped.length) {
      warnings.push(`TikTok drafts carry no post settings: ${dropped.join(', ')} not sent; the user completes the post in the TikTok app.`);
    }
    return { draft, postInfo: {}, warnings };
  }

  let privacy = typeof s.privacy_level === 'string' ? s.privacy_level : undefined;
  const privacyCapability = video ? 'video_privacy' : 'photo_privacy';
  if (privacy && !caps.has(privacyCapability)) {
    warnings.push(capabilityWarning('privacy_level', privacyCapability));
    privacy = undefined;
  }

  const postInfo: Json = { disable_comment: s.disable_comment === true };
  if (video) {
    postInfo.disable_duet = s.disable_duet === true;
    postInfo.disable_stitch = s.disable_stitch === true;
  } else {
    postInfo.auto_add_music = s.auto_add_music === true;
  }
  postInfo.brand_content_toggle = s.brand_content_toggle === true;
  postInfo.brand_organic_toggle = s.brand_organic_toggle === true;
  postInfo.is_aigc = s.tiktok_is_ai_generated === true;

  if (video) {
    const coverUrl = typeof s.tiktok_cover_image_url === 'string' ? s.tiktok_cover_image_url : undefined;
    const coverFile = isMediaRef(s.tiktok_cover_image) ? s.tiktok_cover_image : undefined;
    if (coverUrl || coverFile) {
      if (!caps.has('cover_image')) {
        warnings.push(capabilityWarning(coverUrl ? 'tiktok_cover_image_url' : 'tiktok_cover_image', 'cover_image'));
      } else {
        if (coverUrl && coverFile) warnings.push('tiktok_cover_image was ignored: tiktok_cover_image_url wins.');
        postInfo.cover_image_url = coverUrl ?? media.publicUrl(coverFile!.id);
      }
    }
    if (postInfo.cover_image_url !== undefined) {
      if (coverAt !== DEFAULT_COVER_TIMESTAMP_MS) warnings.push('cover_timestamp was ignored: a cover image wins.');
    } else if (caps.has('cover_timestamp')) {
      postInfo.video_cover_timestamp_ms = coverAt;
    } else if (coverAt !== DEFAULT_COVER_TIMESTAMP_MS) {
      // The default is not something the caller asked for, so only an explicit value is reported.
      warnings.push(capabilityWarning('cover_timestamp', 'cover_timestamp'));
    }
  }

  const trackFields = ['tiktok_music_volume', 'tiktok_music_start', 'tiktok_music_end', 'tiktok_original_sound_volume'].filter(set);
  if (typeof s.tiktok_music_id === 'string') {
    if (!caps.has('music')) {
      warnings.push(capabilityWarning(['tiktok_music_id', ...trackFields].join(', '), 'music'));
    } else {
      postInfo.music_id = s.tiktok_music_id;
      if (video) {
        postInfo.music_volume = typeof s.tiktok_music_volume === 'number' ? s.tiktok_music_volume : 50;
        postInfo.original_sound_volume = typeof s.tiktok_original_sound_volume === 'number' ? s.tiktok_original_sound_volume : 50;
        if (typeof s.tiktok_music_start === 'number') postInfo.music_start_ms = s.tiktok_music_start;
        if (typeof s.tiktok_music_end === 'number') postInfo.music_end_ms = s.tiktok_music_end;
      }
    }
  } else if (trackFields.length) {
    warnings.push(`${trackFields.join(', ')} ignored: they apply only with tiktok_music_id.`);
  }

  if (typeof s.tiktok_location_id === 'string') {
    if (!caps.has('location')) warnings.push(capabilityWarning('tiktok_location_id, tiktok_location_name', 'location'));
    else Object.assign(postInfo, { location_id: s.tiktok_location_id, location_name: s.tiktok_location_name });
  } else if (typeof s.tiktok_location_name === 'string') {
    warnings.push('tiktok_location_name was ignored: it applies only with tiktok_location_id.');
  }

  return { draft, privacy, postInfo, warnings };
}

// ---------------------------------------------------------------------------------------------
// Wire helpers.

/**
 * TikTok writes post ids as bare 19-digit JSON numbers, past what a JS number holds exactly:
 * they are quoted before parsing so no digit is lost.
 */
function quoteBigIds(text: string): string {
  return text
    .replace(/("publicaly_available_post_id"\s*:\s*\[)([^\]]*)\]/g, (_m, head: string, list: string) =>
      `${head}${list.replace(/-?\d+/g, (n) => `"${n}"`)}]`)
    .replace(/("(?:comment_id|video_id)"\s*:\s*)(-?\d+)/g, '$1"$2"');
}

function keepingBigIds(doFetch: typeof fetch): typeof fetch {
  return async (input, init) => {
    const res = await doFetch(input, init);
    const text = await res.text();
    return new Response(text ? quoteBigIds(text) : null, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

async function readRange(media: PublishContext['media'], id: string, start: number, end: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of media.read(id, { start, end })) parts.push(Buffer.from(part));
  return Buffer.concat(parts);
}

/** Chunking per the media transfer guide: total = floor(size / chunk); the last chunk takes the rest. */
function tiktokChunks(size: number, preferred = DEFAULT_CHUNK): { chunkSize: number; count: number } {
  if (size < MIN_CHUNK) return { chunkSize: size, count: 1 };
  let chunkSize = Math.min(Math.max(preferred, MIN_CHUNK), MAX_CHUNK);
  // Grow chunks for very large files so there are at most 1000 of them.
  chunkSize = Math.max(chunkSize, Math.min(MAX_CHUNK, Math.ceil(size / MAX_CHUNKS)));
  if (size <= chunkSize) return { chunkSize: size, count: 1 };
  return { chunkSize, count: Math.floor(size / chunkSize) };
}

const capabilitiesOf = (credentials: PlatformCredentials): Set<string> =>
  new Set((credentials.capabilities ?? '').split(',').map((c) => c.trim()).filter(Boolean));

function readCapabilities(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  if (typeof value === 'string') return value.split(',').map((c) => c.trim()).filter(Boolean);
  return undefined;
}

interface PollState {
  publishId: string;
  kind: 'video' | 'photo';
  fallback: boolean;
  handle: string;
  warnings: string[];
  polls: number;
  idPolls: number;
}

function readPollState(state: Record<string, unknown>): PollState {
  const ok = typeof state.publishId === 'string' && (state.kind === 'video' || state.kind === 'photo')
    && typeof state.polls === 'number' && typeof state.idPolls === 'number' && Array.isArray(state.warnings);
  if (!ok) throw fail({ kind: 'rejected', code: 'invalid_state' }, 'The saved TikTok publishing state is unreadable; check the account before retrying.');
  return {
    publishId: state.publishId as string,
    kind: state.kind as 'video' | 'photo',
    fallback: state.fallback === true,
    handle: typeof state.handle === 'string' ? state.handle : '',
    warnings: (state.warnings as unknown[]).filter((w): w is string => typeof w === 'string'),
    polls: state.polls as number,
    idPolls: state.idPolls as number,
  };
}

interface CreatorInfo {
  creator_username?: string;
  privacy_level_options: string[];
  comment_disabled?: boolean;
  duet_disabled?: boolean;
  stitch_disabled?: boolean;
  max_video_post_duration_sec?: number;
}

// ---------------------------------------------------------------------------------------------

export function createTikTokPlatform(opts: TikTokPlatformOptions): PlatformAdapter {
  const apiBase = (opts.apiBase ?? TIKTOK_API_BASE).replace(/\/+$/, '');
  const authBase = (opts.authBase ?? TIKTOK_AUTH_BASE).replace(/\/+$/, '');
  const businessBase = (opts.businessApiBase ?? TIKTOK_BUSINESS_API_BASE).replace(/\/+$/, '');
  const scopes = opts.scopes ?? TIKTOK_SCOPES;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const uploadTimeoutMs = opts.uploadTimeoutMs ?? DEFAULT_UPLOAD_TIMEOUT_MS;
  const doFetch = opts.fetch ?? fetch;
  const bigIdFetch = keepingBigIds(doFetch);
  const now = opts.now ?? (() => new Date());
  const pollMs = opts.pollIntervalMs ?? 5000;
  const maxPolls = opts.maxStatusPolls ?? 360;
  const postIdPollMs = opts.postIdPollIntervalMs ?? 15_000;
  const postIdPolls = opts.postIdPolls ?? 12;
  const mapFailure = (outcome: TikTokOutcome, ms = timeoutMs) => mapTikTokFailure(outcome, ms, now());

  /** One Content Posting / user API call; answers `data`, or throws the mapped failure. */
  async function api(token: string, method: 'GET' | 'POST', path: string, payload: Json | undefined, signal?: AbortSignal, viaFetch = doFetch): Promise<Json> {
    const outcome = await exchangeJson(`${apiBase}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(method === 'POST' ? { 'content-type': 'application/json; charset=UTF-8' } : {}),
      },
      body: method === 'POST' ? JSON.stringify(payload ?? {}) : undefined,
    }, { fetch: viaFetch, timeoutMs, signal });
    if (outcome.kind === 'no_response') throw mapFailure(outcome);
    const body = isObject(outcome.body) ? outcome.body : {};
    const code = isObject(body.error) ? body.error.code : undefined;
    if (outcome.status < 200 || outcome.status >= 300 || (code !== undefined && code !== 'ok')) throw mapFailure(outcome);
    if (!isObject(body.data)) throw mapFailure({ kind: 'malformed', status: outcome.status, what: `the data of ${path}` });
    return body.data;
  }

  async function tokenRequest(form: Record<string, string>): Promise<Json & { access_token: string; open_id: string }> {
    const outcome = await exchangeJson(`${apiBase}/v2/oauth/token/`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'cache-control': 'no-cache', accept: 'application/json' },
      body: new URLSearchParams({ client_key: opts.clientId, client_secret: opts.clientSecret, ...form }).toString(),
    }, { fetch: doFetch, timeoutMs });
    if (outcome.kind === 'no_response') throw mapFailure(outcome);
    const body = isObject(outcome.body) ? outcome.body : {};
    // TikTok may answer an OAuth error with HTTP 200: the `error` field decides.
    if (outcome.status < 200 || outcome.status >= 300 || typeof body.error === 'string' || (isObject(body.error) && body.error.code !== 'ok')) {
      throw mapFailure(outcome);
    }
    if (typeof body.access_token !== 'string' || typeof body.open_id !== 'string') {
      throw mapFailure({ kind: 'malformed', status: outcome.status, what: 'an access token' });
    }
    return body as Json & { access_token: string; open_id: string };
  }

  /** Tokens → stored credentials. Keeps what the response leaves out (capabilities, handle). */
  function credentialsFrom(tokens: Json & { access_token: string; open_id: string }, previous: PlatformCredentials = {}): PlatformCredentials {
    const at = now().getTime();
    const seconds = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : Number(v));
    const expiresIn = seconds(tokens.expires_in);
    const refreshIn = seconds(tokens.refresh_expires_in);
    const capabilities = readCapabilities(tokens.capabilities);
    const credentials: PlatformCredentials = {
      ...previous,
      access_token: tokens.access_token,
      open_id: tokens.open_id,
      ...(typeof tokens.refresh_token === 'string' ? { refresh_token: tokens.refresh_token } : {}),
      ...(Number.isFinite(expiresIn) ? { expires_at: new Date(at + expiresIn * 1000).toISOString() } : {}),
      ...(Number.isFinite(refreshIn) ? { refresh_expires_at: new Date(at + refreshIn * 1000).toISOString() } : {}),
      ...(typeof tokens.scope === 'string' ? { scope: tokens.scope } : {}),
      ...(capabilities ? { capabilities: capabilities.join(',') } : {}),
    };
    if (credentials.capabilities === undefined) credentials.capabilities = '';
    return credentials;
  }

  const oauth: OAuthConnector = {
    // PKCE is optional for TikTok web apps; a challenge given by the caller is forwarded (S256).
    pkce: false,
    authorizeUrl({ state, redirectUri, codeChallenge }) {
      const params = new URLSearchParams({
        client_key: opts.clientId,
        scope: scopes.join(','),
        response_type: 'code',
        redirect_uri: redirectUri,
        state,
      });
      if (codeChallenge) {
        params.set('code_challenge', codeChallenge);
        params.set('code_challenge_method', 'S256');
      }
      return `${authBase}/v2/auth/authorize/?${params.toString()}`;
    },
    async exchangeCode({ code, redirectUri, codeVerifier }): Promise<VerifiedConnection> {
      const tokens = await tokenRequest({
        code, grant_type: 'authorization_code', redirect_uri: redirectUri, ...(codeVerifier ? { code_verifier: codeVerifier } : {}),
      });
      const data = await api(tokens.access_token, 'GET', '/v2/user/info/?fields=open_id,union_id,avatar_url,display_name,username', undefined);
      const user = isObject(data.user) ? data.user : {};
      const text = (v: unknown) => (typeof v === 'string' ? v : '');
      const credentials = credentialsFrom(tokens);
      credentials.handle = text(user.username);
      if (text(user.union_id)) credentials.union_id = text(user.union_id);
      const capabilities = credentials.capabilities ? credentials.capabilities.split(',') : [];
      return {
        identity: {
          platformUserId: text(user.open_id) || tokens.open_id,
          handle: text(user.username),
          displayName: text(user.display_name) || text(user.username),
          avatarUrl: text(user.avatar_url),
          capabilities,
        },
        credentials,
      };
    },
  };

  const refresher: TokenRefresher = {
    async refresh(credentials) {
      if (!credentials.refresh_token) {
        throw fail({ kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored TikTok connection has no refresh token; reconnect the account.');
      }
      // TikTok rotates the refresh token: the returned one replaces the old, which stops working.
      return credentialsFrom(await tokenRequest({ grant_type: 'refresh_token', refresh_token: credentials.refresh_token }), credentials);
    },
  };

  function tokenOf(ctx: CallContext): string {
    const token = ctx.credentials.access_token;
    if (!token) throw fail({ kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored TikTok connection has no access token; reconnect the account.');
    return token;
  }

  async function creatorInfo(ctx: PublishContext): Promise<CreatorInfo> {
    const data = await api(tokenOf(ctx), 'POST', '/v2/post/publish/creator_info/query/', {}, ctx.signal);
    if (!Array.isArray(data.privacy_level_options)) throw mapFailure({ kind: 'malformed', status: 200, what: 'privacy_level_options' });
    return data as unknown as CreatorInfo;
  }

  /** PUTs the video in order, one chunk at a time, with `Content-Range: bytes a-b/total`. */
  async function uploadVideo(ctx: PublishContext, uploadUrl: string, video: MediaRef, chunks: { chunkSize: number; count: number }) {
    for (let i = 0; i < chunks.count; i += 1) {
      const start = i * chunks.chunkSize;
      const end = i === chunks.count - 1 ? video.size : start + chunks.chunkSize;
      const bytes = await readRange(ctx.media, video.id, start, end);
      const outcome = await exchangeJson(uploadUrl, {
        method: 'PUT',
        headers: { 'content-type': video.contentType, 'content-range': `bytes ${start}-${end - 1}/${video.size}` },
        body: bytes,
      }, { fetch: doFetch, timeoutMs: uploadTimeoutMs, signal: ctx.signal });
      if (outcome.kind === 'no_response') throw mapFailure(outcome, uploadTimeoutMs);
      if (outcome.status !== 201 && outcome.status !== 206 && outcome.status !== 200) throw mapFailure(outcome);
    }
  }

  async function init(ctx: PublishContext, path: string, payload: Json): Promise<Json & { publish_id: string }> {
    const data = await api(tokenOf(ctx), 'POST', path, payload, ctx.signal);
    if (typeof data.publish_id !== 'string') throw mapFailure({ kind: 'malformed', status: 200, what: 'a publish_id' });
    return data as Json & { publish_id: string };
  }

  /** A direct-post init; null when the active-user cap is hit and the post may go to the inbox instead. */
  async function initDirect(ctx: PublishContext, path: string, payload: Json, mayFallBack: boolean) {
    try {
      return await init(ctx, path, payload);
    } catch (err) {
      const capped = err instanceof PlatformError && err.failure.kind === 'rejected' && err.failure.code === 'reached_active_user_cap';
      if (capped && mayFallBack) return null;
      throw err;
    }
  }

  function checkPrivacy(requested: string | undefined, creator: CreatorInfo): string {
    const options = creator.privacy_level_options;
    const level = requested ?? (options.includes('PUBLIC_TO_EVERYONE') ? 'PUBLIC_TO_EVERYONE' : options[0]);
    if (!level || !options.includes(level)) {
      throw invalid('tiktok_privacy_unavailable',
        `privacy_level ${level ?? '(none)'} is not available for this TikTok account; available: ${options.join(', ') || 'none'}.`);
    }
    return level;
  }

  /** At intake: a privacy level the account does not offer answers 400 before anything is sent. */
  async function precheck(ctx: PublishContext, post: PublishPost): Promise<void> {
    if (post.kind === 'text') return;
    const plan = planPost(post, capabilitiesOf(ctx.credentials), ctx.media);
    if (plan.draft) return;
    checkPrivacy(plan.privacy, await creatorInfo(ctx));
  }

  async function publishVideo(ctx: PublishContext, post: PublishPost): Promise<PublishStep> {
    const video = validateVideo(post);
    const caps = capabilitiesOf(ctx.credentials);
    const plan = planPost(post, caps, ctx.media);
    const warnings = [...plan.warnings];
    const source = opts.videoSource ?? 'FILE_UPLOAD';
    const chunks = tiktokChunks(video.size, opts.chunkSizeBytes);
    const sourceInfo: Json = source === 'FILE_UPLOAD'
      ? { source, video_size: video.size, chunk_size: chunks.chunkSize, total_chunk_count: chunks.count }
      : { source, video_url: ctx.media.publicUrl(video.id) };

    let handle = ctx.credentials.handle ?? '';
    let data: (Json & { publish_id: string }) | null = null;
    let fallback = false;
    if (!plan.draft) {
      const creator = await creatorInfo(ctx);
      handle = creator.creator_username || handle;
      const maxSeconds = creator.max_video_post_duration_sec;
      const seconds = video.info?.durationSeconds;
      if (typeof maxSeconds === 'number' && seconds != null && seconds > maxSeconds) {
        throw invalid('video_duration', `This TikTok account posts videos of at most ${maxSeconds} s; this one lasts ${seconds} s.`);
      }
      const postInfo: Json = {
        title: post.title,
        privacy_level: checkPrivacy(plan.privacy, creator),
        ...plan.postInfo,
      };
      // Interactions the creator turned off in TikTok stay off whatever the post asks.
      if (creator.comment_disabled) postInfo.disable_comment = true;
      if (creator.duet_disabled) postInfo.disable_duet = true;
      if (creator.stitch_disabled) postInfo.disable_stitch = true;
      data = await initDirect(ctx, '/v2/post/publish/video/init/', { post_info: postInfo, source_info: sourceInfo }, canFallBack(post, caps));
      fallback = data === null;
    }
    data ??= await init(ctx, '/v2/post/publish/inbox/video/init/', { source_info: sourceInfo });
    if (fallback) warnings.push("TikTok's daily active-user cap was reached: the video went to the account's inbox as a draft instead.");

    if (source === 'FILE_UPLOAD') {
      if (typeof data.upload_url !== 'string') throw mapFailure({ kind: 'malformed', status: 200, what: 'an upload_url' });
      await uploadVideo(ctx, data.upload_url, video, chunks);
    }
    return waitFor({ publishId: data.publish_id, kind: 'video', fallback, handle, warnings, polls: 0, idPolls: 0 }, pollMs);
  }

  async function publishPhotos(ctx: PublishContext, post: PublishPost): Promise<PublishStep> {
    const description = typeof post.settings.tiktok_description === 'string' ? post.settings.tiktok_description : post.description;
    const photos = validatePhotos(post, description);
    const caps = capabilitiesOf(ctx.credentials);
    const plan = planPost(post, caps, ctx.media);
    const warnings = [...plan.warnings];
    const sourceInfo: Json = {
      source: 'PULL_FROM_URL',
      photo_cover_index: typeof post.settings.photo_cover_index === 'number' ? post.settings.photo_cover_index : 0,
      photo_images: photos.map((p) => ctx.media.publicUrl(p.id)),
    };
    const text: Json = { title: post.title, ...(description !== undefined ? { description } : {}) };
    const draftPayload = { media_type: 'PHOTO', post_mode: 'MEDIA_UPLOAD', post_info: { ...text, auto_add_music: post.settings.auto_add_music === true }, source_info: sourceInfo };

    let handle = ctx.credentials.handle ?? '';
    let data: (Json & { publish_id: string }) | null = null;
    let fallback = false;
    if (!plan.draft) {
      const creator = await creatorInfo(ctx);
      handle = creator.creator_username || handle;
      // The spec sends PUBLIC_TO_EVERYONE when omitted, so a private account must name its level.
      const requested = plan.privacy ?? 'PUBLIC_TO_EVERYONE';
      const postInfo: Json = { ...text, privacy_level: checkPrivacy(requested, creator), ...plan.postInfo };
      if (creator.comment_disabled) postInfo.disable_comment = true;
      data = await initDirect(ctx, '/v2/post/publish/content/init/',
        { media_type: 'PHOTO', post_mode: 'DIRECT_POST', post_info: postInfo, source_info: sourceInfo }, canFallBack(post, caps));
      fallback = data === null;
    }
    data ??= await init(ctx, '/v2/post/publish/content/init/', draftPayload);
    if (fallback) warnings.push("TikTok's daily active-user cap was reached: the photos went to the account's inbox as a draft instead.");
    return waitFor({ publishId: data.publish_id, kind: 'photo', fallback, handle, warnings, polls: 0, idPolls: 0 }, pollMs);
  }

  /** Inbox fallback is the connection's (capability `inbox_fallback`) unless the post opts out. */
  function canFallBack(post: PublishPost, caps: ReadonlySet<string>): boolean {
    return caps.has('inbox_fallback') && post.settings.disable_inbox_fallback !== true;
  }

  function waitFor(state: PollState, afterMs: number): PublishStep {
    return { kind: 'wait', afterMs, state: { ...state } };
  }

  function finished(state: PollState, postId: string | undefined, extraWarnings: string[] = []): PublishStep {
    const outcome: PublishOutcome = {
      postId: postId ?? state.publishId,
      warnings: [...state.warnings, ...extraWarnings],
      extra: { publish_id: state.publishId, fallback_to_inbox: state.fallback },
    };
    if (postId && state.handle) outcome.url = `${TIKTOK_WEB}/@${state.handle}/${state.kind === 'video' ? 'video' : 'photo'}/${postId}`;
    return { kind: 'done', outcome };
  }

  async function poll(ctx: PublishContext, state: PollState): Promise<PublishStep> {
    const data = await api(tokenOf(ctx), 'POST', '/v2/post/publish/status/fetch/', { publish_id: state.publishId }, ctx.signal, bigIdFetch);
    const status = typeof data.status === 'string' ? data.status : '';
    if (status === 'FAILED') {
      throw mapFailure({ kind: 'publish_failed', failReason: typeof data.fail_reason === 'string' && data.fail_reason ? data.fail_reason : 'unknown' });
    }
    if (status === 'SEND_TO_USER_INBOX') {
      return finished(state, undefined, [
        'Sent to the TikTok inbox as a draft: the user completes the post in the TikTok app, so there is no post id or URL yet.',
      ]);
    }
    if (status === 'PUBLISH_COMPLETE') {
      const ids = Array.isArray(data.publicaly_available_post_id) ? data.publicaly_available_post_id : [];
      const id = ids.length ? String(ids[0]) : undefined;
      if (id) return finished(state, id);
      // Public posts get their id after moderation, usually within a minute, sometimes hours.
      if (state.idPolls < postIdPolls) return waitFor({ ...state, idPolls: state.idPolls + 1 }, postIdPollMs);
      return finished(state, undefined, [
        `TikTok published the post but had not released its id after ${state.idPolls} checks (moderation can take hours); post_id is the publish id and there is no URL yet.`,
      ]);
    }
    // PROCESSING_UPLOAD, PROCESSING_DOWNLOAD and any newer in-between state: keep polling.
    if (state.polls + 1 >= maxPolls) throw mapFailure({ kind: 'processing_timeout', publishId: state.publishId, polls: state.polls + 1 });
    return waitFor({ ...state, polls: state.polls + 1 }, pollMs);
  }

  const firstCommenter: Comments = {
    async create(ctx, { post, text }) {
      if (!capabilitiesOf(ctx.credentials).has('comments')) {
        return { warnings: ['The first comment was skipped: this TikTok connection lacks the "comments" capability (reconnect the account to get it).'] };
      }
      const publishId = isObject(post.extra) ? post.extra.publish_id : undefined;
      if (!post.id || post.id === publishId) {
        return { warnings: ['The first comment was skipped: TikTok has not released the post id yet (drafts never get one).'] };
      }
      if (chars(text) > COMMENT_MAX_CHARS) throw invalid('text_too_long', `TikTok comments are limited to ${COMMENT_MAX_CHARS} characters; this one has ${chars(text)}.`);
      const outcome = await exchangeJson(`${businessBase}/v1.3/business/comment/create/`, {
        method: 'POST',
        headers: { 'access-token': tokenOf(ctx), 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify({ business_id: ctx.credentials.open_id ?? '', video_id: post.id, text }),
      }, { fetch: bigIdFetch, timeoutMs, signal: ctx.signal });
      if (outcome.kind === 'no_response') throw mapFailure(outcome);
      const body = isObject(outcome.body) ? outcome.body : {};
      if (outcome.status < 200 || outcome.status >= 300 || body.code !== 0) throw mapFailure(outcome);
      const data = isObject(body.data) ? body.data : {};
      if (typeof data.comment_id !== 'string') throw mapFailure({ kind: 'malformed', status: outcome.status, what: 'a comment_id' });
      return { comment: { id: data.comment_id, post } };
    },
  };

  return {
    descriptor: tiktokDescriptor,
    oauth,
    refresher,
    comments: firstCommenter,
    publisher: {
      precheck,
      async publish(ctx, post) {
        if (post.kind === 'video') return publishVideo(ctx, post);
        if (post.kind === 'photo') return publishPhotos(ctx, post);
        throw fail({ kind: 'unsupported' }, 'TikTok takes videos and photos only, not text posts.');
      },
      async resume(ctx, _post, state) {
        return poll(ctx, readPollState(state));
      },
    },
  };
}

