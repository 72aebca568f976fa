/**
 * Instagram through the Instagram API with Instagram Login (developers.facebook.com/docs/instagram-platform):
 * Business Login for the account (www.instagram.com/oauth/authorize → api.instagram.com/oauth/access_token →
 * a 60-day token from graph.instagram.com/access_token), then the content-publishing container flow on
 * graph.instagram.com: POST /{ig-id}/media (Meta pulls the media from a public URL) → poll
 * GET /{container}?fields=status_code → POST /{ig-id}/media_publish → GET /{media}?fields=permalink.
 * Containers take a while to process, so publishing is a sequence of `wait` steps, never a sleep.
 */
import { PlatformError, type PlatformFailure } from '../../../core/domain/errors';
import type { MediaRef } from '../../../core/domain/media';
import type { MediaKind } from '../../../core/domain/platforms';
import type { SettingsSchema, SettingViolation } from '../../../core/domain/settings';
import type {
  PlatformAdapter, PlatformCredentials, PlatformDescriptor, PublishContext, PublishPost, PublishStep, VerifiedConnection,
} from '../../../core/ports/platform';
import { isObject, type HttpExchange, type Json } from '../kit/http';
import {
  createMetaGraphClient, META_RATE_LIMIT_CODES, metaAuthorizeUrl, META_TOKEN_SUBCODE_REASONS, metaNoResponseMessage, metaRetryAfterMs, metaTokenExpiresAt,
  metaWaitStep, readMetaAccount, readMetaGraphError, readMetaIdentity, readMetaPermalink,
} from '../kit/meta-graph';

export const INSTAGRAM_API_BASE = 'https://graph.instagram.com';
export const INSTAGRAM_API_VERSION = 'v21.0';
export const INSTAGRAM_AUTHORIZE_URL = 'https://www.instagram.com/oauth/authorize';
export const INSTAGRAM_TOKEN_URL = 'https://api.instagram.com/oauth/access_token';
/** Business Login scopes: profile, publishing, and comments (for the first comment). */
export const INSTAGRAM_SCOPES = ['instagram_business_basic', 'instagram_business_content_publish', 'instagram_business_manage_comments'] as const;

const DEFAULT_TIMEOUT_MS = 20_000;
/** Meta asks for container status about once a minute for video; images are ready within seconds. */
const DEFAULT_IMAGE_POLL_MS = 5_000;
const DEFAULT_VIDEO_POLL_MS = 30_000;
const DEFAULT_MAX_PROCESSING_MS = 15 * 60_000;
const DEFAULT_RATE_LIMIT_MS = 60_000;
/** Spec restriction pauses. */
const PUBLISH_LIMIT_PAUSE_MS = 30 * 60_000;
const SPAM_PAUSE_MS = 24 * 60 * 60_000;
const MAX_CAROUSEL = 10;
const MAX_CAPTION = 2200;
const MAX_HASHTAGS = 30;
const MAX_MENTIONS = 20;
const MAX_ALT_TEXT = 1000;
const REELS_MAX_SECONDS = 90;
/** Meta's limits for story and carousel videos (not in the spec's table). */
const STORY_OR_CAROUSEL_VIDEO_MAX_SECONDS = 60;
const VIDEO_MIN_SECONDS = 3;
const MP4_CONTAINER = 'mov,mp4,m4a,3gp,3g2,mj2';
const PHOTO_TYPES = ['image/jpeg', 'image/png'];

export interface InstagramPlatformOptions {
  clientId: string;
  clientSecret: string;
  /** graph.instagram.com by default: the Graph API and the long-lived token endpoints. */
  apiBase?: string;
  apiVersion?: string;
  /** https://www.instagram.com/oauth/authorize by default. */
  authorizeUrl?: string;
  /** https://api.instagram.com/oauth/access_token by default (code → short-lived token). */
  tokenUrl?: string;
  timeoutMs?: number;
  /** Delay between container status checks (default 5 s for images, 30 s when a video is involved). */
  pollIntervalMs?: number;
  /** Containers still processing after this long fail the attempt as transient (default 15 min). */
  maxProcessingMs?: number;
  fetch?: typeof fetch;
}

const SHARE_MODES = ['CUSTOM', 'TRIAL_REELS_SHARE_TO_FOLLOWERS_IF_LIKED', 'TRIAL_REELS_DONT_SHARE_TO_FOLLOWERS'] as const;
/** share_mode → trial_params.graduation_strategy of a trial reel. */
const TRIAL_GRADUATION: Record<string, string> = {
  TRIAL_REELS_SHARE_TO_FOLLOWERS_IF_LIKED: 'SS_PERFORMANCE',
  TRIAL_REELS_DONT_SHARE_TO_FOLLOWERS: 'MANUAL',
};

type UserTag = { username: string; x?: number; y?: number };

/**
 * `user_tags` is one request field with two shapes (spec): on photos a JSON array of
 * {username, x, y}; on video a comma-separated list of usernames. The settings framework types a
 * field once for all endpoints, so it arrives as text and is read here for the endpoint at hand.
 */
export function parseUserTags(raw: unknown, endpoint: MediaKind): { tags: UserTag[]; error?: string } {
  if (raw === undefined) return { tags: [] };
  let items: unknown[];
  const text = typeof raw === 'string' ? raw.trim() : '';
  if (Array.isArray(raw)) items = raw;
  else if (text.startsWith('[')) {
    try {
      const parsed: unknown = JSON.parse(text);
      if (!Array.isArray(parsed)) return { tags: [], error: 'user_tags must be a JSON array' };
      items = parsed;
    } catch {
      return { tags: [], error: 'user_tags is not valid JSON' };
    }
  } else if (endpoint === 'photo' && text !== '') {
    return { tags: [], error: 'user_tags on photos must be a JSON array of {username, x, y}' };
  } else items = text.split(',');

  const tags: UserTag[] = [];
  for (const item of items) {
    if (typeof item === 'string') {
      const username = item.trim().replace(/^@/, '');
      if (username) tags.push({ username });
      continue;
    }
    if (!isObject(item) || typeof item.username !== 'string' || !item.username.trim()) {
      return { tags: [], error: 'each user_tags entry needs a username' };
    }
    const tag: UserTag = { username: item.username.trim().replace(/^@/, '') };
    for (const axis of ['x', 'y'] as const) {
      if (item[axis] === undefined) continue;
      const n = Number(item[axis]);
      if (!Number.isFinite(n) || n < 0 || n > 1) return { tags: [], error: `user_tags ${axis} must be a number from 0.0 to 1.0` };
      tag[axis] = n;
    }
    tags.push(tag);
  }
  if (tags.length > 20) return { tags: [], error: 'user_tags takes at most 20 people' };
  return { tags };
}

function checkSettings(values: Record<string, unknown>, ctx: { endpoint: MediaKind; mediaCount: number }): SettingViolation[] {
  const violations: SettingViolation[] = [];
  const mediaType = values.media_type as string | undefined;
  if (ctx.endpoint === 'video' && mediaType === 'IMAGE') {
    violations.push({ field: 'media_type', message: 'media_type on the video endpoint is REELS or STORIES' });
  }
  if (ctx.endpoint === 'photo' && mediaType === 'REELS') {
    violations.push({ field: 'media_type', message: 'media_type on the photo endpoint is IMAGE or STORIES' });
  }
  if (mediaType === 'STORIES' && ctx.mediaCount > 1) {
    violations.push({ field: 'media_type', message: `an Instagram story takes one file; this request has ${ctx.mediaCount}` });
  }
  if (ctx.endpoint === 'photo' && ctx.mediaCount > MAX_CAROUSEL) {
    violations.push({ field: 'photos', message: `an Instagram carousel takes at most ${MAX_CAROUSEL} items; this request has ${ctx.mediaCount}` });
  }
  const shareMode = values.share_mode as string | undefined;
  if (shareMode && shareMode !== 'CUSTOM') {
    if (Array.isArray(values.collaborators) && values.collaborators.length) {
      violations.push({ field: 'share_mode', message: 'trial reels cannot have collaborators' });
    }
    if (mediaType === 'STORIES') violations.push({ field: 'share_mode', message: 'trial reels are reels: share_mode needs media_type REELS' });
  }
  const tags = parseUserTags(values.user_tags, ctx.endpoint);
  if (tags.error) violations.push({ field: 'user_tags', message: tags.error });
  const alt = values.instagram_alt_text as string[] | undefined;
  if (alt) {
    const long = alt.findIndex((a) => [...a].length > MAX_ALT_TEXT);
    if (long >= 0) violations.push({ field: 'instagram_alt_text', message: `instagram_alt_text item ${long + 1} is longer than ${MAX_ALT_TEXT} characters` });
    if (alt.length > ctx.mediaCount) {
      violations.push({ field: 'instagram_alt_text', message: `instagram_alt_text has ${alt.length} items for ${ctx.mediaCount} files` });
    }
  }
  return violations;
}

export const instagramSettings: SettingsSchema = {
  fields: [
    { name: 'media_type', type: 'string', endpoints: ['video', 'photo'], oneOf: ['REELS', 'STORIES', 'IMAGE'],
      description: 'Video: REELS (default) or STORIES. Photos: IMAGE (default; several files make a carousel) or STORIES.' },
    { name: 'share_mode', type: 'string', endpoints: ['video'], oneOf: SHARE_MODES, default: 'CUSTOM',
      description: 'Trial reels are shown to non-followers first (public account, 1000+ followers, no collaborators).' },
    { name: 'share_to_feed', type: 'boolean', endpoints: ['video'], default: true, description: 'Regular reels only.' },
    { name: 'collaborators', type: 'string_list', endpoints: ['video', 'photo'], maxLength: 3, description: 'Usernames; not on stories.' },
    { name: 'cover_url', type: 'url', endpoints: ['video'], description: 'Reel cover (JPEG); wins over cover_image.' },
    { name: 'cover_image', type: 'file', endpoints: ['video'], description: 'Reel cover file (JPEG, max 8 MB).' },
    { name: 'audio_name', type: 'string', endpoints: ['video'], description: 'Reels only; renames the original audio.' },
    { name: 'user_tags', type: 'string', endpoints: ['video', 'photo'],
      description: 'Photos: JSON array of {username, x, y} (x, y 0.0-1.0; entries without coordinates are dropped). Video: comma-separated usernames.' },
    { name: 'location_id', type: 'string', endpoints: ['video', 'photo'], description: 'Numeric location (Page) id; not on stories.' },
    { name: 'thumb_offset', type: 'integer', endpoints: ['video'], min: 0, description: 'Milliseconds into the video for the reel thumbnail.' },
    { name: 'is_ai_generated', type: 'boolean', endpoints: ['video', 'photo'], default: false, description: 'AI info label; cannot be changed later.' },
    { name: 'instagram_alt_text', type: 'string_list', endpoints: ['photo'], separator: '||',
      description: `Alt text per image, in file order (JSON array or "||"-separated); max ${MAX_ALT_TEXT} characters each.` },
  ],
  check: checkSettings,
};

export const instagramDescriptor: PlatformDescriptor = {
  id: 'instagram',
  displayName: 'Instagram',
  connect: 'oauth',
  endpoints: ['video', 'photo'],
  limits: {
    textMaxChars: MAX_CAPTION,
    video: { maxBytes: 300 * 1024 * 1024, minSeconds: VIDEO_MIN_SECONDS, maxSeconds: REELS_MAX_SECONDS, containers: [MP4_CONTAINER] },
    // The spec takes JPG and PNG; the publishing API takes JPEG only ("Format: JPEG"), so a PNG is
    // published as its JPEG rendition.
    photo: { maxBytes: 8 * 1024 * 1024, maxCount: MAX_CAROUSEL, contentTypes: PHOTO_TYPES, minAspectRatio: 0.8, maxAspectRatio: 1.91 },
  },
  settings: instagramSettings,
  rules: { dailyCap: 50, videoInPhotos: true },
};

/** What came back from Instagram, before it is given a meaning. */
export type InstagramOutcome =
  | HttpExchange
  /** A 2xx whose body is not what the call returns. */
  | { kind: 'malformed'; status: number; what: string }
  /** A container ended in ERROR or EXPIRED (`status` carries Meta's detail, often with a 2207xxx code). */
  | { kind: 'container_failed'; statusCode: string; status?: string }
  /** Containers still IN_PROGRESS past the adapter's patience. */
  | { kind: 'processing_timeout'; waitedMs: number }
  /** content_publishing_limit says the 24-hour quota is used up. */
  | { kind: 'quota_exhausted'; usage: number; total: number };

export interface InstagramFailureContext {
  timeoutMs: number;
  /** STORIES posts are exempt from the spam pause: a spam verdict on a story rejects that post only. */
  mediaType?: string;
  /** The code exchange: a refused code, secret or redirect_uri is an OAuth refusal, whatever its code. */
  stage?: 'connect';
}

/** Meta's 2207xxx publishing subcodes that describe the content, with Herald's error codes. */
const CONTENT_SUBCODES: Record<number, string> = {
  2207004: 'image_too_large',
  2207005: 'unsupported_image_format',
  2207009: 'invalid_aspect_ratio',
  2207010: 'caption_too_long',
  2207023: 'unknown_media_type',
  2207026: 'unsupported_video_format',
  2207028: 'invalid_carousel',
  2207052: 'media_fetch_failed',
  2207057: 'invalid_thumb_offset',
};
/** Subcodes Meta documents as "try again": server errors, download timeouts, expired or unready containers. */
const TRANSIENT_SUBCODES = new Set([2207001, 2207003, 2207008, 2207020, 2207027, 2207032, 2207053]);
/** Meta's throttling headers, read for `estimated_time_to_regain_access`. */
const USAGE_HEADERS = ['x-business-use-case-usage', 'x-app-usage', 'x-ad-account-usage'] as const;
const retryAfterMs = (headers: Headers): number => metaRetryAfterMs(headers, USAGE_HEADERS, DEFAULT_RATE_LIMIT_MS);

const subcodeIn = (text: string | undefined): number | undefined => {
  const m = /\b(220\d{4})\b/.exec(text ?? '');
  return m ? Number(m[1]) : undefined;
};

/**
 * The one place Instagram's answers get a meaning in the core taxonomy. Graph errors
 * `{error:{message,type,code,error_subcode,is_transient,fbtrace_id}}` are classified by subcode
 * first (2207xxx publishing verdicts share generic codes: spam is code 4, like throttling), then
 * by code, then by HTTP status. The older api.instagram.com shape `{error_type, code, error_message}`
 * only answers the code exchange. Checkpoint: error_subcode 2207050 ("inactive, checkpointed, or
 * restricted") and Graph's 190/459 ("user checkpointed"). Messages never contain tokens.
 */
export function mapInstagramFailure(outcome: InstagramOutcome, ctx: InstagramFailureContext): PlatformError {
  const fail = (failure: PlatformFailure, message: string, upstream: { status?: number; code?: string | number } = {}) =>
    new PlatformError('instagram', failure, message, upstream);

  switch (outcome.kind) {
    case 'no_response':
      return fail({ kind: 'transient' }, metaNoResponseMessage('Instagram', outcome, ctx.timeoutMs));
    case 'malformed':
      return fail({ kind: 'rejected', code: 'unexpected_response' },
        `Instagram answered HTTP ${outcome.status} without ${outcome.what}; check the account before retrying.`, { status: outcome.status });
    case 'container_failed': {
      if (outcome.statusCode === 'EXPIRED') {
        return fail({ kind: 'transient' }, 'Instagram: the media container expired before it was published; a new attempt creates a new one.');
      }
      const subcode = subcodeIn(outcome.status);
      const code = (subcode !== undefined ? CONTENT_SUBCODES[subcode] : undefined) ?? 'media_processing_failed';
      const failure: PlatformFailure = subcode !== undefined && TRANSIENT_SUBCODES.has(subcode) ? { kind: 'transient' } : { kind: 'invalid_content', code };
      return fail(failure, `Instagram could not process the media: ${outcome.status ?? outcome.statusCode}`, { code: subcode ?? outcome.statusCode });
    }
    case 'processing_timeout':
      return fail({ kind: 'transient' }, `Instagram was still processing the media after ${Math.round(outcome.waitedMs / 1000)} s.`);
    case 'quota_exhausted':
      return fail({ kind: 'restricted', reason: 'publish_limit', until: new Date(Date.now() + PUBLISH_LIMIT_PAUSE_MS) },
        `Instagram: the account used ${outcome.usage} of its ${outcome.total} API posts in the last 24 hours.`);
    case 'response':
      break;
  }

  const { status, headers } = outcome;
  const body = isObject(outcome.body) ? outcome.body : {};
  const graphError = readMetaGraphError(body, status, 'Instagram');

  if (!graphError) {
    // api.instagram.com (code exchange) answers {error_type, code, error_message}.
    if (typeof body.error_type === 'string') {
      const said = typeof body.error_message === 'string' ? body.error_message : body.error_type;
      return fail({ kind: 'rejected', code: 'oauth_rejected' }, `Instagram refused the authorization: ${said}`, { status, code: body.error_type });
    }
    if (status === 429) return fail({ kind: 'rate_limited', retryAfterMs: retryAfterMs(headers) }, 'Instagram: too many requests.', { status });
    if (status >= 500) return fail({ kind: 'transient' }, `Instagram is failing (HTTP ${status}); try again later.`, { status });
    return fail({ kind: 'rejected' }, `Instagram answered HTTP ${status}.`, { status });
  }

  const { error, code, subcode, detail, said, upstream } = graphError;

  if (subcode === 2207050 || (code === 190 && subcode === 459)) {
    return fail({ kind: 'checkpoint' }, `${said}. Sign in to the Instagram app and complete what it asks, then try again.`, upstream);
  }
  if (subcode === 2207042 || code === 9) {
    return fail({ kind: 'restricted', reason: 'publish_limit', until: new Date(Date.now() + PUBLISH_LIMIT_PAUSE_MS) }, said, upstream);
  }
  if (subcode === 2207051 || code === 368) {
    if (ctx.mediaType === 'STORIES') return fail({ kind: 'rejected', code: 'spam_restricted' }, said, upstream);
    return fail({ kind: 'restricted', reason: 'spam_restricted', until: new Date(Date.now() + SPAM_PAUSE_MS) }, said, upstream);
  }
  if (code === 190 || code === 102) {
    const reason = META_TOKEN_SUBCODE_REASONS[subcode] ?? 'token_invalid';
    return fail({ kind: 'auth_expired', reason }, `${said}. Reconnect the Instagram account.`, upstream);
  }
  if (META_RATE_LIMIT_CODES.has(code) || status === 429) {
    return fail({ kind: 'rate_limited', retryAfterMs: retryAfterMs(headers) }, said, upstream);
  }
  if (ctx.stage === 'connect' && status < 500) return fail({ kind: 'rejected', code: 'oauth_rejected' }, `Instagram refused the authorization: ${detail}`, upstream);
  if (code === 10 || (code >= 200 && code <= 299)) {
    return fail({ kind: 'rejected', code: 'permission_denied' }, `${said}. The connection lacks a permission; reconnect the account.`, upstream);
  }
  if (CONTENT_SUBCODES[subcode]) return fail({ kind: 'invalid_content', code: CONTENT_SUBCODES[subcode] }, said, upstream);
  if (TRANSIENT_SUBCODES.has(subcode) || code === 1 || code === 2 || error.is_transient === true || status >= 500) {
    return fail({ kind: 'transient' }, said, upstream);
  }
  if (code === 100 && subcode === 33) return fail({ kind: 'rejected', code: 'not_found' }, said, upstream);
  if (code === 100) return fail({ kind: 'invalid_content', code: 'invalid_parameter' }, said, upstream);
  return fail({ kind: 'rejected' }, said, upstream);
}

/** One container to create: a single post, a carousel child, or (later) the carousel parent. */
interface ContainerPlan { params: Record<string, string>; video: boolean }

/** What resume needs, kept as plain JSON across the workflow's timers. */
interface PublishState {
  phase: 'children' | 'container';
  mediaType: string;
  children: string[];
  parent?: Record<string, string>;
  container?: string;
  pollMs: number;
  startedAt: number;
  warnings: string[];
}

const lengthOf = (text: string) => [...text].length;

function invalid(message: string, code?: string): PlatformError {
  return new PlatformError('instagram', { kind: 'invalid_content', ...(code ? { code } : {}) }, message);
}

export function createInstagramPlatform(opts: InstagramPlatformOptions): PlatformAdapter {
  const apiBase = (opts.apiBase ?? INSTAGRAM_API_BASE).replace(/\/+$/, '');
  const authorizeUrl = opts.authorizeUrl ?? INSTAGRAM_AUTHORIZE_URL;
  const tokenUrl = opts.tokenUrl ?? INSTAGRAM_TOKEN_URL;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxProcessingMs = opts.maxProcessingMs ?? DEFAULT_MAX_PROCESSING_MS;
  const meta = createMetaGraphClient<Omit<InstagramFailureContext, 'timeoutMs'>>({
    apiBase, apiVersion: opts.apiVersion ?? INSTAGRAM_API_VERSION, timeoutMs, fetch: opts.fetch ?? fetch, baseCtx: {},
    fail: (outcome, failCtx) => mapInstagramFailure(outcome, { timeoutMs, ...failCtx }),
  });
  const { graphCall, idOf } = meta;

  function account(credentials: PlatformCredentials): { token: string; igUserId: string } {
    const { token, userId } = readMetaAccount(credentials, 'instagram', 'Instagram', 'ig_user_id');
    return { token, igUserId: userId };
  }

  async function exchangeCode(input: { code: string; redirectUri: string }): Promise<VerifiedConnection> {
    // Instagram appends "#_" to the redirect; it is not part of the code.
    const code = input.code.replace(/#_$/, '');
    const short = await meta.postForm(tokenUrl, {
      client_id: opts.clientId, client_secret: opts.clientSecret, grant_type: 'authorization_code', redirect_uri: input.redirectUri, code,
    }, 'an access token', { stage: 'connect' });
    // Business Login documents {data:[{access_token, user_id, permissions}]}; the endpoint also answers flat.
    const grant = Array.isArray(short.data) && isObject(short.data[0]) ? short.data[0] : short;
    if (typeof grant.access_token !== 'string') throw mapInstagramFailure({ kind: 'malformed', status: 200, what: 'an access token' }, { timeoutMs });
    const permissions = Array.isArray(grant.permissions) ? grant.permissions.join(',') : typeof grant.permissions === 'string' ? grant.permissions : '';

    const long = await meta.exchangeForLongLived('ig_exchange_token', opts.clientSecret, grant.access_token, { stage: 'connect' });

    // user_id of the token response is app-scoped (and a JSON number past 2^53): /me gives the account's own id.
    const me = await graphCall('GET', '/me', { fields: 'user_id,username,name,profile_picture_url' }, long.access_token, 'the account');
    const identity = readMetaIdentity(me, 'user_id', 'profile_picture_url');
    if (!identity) throw mapInstagramFailure({ kind: 'malformed', status: 200, what: 'the account id and username' }, { timeoutMs });
    return {
      identity,
      credentials: { access_token: long.access_token, expires_at: metaTokenExpiresAt(long.expires_in), ig_user_id: identity.platformUserId, scopes: permissions },
    };
  }

  async function refresh(credentials: PlatformCredentials): Promise<PlatformCredentials> {
    const { token } = account(credentials);
    // Instagram has no separate refresh token: the long-lived token itself is renewed (it must be
    // at least 24 h old and unexpired). Always keep the token that comes back.
    return meta.refreshLongLived('ig_refresh_token', token, credentials, {});
  }

  /**
   * Everything checked before anything is sent, and the containers the post needs. Warnings name
   * each setting that does not apply to what is being published.
   */
  async function plan(ctx: PublishContext, post: PublishPost): Promise<{ mediaType: string; items: ContainerPlan[]; parent?: Record<string, string>; warnings: string[] }> {
    const warnings: string[] = [];
    const s = post.settings;
    const media = post.media;
    if (post.kind === 'text' || media.length === 0) throw invalid('Instagram posts need a photo or a video.', 'media_required');
    if (post.kind === 'video' && (media.length !== 1 || media[0]!.kind !== 'video')) {
      throw invalid('The video endpoint publishes exactly one video to Instagram.', 'media_invalid');
    }
    const mediaType = typeof s.media_type === 'string' ? s.media_type : post.kind === 'video' ? 'REELS' : 'IMAGE';
    const story = mediaType === 'STORIES';
    const carousel = !story && media.length > 1;
    if (story && media.length > 1) throw invalid('An Instagram story takes one file.', 'too_many_media');
    if (media.length > MAX_CAROUSEL) throw invalid(`An Instagram carousel takes at most ${MAX_CAROUSEL} items; this post has ${media.length}.`, 'too_many_media');
    if (post.kind === 'photo' && !story && media.length === 1 && media[0]!.kind === 'video') {
      throw invalid('On the photo endpoint Instagram takes videos only inside a carousel; publish a single video through the video endpoint.', 'media_invalid');
    }

    const caption = post.title ?? '';
    if (story && caption.trim()) warnings.push('Instagram stories have no caption; the title was not sent.');
    if (!story) {
      const length = lengthOf(caption);
      if (length > MAX_CAPTION) throw invalid(`Instagram captions are limited to ${MAX_CAPTION} characters; this one has ${length}.`, 'text_too_long');
      const hashtags = caption.match(/#[\p{L}\p{N}_]+/gu)?.length ?? 0;
      if (hashtags > MAX_HASHTAGS) throw invalid(`Instagram captions take at most ${MAX_HASHTAGS} hashtags; this one has ${hashtags}.`, 'too_many_hashtags');
      const mentions = caption.match(/(^|[^\w])@[\w.]+/g)?.length ?? 0;
      if (mentions > MAX_MENTIONS) throw invalid(`Instagram captions take at most ${MAX_MENTIONS} @mentions; this one has ${mentions}.`, 'too_many_mentions');
    }

    media.forEach((m, i) => checkMedia(m, i, { story, carousel, reel: !story && !carousel && m.kind === 'video', thumbOffset: s.thumb_offset }));

    // Settings that apply to some kinds of post only.
    const ignored = (field: string, why: string) => warnings.push(`${field} was ignored: ${why}.`);
    const reel = post.kind === 'video' && !story;
    const shareMode = typeof s.share_mode === 'string' ? s.share_mode : 'CUSTOM';
    if (!reel) {
      for (const field of ['cover_url', 'cover_image', 'audio_name', 'thumb_offset'] as const) {
        if (s[field] !== undefined) ignored(field, 'it applies to reels only');
      }
      if (shareMode !== 'CUSTOM') ignored('share_mode', 'trial reels are reels, not stories');
    }
    const collaborators = Array.isArray(s.collaborators) ? (s.collaborators as string[]).map((c) => c.replace(/^@/, '')) : [];
    if (story && collaborators.length) ignored('collaborators', 'Instagram stories take no collaborators');
    let locationId = typeof s.location_id === 'string' ? s.location_id.trim() : '';
    if (locationId && story) { ignored('location_id', 'Instagram stories take no location'); locationId = ''; }
    if (locationId && !/^\d+$/.test(locationId)) { ignored('location_id', `"${locationId}" is not a numeric location id`); locationId = ''; }

    // Photos: only tags with coordinates are sent (spec: username-only tags are silently dropped).
    const tags = parseUserTags(s.user_tags, post.kind).tags;
    const imageTags = tags.filter((t) => t.x !== undefined && t.y !== undefined).map((t) => ({ username: t.username, x: t.x, y: t.y }));
    const videoTags = tags.map((t) => ({ username: t.username }));

    const alt = (s.instagram_alt_text as string[] | undefined) ?? [];
    alt.forEach((text, i) => {
      if (text && (media[i]?.kind !== 'image' || story)) warnings.push(`instagram_alt_text item ${i + 1} was ignored: Instagram takes alt text for feed images only.`);
    });

    const url = async (m: MediaRef) => ctx.media.publicUrl((await jpegOf(ctx, m)).id);
    const common: Record<string, string> = {};
    if (s.is_ai_generated === true) common.is_ai_generated = 'true';

    const reelParams = async (): Promise<Record<string, string>> => {
      const p: Record<string, string> = {};
      if (shareMode === 'CUSTOM') p.share_to_feed = s.share_to_feed === false ? 'false' : 'true';
      else p.trial_params = JSON.stringify({ graduation_strategy: TRIAL_GRADUATION[shareMode] });
      const cover = typeof s.cover_url === 'string' ? s.cover_url : undefined;
      const coverFile = isObject(s.cover_image) && typeof s.cover_image.id === 'string' ? (s.cover_image as unknown as MediaRef) : undefined;
      if (cover) p.cover_url = cover;
      else if (coverFile) p.cover_url = await url(coverFile);
      if (cover && coverFile) ignored('cover_image', 'cover_url wins when both are sent');
      if (typeof s.audio_name === 'string' && s.audio_name) p.audio_name = s.audio_name;
      if (typeof s.thumb_offset === 'number') p.thumb_offset = String(s.thumb_offset);
      return p;
    };

    const single = async (m: MediaRef, i: number): Promise<Record<string, string>> => {
      const p: Record<string, string> = m.kind === 'image' ? { image_url: await url(m) } : { video_url: await url(m) };
      if (m.kind === 'image' && !story && alt[i]) p.alt_text = alt[i]!;
      return p;
    };

    if (story) {
      const m = media[0]!;
      const p: Record<string, string> = { media_type: 'STORIES', ...(await single(m, 0)), ...common };
      if (tags.length) p.user_tags = JSON.stringify(m.kind === 'image' ? tags : videoTags);
      return { mediaType, items: [{ params: p, video: m.kind === 'video' }], warnings };
    }

    const shared: Record<string, string> = { ...common };
    if (caption) shared.caption = caption;
    if (collaborators.length) shared.collaborators = JSON.stringify(collaborators);
    if (locationId) shared.location_id = locationId;

    if (!carousel) {
      const m = media[0]!;
      const p: Record<string, string> = { ...(await single(m, 0)), ...shared };
      if (m.kind === 'video') {
        Object.assign(p, { media_type: 'REELS' }, await reelParams());
        if (videoTags.length) p.user_tags = JSON.stringify(videoTags);
      } else if (imageTags.length) p.user_tags = JSON.stringify(imageTags);
      return { mediaType, items: [{ params: p, video: m.kind === 'video' }], warnings };
    }

    // Carousel: children carry the media (and per-image tags and alt text); the parent the rest.
    const items: ContainerPlan[] = [];
    for (const [i, m] of media.entries()) {
      const p: Record<string, string> = { is_carousel_item: 'true', ...(await single(m, i)) };
      if (m.kind === 'video') p.media_type = 'VIDEO';
      else if (imageTags.length) p.user_tags = JSON.stringify(imageTags);
      items.push({ params: p, video: m.kind === 'video' });
    }
    return { mediaType: 'CAROUSEL', items, parent: { media_type: 'CAROUSEL', ...shared }, warnings };
  }

  /** Instagram fetches JPEG only: other images are sent as their JPEG rendition (made once, then reused). */
  async function jpegOf(ctx: PublishContext, m: MediaRef): Promise<MediaRef> {
    if (m.kind !== 'image' || m.contentType === 'image/jpeg') return m;
    try {
      return await ctx.media.rendition(m.id, 'image/jpeg');
    } catch (err) {
      throw invalid(`Instagram publishes JPEG only, and this ${m.contentType} image could not be converted: ${(err as Error).message}`, 'unsupported_media_type');
    }
  }

  function checkMedia(m: MediaRef, i: number, how: { story: boolean; carousel: boolean; reel: boolean; thumbOffset: unknown }): void {
    const which = `file ${i + 1}`;
    if (m.kind === 'image') {
      if (!PHOTO_TYPES.includes(m.contentType)) throw invalid(`Instagram takes JPEG or PNG images; ${which} is ${m.contentType}.`, 'unsupported_media_type');
      if (m.size > 8 * 1024 * 1024) throw invalid(`Instagram images are limited to 8 MB; ${which} has ${m.size} bytes.`, 'media_too_large');
      const w = m.info?.width;
      const h = m.info?.height;
      if (!how.story && w && h) {
        const ratio = w / h;
        if (ratio < 0.8 - 0.005 || ratio > 1.91 + 0.005) {
          throw invalid(`Instagram feed images need an aspect ratio from 4:5 to 1.91:1; ${which} is ${w}x${h}.`, 'invalid_aspect_ratio');
        }
      }
      return;
    }
    if (m.size > 300 * 1024 * 1024) throw invalid(`Instagram videos are limited to 300 MB; ${which} has ${m.size} bytes.`, 'media_too_large');
    const container = m.info?.container;
    if (container && !container.split(',').some((c) => c === 'mp4' || c === 'mov')) {
      throw invalid(`Instagram takes MP4 or MOV videos; ${which} is ${container}.`, 'unsupported_media_type');
    }
    const seconds = m.info?.durationSeconds;
    const max = how.reel ? REELS_MAX_SECONDS : STORY_OR_CAROUSEL_VIDEO_MAX_SECONDS;
    if (seconds != null && (seconds < VIDEO_MIN_SECONDS || seconds > max)) {
      const kind = how.reel ? 'Reels' : how.story ? 'Story videos' : 'Carousel videos';
      throw invalid(`${kind} on Instagram last ${VIDEO_MIN_SECONDS} to ${max} seconds; ${which} lasts ${seconds.toFixed(1)} s.`, 'invalid_duration');
    }
    if (how.reel && typeof how.thumbOffset === 'number' && seconds != null && how.thumbOffset >= seconds * 1000) {
      throw invalid(`thumb_offset must be less than the video's ${Math.round(seconds * 1000)} ms.`, 'invalid_thumb_offset');
    }
  }

  async function createContainer(token: string, igUserId: string, params: Record<string, string>, mediaType: string, signal?: AbortSignal): Promise<string> {
    const body = await graphCall('POST', `/${encodeURIComponent(igUserId)}/media`, params, token, 'a container id', { mediaType }, signal);
    return idOf(body, 'a container id');
  }

  /** Polls, creates the carousel parent, publishes and reads the permalink, as far as processing allows. */
  async function advance(ctx: PublishContext, state: PublishState): Promise<PublishStep> {
    const { token, igUserId } = account(ctx.credentials);
    const failCtx = { mediaType: state.mediaType };
    const statusOf = async (id: string) => {
      const body = await graphCall('GET', `/${encodeURIComponent(id)}`, { fields: 'status_code,status' }, token, 'a container status', failCtx, ctx.signal);
      return { code: typeof body.status_code === 'string' ? body.status_code : '', status: typeof body.status === 'string' ? body.status : undefined };
    };
    const waitOrGiveUp = (next: PublishState): PublishStep =>
      metaWaitStep(next, maxProcessingMs, (waitedMs) => mapInstagramFailure({ kind: 'processing_timeout', waitedMs }, { timeoutMs, ...failCtx }));
    const failed = (s: { code: string; status?: string }) => mapInstagramFailure({ kind: 'container_failed', statusCode: s.code, status: s.status }, { timeoutMs, ...failCtx });

    if (state.phase === 'children') {
      for (const id of state.children) {
        const s = await statusOf(id);
        if (s.code === 'ERROR' || s.code === 'EXPIRED') throw failed(s);
        if (s.code !== 'FINISHED') return waitOrGiveUp(state);
      }
      const parent = { ...state.parent, children: state.children.join(',') };
      const container = await createContainer(token, igUserId, parent, state.mediaType, ctx.signal);
      return waitOrGiveUp({ ...state, phase: 'container', container });
    }

    const s = await statusOf(state.container!);
    if (s.code === 'ERROR' || s.code === 'EXPIRED') throw failed(s);
    if (s.code === 'PUBLISHED') {
      // A previous attempt published it and its answer was lost; the media id cannot be recovered from the container.
      throw mapInstagramFailure({ kind: 'malformed', status: 200, what: 'the media id of an already published container' }, { timeoutMs, ...failCtx });
    }
    if (s.code !== 'FINISHED') return waitOrGiveUp(state);

    // Instagram takes no idempotency key: this is the one call that must not be repeated blindly.
    const published = await graphCall('POST', `/${encodeURIComponent(igUserId)}/media_publish`, { creation_id: state.container! },
      token, 'the published media id', failCtx, ctx.signal);
    const mediaId = idOf(published, 'the published media id');
    const warnings = [...state.warnings];
    const url = await readMetaPermalink(
      () => graphCall('GET', `/${encodeURIComponent(mediaId)}`, { fields: 'permalink' }, token, 'the permalink', failCtx, ctx.signal), warnings);
    return { kind: 'done', outcome: { postId: mediaId, ...(url ? { url } : {}), warnings } };
  }

  async function publish(ctx: PublishContext, post: PublishPost): Promise<PublishStep> {
    const { token, igUserId } = account(ctx.credentials);
    const planned = await plan(ctx, post);
    const failCtx = { mediaType: planned.mediaType };

    // Checked first so a used-up quota pauses the account instead of creating containers that cannot be published.
    const limit = await graphCall('GET', `/${encodeURIComponent(igUserId)}/content_publishing_limit`, { fields: 'quota_usage,config' },
      token, 'the publishing limit', failCtx, ctx.signal);
    const usage = Array.isArray(limit.data) && isObject(limit.data[0]) ? limit.data[0] : undefined;
    const used = Number(usage?.quota_usage);
    const total = Number(isObject(usage?.config) ? (usage.config as Json).quota_total : NaN);
    if (Number.isFinite(used) && Number.isFinite(total) && total > 0 && used >= total) {
      throw mapInstagramFailure({ kind: 'quota_exhausted', usage: used, total }, { timeoutMs, ...failCtx });
    }

    const ids: string[] = [];
    for (const item of planned.items) ids.push(await createContainer(token, igUserId, item.params, planned.mediaType, ctx.signal));
    const video = planned.items.some((i) => i.video);
    const state: PublishState = {
      phase: planned.parent ? 'children' : 'container',
      mediaType: planned.mediaType,
      children: planned.parent ? ids : [],
      ...(planned.parent ? { parent: planned.parent } : { container: ids[0]! }),
      pollMs: opts.pollIntervalMs ?? (video ? DEFAULT_VIDEO_POLL_MS : DEFAULT_IMAGE_POLL_MS),
      startedAt: Date.now(),
      warnings: planned.warnings,
    };
    return { kind: 'wait', afterMs: state.pollMs, state: state as unknown as Record<string, unknown> };
  }

  return {
    descriptor: instagramDescriptor,
    oauth: {
      pkce: false,
      authorizeUrl: ({ state, redirectUri }) => metaAuthorizeUrl(authorizeUrl, {
        client_id: opts.clientId, redirect_uri: redirectUri, response_type: 'code', scope: INSTAGRAM_SCOPES.join(','), state,
      }),
      exchangeCode,
    },
    refresher: { refresh },
    publisher: {
      publish,
      resume: (ctx, _post, state) => advance(ctx, state as unknown as PublishState),
    },
    probe: {
      // The identity read of the connect flow: a checkpointed account answers 2207050 (or 190/459) to it too.
      async probe(ctx) {
        const { token } = account(ctx.credentials);
        await graphCall('GET', '/me', { fields: 'user_id' }, token, 'the account', {}, ctx.signal);
      },
    },
    comments: {
      async create(ctx, { post, text }) {
        if (!post.id) return { warnings: ['The first comment was skipped: the Instagram post id is not known yet.'] };
        const { token } = account(ctx.credentials);
        const length = lengthOf(text);
        if (length > MAX_CAPTION) throw invalid(`Instagram comments are limited to ${MAX_CAPTION} characters; this one has ${length}.`, 'text_too_long');
        const path = `/${encodeURIComponent(post.id)}`;
        // Stories take no comments: asked first so the warning says so instead of Meta's error.
        const media = await graphCall('GET', path, { fields: 'media_product_type' }, token, 'the media type', {}, ctx.signal);
        if (media.media_product_type === 'STORY') {
          return { warnings: ['The first comment was skipped: Instagram stories take no comments.'] };
        }
        const comment = await graphCall('POST', `${path}/comments`, { message: text }, token, 'the comment id', {}, ctx.signal);
        return { comment: { id: idOf(comment, 'the comment id'), post } };
      },
    },
  };
}
