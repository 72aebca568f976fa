/**
 * Facebook Pages through the Graph API (developers.facebook.com/docs/pages-api, video-api/guides/publishing,
 * graph-api/guides/upload, page-stories-api, video-api/guides/reels-publishing, graph-api/guides/error-handling).
 *
 * Connect: Facebook Login (code → short-lived user token → fb_exchange_token long-lived user token →
 * /me and /me/accounts). Page access tokens derived from a long-lived user token do not expire, so
 * publishing uses them; the user token (60 days) is only needed to re-read the pages and for the
 * Resumable Upload API.
 *
 * Page choice (spec: facebook_page_id): the setting wins (the engine puts a page pinned to the profile
 * there); otherwise exactly one connected page is used; with several and none chosen the publish
 * fails with `rejected` code `facebook_page_required`, carrying `available_pages` for the target's result.
 *
 * The Graph API takes no idempotency key, so ctx.idempotencyKey cannot be forwarded.
 */
import { createHmac } from 'node:crypto';
import { PlatformError } from '../../../core/domain/errors';
import type { SettingsSchema, SettingViolation } from '../../../core/domain/settings';
import type {
  AccountIdentity, Comments, MediaRef, OAuthConnector, PlatformAdapter, PlatformCredentials, PlatformDescriptor,
  PublishContext, PublishOutcome, PublishPost, PublishStep, TokenRefresher,
} from '../../../core/ports/platform';
import { exchangeJson, isObject, type HttpExchange, type Json } from '../kit/http';

export const FACEBOOK_GRAPH_VERSION = 'v21.0';
export const FACEBOOK_API_BASE = `https://graph.facebook.com/${FACEBOOK_GRAPH_VERSION}`;
/** Video uploads go to the graph-video host (video-api/guides/publishing). */
export const FACEBOOK_VIDEO_API_BASE = `https://graph-video.facebook.com/${FACEBOOK_GRAPH_VERSION}`;
export const FACEBOOK_AUTH_BASE = `https://www.facebook.com/${FACEBOOK_GRAPH_VERSION}`;
export const FACEBOOK_SCOPES: readonly string[] = [
  'pages_show_list', 'pages_read_engagement', 'pages_manage_posts', 'pages_manage_engagement', 'publish_video',
];
const WEB = 'https://www.facebook.com';
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_UPLOAD_TIMEOUT_MS = 30 * 60_000;
/** Above this Facebook's own fetch of `file_url` is not relied on: the Resumable Upload API is used. */
const DEFAULT_RESUMABLE_THRESHOLD = 1024 ** 3;
const DEFAULT_POLL_MS = 10_000;
/** Give up polling (and report the video as still processing) after this long. */
const DEFAULT_PROCESSING_TIMEOUT_MS = 60 * 60_000;
/** Consecutive failed status reads tolerated while polling before the publish fails. */
const MAX_POLL_FAILURES = 5;
/** Pauses of the spec's Errors section (single-page logins only). */
const RATE_LIMIT_PAUSE_MS = 60 * 60_000;
const IDENTITY_PAUSE_MS = 24 * 60 * 60_000;
const DEFAULT_RETRY_AFTER_MS = 60_000;

/**
 * Error subcodes read as "confirm your identity": 464 is Graph's "session user is not confirmed";
 * 1404078 is the verdict third-party publishers report when Facebook asks the Page admin to
 * re-confirm (not in Meta's public table, hence both).
 */
const IDENTITY_SUBCODES = new Set([464, 1404078]);
const CHECKPOINT_SUBCODE = 459;
const AUTH_REASONS: Record<number, string> = {
  458: 'app_deauthorized', 460: 'password_changed', 463: 'token_expired', 467: 'logged_out', 492: 'page_role_removed',
};
/** Throttling codes: app, user, page, custom-level (613) and Pages BUC (80001…). */
const RATE_CODES = new Set([4, 17, 32, 341, 613]);

export interface FacebookPlatformOptions {
  /** Default https://graph.facebook.com/v21.0 */
  apiBase?: string;
  /** Default https://graph-video.facebook.com/v21.0: where `/{page}/videos` is posted. */
  videoApiBase?: string;
  /** Default https://www.facebook.com/v21.0: the login dialog is `${authBase}/dialog/oauth`. */
  authBase?: string;
  /** The Meta app id (also the `{app-id}` of the Resumable Upload API). */
  clientId: string;
  clientSecret: string;
  timeoutMs?: number;
  /** Byte uploads (resumable, story and reel uploads). Default 30 min. */
  uploadTimeoutMs?: number;
  /** Videos larger than this use the Resumable Upload API instead of `file_url`. Default 1 GiB. */
  resumableThresholdBytes?: number;
  /** Delay between video status reads. Default 10 s. */
  pollIntervalMs?: number;
  processingTimeoutMs?: number;
  fetch?: typeof fetch;
}

const STORY_VIDEO_SECONDS = { min: 3, max: 60 };
const REEL_VIDEO_SECONDS = { min: 3, max: 90 };

export const facebookDescriptor: PlatformDescriptor = {
  id: 'facebook',
  displayName: 'Facebook Pages',
  connect: 'oauth',
  endpoints: ['video', 'photo', 'text'],
  limits: {
    // Facebook's post text limit.
    textMaxChars: 63_206,
    // Spec: 240 min. 10 GB is the Video API's file limit.
    video: { maxBytes: 10 * 1000 ** 3, maxSeconds: 240 * 60 },
    // /{page}/photos: JPEG, BMP, PNG, GIF, TIFF, under 4 MB.
    photo: { maxBytes: 4 * 1024 * 1024, contentTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/bmp', 'image/tiff'] },
  },
  settings: {
    fields: [
      { name: 'facebook_page_id', type: 'string', endpoints: ['video', 'photo', 'text'],
        description: 'Page to post to; auto-selected when exactly one page is connected; a page pinned to the profile takes precedence.' },
      { name: 'facebook_title', type: 'string', endpoints: ['video', 'photo', 'text'],
        description: 'Overrides title (video title; photo caption; text message). Ignored for STORIES.' },
      { name: 'facebook_description', type: 'string', endpoints: ['video'], description: 'Video description. Ignored for STORIES.' },
      { name: 'facebook_media_type', type: 'string', endpoints: ['video', 'photo'], oneOf: ['POSTS', 'REELS', 'STORIES'], default: 'POSTS',
        description: 'POSTS (feed), STORIES (page story), REELS (video only).' },
      { name: 'video_state', type: 'string', endpoints: ['video'], oneOf: ['DRAFT', 'PUBLISHED'], default: 'PUBLISHED' },
      { name: 'facebook_alt_text', type: 'string_list', endpoints: ['photo'], separator: '||',
        description: 'Alt text per photo, in order: repeated field, JSON array, or text separated by "||".' },
      { name: 'facebook_place_id', type: 'string', endpoints: ['photo'] },
      { name: 'facebook_targeting', type: 'json', endpoints: ['photo'], description: 'Graph `targeting` object.' },
      { name: 'facebook_feed_targeting', type: 'json', endpoints: ['photo'], description: 'Graph `feed_targeting` object.' },
      { name: 'facebook_no_story', type: 'boolean', endpoints: ['photo'], default: false, description: 'Add the photo without a feed story.' },
      { name: 'facebook_secret', type: 'boolean', endpoints: ['photo'], default: false, description: 'Upload the photos unpublished.' },
      // Herald extension (the spec's text endpoint shape is not shown): the `link` of a /feed post.
      { name: 'facebook_link', type: 'url', endpoints: ['text'], description: 'Link attached to a text post.' },
    ],
    check(values, { endpoint, mediaCount }) {
      const violations: SettingViolation[] = [];
      const mediaType = values.facebook_media_type;
      if (endpoint === 'photo' && mediaType === 'REELS') {
        violations.push({ field: 'facebook_media_type', message: 'facebook_media_type REELS takes a video; photos are POSTS or STORIES.' });
      }
      if (endpoint === 'photo' && mediaType === 'STORIES' && mediaCount > 1) {
        violations.push({ field: 'facebook_media_type', message: `A Facebook photo story takes one photo; ${mediaCount} were sent.` });
      }
      if (mediaType === 'STORIES' && values.facebook_secret === true) {
        violations.push({ field: 'facebook_secret', message: 'facebook_secret cannot be combined with facebook_media_type STORIES.' });
      }
      if (endpoint === 'video' && mediaType === 'STORIES' && values.video_state === 'DRAFT') {
        violations.push({ field: 'video_state', message: 'video_state DRAFT cannot be combined with facebook_media_type STORIES.' });
      }
      const alt = values.facebook_alt_text;
      if (Array.isArray(alt) && alt.length > mediaCount) {
        violations.push({ field: 'facebook_alt_text', message: `facebook_alt_text has ${alt.length} entries for ${mediaCount} photos.` });
      }
      for (const field of ['facebook_targeting', 'facebook_feed_targeting']) {
        if (values[field] !== undefined && !isObject(values[field])) violations.push({ field, message: `${field} must be a JSON object.` });
      }
      return violations;
    },
  } satisfies SettingsSchema,
};

/** A connected page as stored in `credentials.pages` (JSON). */
export interface FacebookPage { id: string; name: string; token: string }

/**
 * The pages of a connection as the spec's Facebook page objects, for `available_pages` when a
 * publish fails with `facebook_page_required` (and for page lookups).
 */
export function facebookPages(credentials: PlatformCredentials): Array<{ page_id: string; page_name: string }> {
  return storedPages(credentials).map((p) => ({ page_id: p.id, page_name: p.name }));
}

function storedPages(credentials: PlatformCredentials): FacebookPage[] {
  try {
    const parsed: unknown = JSON.parse(credentials.pages ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.filter((p): p is FacebookPage => isObject(p) && typeof p.id === 'string' && typeof p.token === 'string')
      .map((p) => ({ id: p.id, name: typeof p.name === 'string' ? p.name : p.id, token: p.token }));
  } catch {
    return [];
  }
}

/** What came back from Facebook, before it is given a meaning. */
export type FacebookOutcome =
  | HttpExchange
  /** A 2xx whose body is not what the call returns. */
  | { kind: 'malformed'; status: number; what: string }
  /** The video was accepted, then Facebook's processing failed. */
  | { kind: 'video_failed'; videoId: string; detail?: string };

export interface FacebookFailureContext {
  timeoutMs?: number;
  /** The login has exactly one page: account-level verdicts pause the account (spec Errors). */
  singlePage?: boolean;
  /** An OAuth token call: an invalid code or grant means connecting again. */
  oauth?: boolean;
  now?: Date;
}

function retryAfterMs(headers: Headers): number {
  let minutes = 0;
  for (const name of ['x-business-use-case-usage', 'x-page-usage', 'x-app-usage']) {
    try {
      const usage: unknown = JSON.parse(headers.get(name) ?? 'null');
      // BUC usage is keyed by business/page id, each a list of use cases; the others are flat.
      const entries = isObject(usage) ? Object.values(usage).flatMap((v) => (Array.isArray(v) ? v : [usage])) : [];
      for (const entry of entries) {
        const t = isObject(entry) ? Number(entry.estimated_time_to_regain_access) : NaN;
        if (Number.isFinite(t) && t > minutes) minutes = t;
      }
    } catch { /* a malformed usage header says nothing about the wait */ }
  }
  if (minutes > 0) return minutes * 60_000;
  const seconds = Number.parseFloat(headers.get('retry-after') ?? '');
  return Number.isFinite(seconds) && seconds > 0 ? Math.ceil(seconds * 1000) : DEFAULT_RETRY_AFTER_MS;
}

/**
 * The one place Facebook's answers get a meaning in the core taxonomy, classified by Graph's error
 * `code` and `error_subcode` (graph-api/guides/error-handling), then by HTTP status. Signals chosen:
 * - 368 (temporarily blocked for policy violations) is the "rate limited" verdict: on a single-page
 *   login the account is paused (restricted rate_limited, 1 h); with several pages only this
 *   publish waits an hour (rate_limited), so the other pages are not paused.
 * - subcodes 464 / 1404078 are the identity confirmation: restricted identity_confirmation 24 h on a
 *   single-page login, rejected `identity_confirmation` otherwise. Subcode 459 is a checkpoint.
 */
export function mapFacebookFailure(outcome: FacebookOutcome, context: FacebookFailureContext = {}): PlatformError {
  const now = context.now ?? new Date();
  const fail = (failure: ConstructorParameters<typeof PlatformError>[1], message: string, upstream: PlatformError['upstream'] = {}) =>
    new PlatformError('facebook', failure, message, upstream);

  if (outcome.kind === 'no_response') {
    const what = outcome.reason === 'timeout' ? `Facebook did not answer within ${context.timeoutMs ?? DEFAULT_TIMEOUT_MS} ms`
      : outcome.reason === 'aborted' ? 'The request to Facebook was cancelled before it answered'
      : `The connection to Facebook failed${outcome.detail ? ` (${outcome.detail})` : ''}`;
    return fail({ kind: 'transient' }, `${what}; the outcome is unknown: the request may or may not have taken effect.`);
  }
  if (outcome.kind === 'malformed') {
    // Facebook may have acted: retrying could post twice, so this is not transient.
    return fail({ kind: 'rejected', code: 'unexpected_response' },
      `Facebook answered HTTP ${outcome.status} without ${outcome.what}; check the Page before retrying.`, { status: outcome.status });
  }
  if (outcome.kind === 'video_failed') {
    return fail({ kind: 'invalid_content', code: 'video_processing_failed' },
      `Facebook could not process video ${outcome.videoId}${outcome.detail ? `: ${outcome.detail}` : ''}.`);
  }

  const { status, headers } = outcome;
  const body = isObject(outcome.body) ? outcome.body : {};
  const error = isObject(body.error) ? body.error : isObject(body.debug_info) ? body.debug_info : undefined;
  const code = typeof error?.code === 'number' ? error.code : undefined;
  const subcode = typeof error?.error_subcode === 'number' ? error.error_subcode : undefined;
  const said = typeof error?.error_user_msg === 'string' && error.error_user_msg ? error.error_user_msg
    : typeof error?.message === 'string' && error.message ? error.message : `HTTP ${status}`;
  const tag = code !== undefined ? ` (#${code}${subcode !== undefined ? `/${subcode}` : ''})` : '';
  const message = `Facebook: ${said}${tag}`;
  const upstream = { status, code: subcode !== undefined ? `${code}/${subcode}` : code };

  if (subcode === CHECKPOINT_SUBCODE) return fail({ kind: 'checkpoint' }, `${message}. Log in to facebook.com to clear the checkpoint.`, upstream);
  if (subcode !== undefined && IDENTITY_SUBCODES.has(subcode)) {
    return context.singlePage
      ? fail({ kind: 'restricted', reason: 'identity_confirmation', until: new Date(now.getTime() + IDENTITY_PAUSE_MS) }, message, upstream)
      : fail({ kind: 'rejected', code: 'identity_confirmation' }, message, upstream);
  }
  if (code === 368) {
    return context.singlePage
      ? fail({ kind: 'restricted', reason: 'rate_limited', until: new Date(now.getTime() + RATE_LIMIT_PAUSE_MS) }, message, upstream)
      : fail({ kind: 'rate_limited', retryAfterMs: RATE_LIMIT_PAUSE_MS }, message, upstream);
  }
  if (code === 190 || code === 102 || (code === undefined && status === 401)) {
    return fail({ kind: 'auth_expired', reason: (subcode !== undefined && AUTH_REASONS[subcode]) || 'token_invalid' },
      `${message}. Reconnect the Facebook account.`, upstream);
  }
  if (context.oauth && code === 100) {
    return fail({ kind: 'auth_expired', reason: 'authorization_code_invalid' }, `${message}. Start the connection again.`, upstream);
  }
  if (code === 101) return fail({ kind: 'rejected', code: 'oauth_client_invalid' }, `${message}. Check the Facebook app id and secret.`, upstream);
  if ((code !== undefined && (RATE_CODES.has(code) || (code >= 80001 && code <= 80099))) || status === 429) {
    return fail({ kind: 'rate_limited', retryAfterMs: retryAfterMs(headers) }, message, upstream);
  }
  if (code === 506) return fail({ kind: 'rejected', code: 'duplicate_post' }, message, upstream);
  if (code === 10 || (code !== undefined && code >= 200 && code <= 299)) return fail({ kind: 'rejected', code: 'permission' }, message, upstream);
  if (code === 1609005) return fail({ kind: 'invalid_content', code: 'invalid_link' }, message, upstream);
  if (code === 324 || code === 389) return fail({ kind: 'invalid_content', code: 'media_fetch_failed' }, message, upstream);
  if (code === 352) return fail({ kind: 'invalid_content', code: 'unsupported_video_format' }, message, upstream);
  if (code === 1 || code === 2 || error?.is_transient === true || error?.retriable === true || status >= 500) {
    return fail({ kind: 'transient' }, `${message}; try again later.`, upstream);
  }
  if (code === 100) return fail({ kind: 'invalid_content', code: 'invalid_parameter' }, message, upstream);
  return fail({ kind: 'rejected' }, message, upstream);
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v : undefined);
const chars = (s: string) => [...s].length;

interface FacebookSettings {
  pageId?: string;
  title?: string;
  description?: string;
  mediaType: 'POSTS' | 'REELS' | 'STORIES';
  draft: boolean;
  altText: string[];
  placeId?: string;
  targeting?: Json;
  feedTargeting?: Json;
  noStory: boolean;
  secret: boolean;
  link?: string;
}

/** The resolved settings, read defensively: the engine normally hands them typed and defaulted. */
function readSettings(s: Record<string, unknown>): FacebookSettings {
  const mediaType = s.facebook_media_type === 'STORIES' || s.facebook_media_type === 'REELS' ? s.facebook_media_type : 'POSTS';
  return {
    pageId: str(s.facebook_page_id),
    title: str(s.facebook_title),
    description: str(s.facebook_description),
    mediaType,
    draft: s.video_state === 'DRAFT',
    altText: Array.isArray(s.facebook_alt_text) ? s.facebook_alt_text.map(String) : str(s.facebook_alt_text) ? [String(s.facebook_alt_text)] : [],
    placeId: str(s.facebook_place_id),
    targeting: isObject(s.facebook_targeting) ? s.facebook_targeting : undefined,
    feedTargeting: isObject(s.facebook_feed_targeting) ? s.facebook_feed_targeting : undefined,
    noStory: s.facebook_no_story === true,
    secret: s.facebook_secret === true,
    link: str(s.facebook_link),
  };
}

/** State of a video publish between steps (plain JSON). */
interface VideoState {
  phase: 'video_processing';
  page_id: string;
  video_id: string;
  /** The story's post id (stories); videos and reels are identified by the video id. */
  post_id?: string;
  media_type: FacebookSettings['mediaType'];
  published: boolean;
  started_at: number;
  poll_failures: number;
  warnings: string[];
}

const invalid = (code: string, message: string) => new PlatformError('facebook', { kind: 'invalid_content', code }, message);

export function createFacebookPlatform(opts: FacebookPlatformOptions): PlatformAdapter {
  const apiBase = (opts.apiBase ?? FACEBOOK_API_BASE).replace(/\/+$/, '');
  const videoApiBase = (opts.videoApiBase ?? FACEBOOK_VIDEO_API_BASE).replace(/\/+$/, '');
  const authBase = (opts.authBase ?? FACEBOOK_AUTH_BASE).replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const uploadTimeoutMs = opts.uploadTimeoutMs ?? DEFAULT_UPLOAD_TIMEOUT_MS;
  const resumableThreshold = opts.resumableThresholdBytes ?? DEFAULT_RESUMABLE_THRESHOLD;
  const pollMs = opts.pollIntervalMs ?? DEFAULT_POLL_MS;
  const processingTimeoutMs = opts.processingTimeoutMs ?? DEFAULT_PROCESSING_TIMEOUT_MS;
  const doFetch = opts.fetch ?? fetch;
  const limits = facebookDescriptor.limits;

  /** appsecret_proof proves the call comes from the app's server (graph-api/securing-requests). */
  const proof = (token: string) => createHmac('sha256', opts.clientSecret).update(token).digest('hex');

  interface CallOptions {
    token?: string;
    base?: string;
    signal?: AbortSignal;
    singlePage?: boolean;
    oauth?: boolean;
    /** Field the answer must carry (else `malformed`). */
    expect?: string;
  }

  /** One Graph call: GET with query parameters or POST with a form body; the token travels in a header. */
  async function graph(method: 'GET' | 'POST', path: string, params: Record<string, string | undefined>, call: CallOptions): Promise<Json> {
    const fields = Object.fromEntries(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));
    if (call.token) fields.appsecret_proof = proof(call.token);
    const form = new URLSearchParams(fields);
    const url = `${call.base ?? apiBase}${path}${method === 'GET' && form.size ? `?${form}` : ''}`;
    const outcome = await exchangeJson(url, {
      method,
      headers: {
        accept: 'application/json',
        ...(call.token ? { authorization: `Bearer ${call.token}` } : {}),
        ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      },
      body: method === 'POST' ? form.toString() : undefined,
    }, { fetch: doFetch, timeoutMs, signal: call.signal });
    return answer(outcome, call, timeoutMs);
  }

  function answer(outcome: HttpExchange, call: CallOptions, ms: number): Json {
    const context = { timeoutMs: ms, singlePage: call.singlePage, oauth: call.oauth };
    if (outcome.kind === 'no_response') throw mapFacebookFailure(outcome, context);
    const body = outcome.body;
    if (outcome.status < 200 || outcome.status >= 300 || (isObject(body) && isObject(body.error))) throw mapFacebookFailure(outcome, context);
    if (!isObject(body) || (call.expect && body[call.expect] === undefined)) {
      throw mapFacebookFailure({ kind: 'malformed', status: outcome.status, what: call.expect ? `"${call.expect}"` : 'a JSON object' }, context);
    }
    return body;
  }

  /** Sends a file's bytes in one POST (Resumable Upload API and rupload): test and story media are small. */
  async function uploadBytes(url: string, headers: Record<string, string>, ctx: PublishContext, media: MediaRef, call: CallOptions & { expect: string }): Promise<Json> {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.media.read(media.id)) chunks.push(Buffer.from(chunk));
    const timeout = AbortSignal.timeout(uploadTimeoutMs);
    const signal = ctx.signal ? AbortSignal.any([ctx.signal, timeout]) : timeout;
    const outcome = await exchangeJson(url, { method: 'POST', headers, body: Buffer.concat(chunks) },
      { fetch: doFetch, timeoutMs: uploadTimeoutMs, signal });
    return answer(outcome, call, uploadTimeoutMs);
  }

  async function readPages(userToken: string, signal?: AbortSignal): Promise<FacebookPage[]> {
    const pages: FacebookPage[] = [];
    let after: string | undefined;
    for (let round = 0; round < 50; round++) {
      const res = await graph('GET', '/me/accounts', { fields: 'id,name,access_token', limit: '100', after }, { token: userToken, signal, expect: 'data' });
      for (const p of Array.isArray(res.data) ? res.data : []) {
        if (isObject(p) && typeof p.id === 'string' && typeof p.access_token === 'string') {
          pages.push({ id: p.id, name: typeof p.name === 'string' ? p.name : p.id, token: p.access_token });
        }
      }
      const paging = isObject(res.paging) ? res.paging : {};
      const cursor = isObject(paging.cursors) ? str(paging.cursors.after) : undefined;
      if (!paging.next || !cursor) break;
      after = cursor;
    }
    return pages;
  }

  /** fb_exchange_token: a long-lived (about 60 days) user token for a short- or long-lived one. */
  async function longLived(token: string): Promise<{ token: string; expiresAt?: string }> {
    const res = await graph('GET', '/oauth/access_token', {
      grant_type: 'fb_exchange_token', client_id: opts.clientId, client_secret: opts.clientSecret, fb_exchange_token: token,
    }, { oauth: true, expect: 'access_token' });
    const expiresIn = Number(res.expires_in);
    return {
      token: String(res.access_token),
      expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? new Date(Date.now() + expiresIn * 1000).toISOString() : undefined,
    };
  }

  function credentialsOf(userId: string, user: { token: string; expiresAt?: string }, pages: FacebookPage[]): PlatformCredentials {
    return {
      user_id: userId,
      user_access_token: user.token,
      ...(user.expiresAt ? { expires_at: user.expiresAt } : {}),
      pages: JSON.stringify(pages),
    };
  }

  const oauth: OAuthConnector = {
    pkce: false,
    authorizeUrl({ state, redirectUri }) {
      const query = new URLSearchParams({
        client_id: opts.clientId, redirect_uri: redirectUri, state, response_type: 'code', scope: FACEBOOK_SCOPES.join(','),
      });
      return `${authBase}/dialog/oauth?${query}`;
    },
    async exchangeCode({ code, redirectUri }) {
      const short = await graph('GET', '/oauth/access_token', {
        client_id: opts.clientId, client_secret: opts.clientSecret, redirect_uri: redirectUri, code,
      }, { oauth: true, expect: 'access_token' });
      const user = await longLived(String(short.access_token));
      const me = await graph('GET', '/me', { fields: 'id,name,picture' }, { token: user.token, expect: 'id' });
      const pages = await readPages(user.token);
      if (!pages.length) {
        // Facebook publishes to Pages only, never to personal profiles.
        throw new PlatformError('facebook', { kind: 'rejected', code: 'facebook_no_pages' },
          'This Facebook login manages no Pages (or none were shared with Herald); only Pages can be posted to, not personal profiles.');
      }
      const name = str(me.name) ?? String(me.id);
      const picture = isObject(me.picture) && isObject(me.picture.data) ? str(me.picture.data.url) : undefined;
      const identity: AccountIdentity = { platformUserId: String(me.id), handle: name, displayName: name, avatarUrl: picture ?? '' };
      return { identity, credentials: credentialsOf(String(me.id), user, pages) };
    },
  };

  const refresher: TokenRefresher = {
    async refresh(credentials) {
      const userToken = credentials.user_access_token;
      if (!userToken) {
        throw new PlatformError('facebook', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Facebook login is incomplete; reconnect the account.');
      }
      let user: { token: string; expiresAt?: string };
      try {
        user = await longLived(userToken);
      } catch (err) {
        if (!(err instanceof PlatformError) || err.failure.kind !== 'auth_expired') throw err;
        // Page tokens outlive the user token: while they still work the connection stays usable,
        // and without expires_at the core stops asking to refresh.
        const pages = storedPages(credentials);
        if (!pages.length) throw err;
        for (const page of pages) await graph('GET', '/me', { fields: 'id' }, { token: page.token, expect: 'id' }).catch(() => { throw err; });
        const { expires_at: _expired, ...rest } = credentials;
        return rest;
      }
      const pages = await readPages(user.token);
      return credentialsOf(credentials.user_id ?? '', user, pages);
    },
  };

  /** The page of a publish: setting first, else the only connected page (spec facebook_page_id). */
  function choosePage(credentials: PlatformCredentials, requested?: string): { page: FacebookPage; singlePage: boolean } {
    const pages = storedPages(credentials);
    const listed = pages.map((p) => `${p.name} (${p.id})`).join(', ');
    if (!pages.length) {
      throw new PlatformError('facebook', { kind: 'auth_expired', reason: 'credentials_missing' }, 'No Facebook Pages are stored for this account; reconnect it.');
    }
    const singlePage = pages.length === 1;
    if (requested) {
      const page = pages.find((p) => p.id === requested);
      if (!page) throw invalid('facebook_page_not_connected', `facebook_page_id ${requested} is not a Page of this Facebook account; connected: ${listed}.`);
      return { page, singlePage };
    }
    if (singlePage) return { page: pages[0]!, singlePage };
    throw new PlatformError('facebook', { kind: 'rejected', code: 'facebook_page_required' },
      `Several Facebook Pages are connected (${listed}); choose one with facebook_page_id.`, {},
      { available_pages: pages.map((p) => ({ page_id: p.id, page_name: p.name })) });
  }

  const permalink = (raw: unknown): string | undefined => {
    const link = str(raw);
    return link?.startsWith('/') ? `${WEB}${link}` : link;
  };

  /** Reads the post's link; the post exists already, so a failure is only a warning. */
  async function postUrl(id: string, page: FacebookPage, signal: AbortSignal | undefined, warnings: string[]): Promise<string | undefined> {
    try {
      return permalink((await graph('GET', `/${id}`, { fields: 'permalink_url' }, { token: page.token, signal })).permalink_url);
    } catch (err) {
      warnings.push(`The post was published but its link could not be read: ${(err as Error).message}`);
      return undefined;
    }
  }

  function checkText(text: string, what: string) {
    const length = chars(text);
    if (length > limits.textMaxChars!) {
      throw invalid('text_too_long', `Facebook ${what} is limited to ${limits.textMaxChars} characters; this one has ${length}.`);
    }
  }

  async function publishText(ctx: PublishContext, post: PublishPost, s: FacebookSettings, page: FacebookPage, singlePage: boolean): Promise<PublishOutcome> {
    const message = s.title ?? post.title;
    if (!message.trim() && !s.link) throw invalid('text_empty', 'Facebook cannot publish an empty post: send a title or facebook_link.');
    checkText(message, 'post text');
    const warnings: string[] = [];
    if (post.media.length) warnings.push('Media sent with a text post were ignored.');
    const created = await graph('POST', `/${page.id}/feed`, { message: message || undefined, link: s.link },
      { token: page.token, signal: ctx.signal, singlePage, expect: 'id' });
    const postId = String(created.id);
    const url = await postUrl(postId, page, ctx.signal, warnings);
    return { postId, ...(url ? { url } : {}), warnings, extra: { page_id: page.id, page_name: page.name } };
  }

  function checkPhotos(media: MediaRef[]) {
    if (!media.length) throw invalid('media_missing', 'A Facebook photo post needs at least one photo.');
    media.forEach((m, i) => {
      if (m.kind !== 'image') throw invalid('unsupported_media', `Facebook rejects videos on the photo endpoint (item ${i + 1}).`);
      if (!limits.photo!.contentTypes!.includes(m.contentType)) {
        throw invalid('unsupported_media', `Facebook photos must be ${limits.photo!.contentTypes!.join(', ')}; item ${i + 1} is ${m.contentType}.`);
      }
      if (m.size > limits.photo!.maxBytes!) {
        throw invalid('media_too_large', `Facebook photos are limited to ${limits.photo!.maxBytes} bytes; item ${i + 1} has ${m.size}.`);
      }
    });
  }

  async function publishPhotos(ctx: PublishContext, post: PublishPost, s: FacebookSettings, page: FacebookPage, singlePage: boolean): Promise<PublishOutcome> {
    checkPhotos(post.media);
    const call = { token: page.token, signal: ctx.signal, singlePage };
    const warnings: string[] = [];
    const caption = [s.title ?? post.title, post.description ?? ''].filter((t) => t.trim() !== '').join('\n\n');
    const json = (v: Json | undefined) => (v ? JSON.stringify(v) : undefined);
    const extra = { page_id: page.id, page_name: page.name, media_type: s.mediaType };

    if (s.mediaType === 'STORIES') {
      if (post.media.length !== 1) throw invalid('too_many_media', 'A Facebook photo story takes exactly one photo.');
      if (caption) warnings.push('facebook_title and description are ignored for Facebook stories.');
      const ignored = [s.altText.length && 'facebook_alt_text', s.placeId && 'facebook_place_id', s.targeting && 'facebook_targeting',
        s.feedTargeting && 'facebook_feed_targeting', s.noStory && 'facebook_no_story'].filter(Boolean);
      if (ignored.length) warnings.push(`${ignored.join(', ')} ${ignored.length > 1 ? 'are' : 'is'} ignored for Facebook stories.`);
      const photo = await graph('POST', `/${page.id}/photos`, { url: ctx.media.publicUrl(post.media[0]!.id), published: 'false' }, { ...call, expect: 'id' });
      const story = await graph('POST', `/${page.id}/photo_stories`, { photo_id: String(photo.id) }, { ...call, expect: 'post_id' });
      return { postId: String(story.post_id), warnings, extra };
    }

    checkText(caption, 'captions');
    const published = !s.secret;
    const common = { place: s.placeId, targeting: json(s.targeting), feed_targeting: json(s.feedTargeting) };
    const photoParams = (i: number, m: MediaRef) => ({ url: ctx.media.publicUrl(m.id), alt_text_custom: s.altText[i] });

    if (post.media.length === 1) {
      const photo = await graph('POST', `/${page.id}/photos`, {
        ...photoParams(0, post.media[0]!), ...common, caption: caption || undefined, published: String(published),
        no_story: s.noStory ? 'true' : undefined,
      }, { ...call, expect: 'id' });
      const postId = str(photo.post_id) ?? String(photo.id);
      const url = published && !s.noStory ? await postUrl(postId, page, ctx.signal, warnings) : undefined;
      return { postId, ...(url ? { url } : {}), warnings, extra: { ...extra, photo_ids: [String(photo.id)], ...(published ? {} : { published: false }) } };
    }

    // Several photos: unpublished uploads attached to one /feed post, which carries the caption.
    if (s.noStory) warnings.push('facebook_no_story applies to single photos; it was ignored for a multi-photo post.');
    const photoIds: string[] = [];
    for (const [i, m] of post.media.entries()) {
      photoIds.push(String((await graph('POST', `/${page.id}/photos`, { ...photoParams(i, m), published: 'false' }, { ...call, expect: 'id' })).id));
    }
    const attached = Object.fromEntries(photoIds.map((id, i) => [`attached_media[${i}]`, JSON.stringify({ media_fbid: id })]));
    const created = await graph('POST', `/${page.id}/feed`, {
      message: caption || undefined, ...attached, ...common, published: published ? undefined : 'false',
    }, { ...call, expect: 'id' });
    const postId = String(created.id);
    const url = published ? await postUrl(postId, page, ctx.signal, warnings) : undefined;
    return { postId, ...(url ? { url } : {}), warnings, extra: { ...extra, photo_ids: photoIds, ...(published ? {} : { published: false }) } };
  }

  function checkVideo(media: MediaRef[], s: FacebookSettings): MediaRef {
    if (media.length !== 1) throw invalid(media.length ? 'too_many_media' : 'media_missing', `A Facebook video post takes exactly one video; ${media.length} were sent.`);
    const video = media[0]!;
    if (video.kind !== 'video') throw invalid('unsupported_media', `Facebook video posts need a video; got ${video.contentType}.`);
    const v = limits.video!;
    if (video.size > v.maxBytes!) throw invalid('media_too_large', `Facebook videos are limited to ${v.maxBytes} bytes; this one has ${video.size}.`);
    const seconds = video.info?.durationSeconds;
    const range = s.mediaType === 'STORIES' ? STORY_VIDEO_SECONDS : s.mediaType === 'REELS' ? REEL_VIDEO_SECONDS : { min: 0, max: v.maxSeconds! };
    if (typeof seconds === 'number' && (seconds < range.min || seconds > range.max)) {
      const what = s.mediaType === 'POSTS' ? 'videos' : s.mediaType.toLowerCase();
      throw invalid('video_duration', `Facebook ${what} must last ${range.min ? `${range.min} to ` : 'up to '}${range.max} seconds; this video lasts ${seconds}.`);
    }
    if (s.mediaType === 'STORIES' && s.draft) throw invalid('invalid_setting', 'video_state DRAFT cannot be combined with facebook_media_type STORIES.');
    return video;
  }

  /** Stories and reels: start → bytes to the upload URL → finish (page-stories-api, reels-publishing). */
  async function uploadSession(ctx: PublishContext, video: MediaRef, edge: 'video_stories' | 'video_reels', page: FacebookPage,
    singlePage: boolean, finish: Record<string, string | undefined>): Promise<{ videoId: string; body: Json }> {
    const call = { token: page.token, signal: ctx.signal, singlePage };
    const start = await graph('POST', `/${page.id}/${edge}`, { upload_phase: 'start' }, { ...call, expect: 'video_id' });
    const videoId = String(start.video_id);
    const uploadUrl = str(start.upload_url);
    if (!uploadUrl) throw mapFacebookFailure({ kind: 'malformed', status: 200, what: '"upload_url"' });
    await uploadBytes(uploadUrl, {
      authorization: `OAuth ${page.token}`, offset: '0', file_size: String(video.size), 'content-type': 'application/octet-stream',
    }, ctx, video, { singlePage, expect: 'success' });
    const body = await graph('POST', `/${page.id}/${edge}`, { upload_phase: 'finish', video_id: videoId, ...finish }, { ...call, expect: 'success' });
    return { videoId, body };
  }

  async function publishVideo(ctx: PublishContext, post: PublishPost, s: FacebookSettings, page: FacebookPage, singlePage: boolean): Promise<PublishStep> {
    const video = checkVideo(post.media, s);
    const title = s.title ?? str(post.title);
    const description = s.description ?? str(post.description);
    const warnings: string[] = [];
    const call = { token: page.token, signal: ctx.signal, singlePage };
    const state: VideoState = {
      phase: 'video_processing', page_id: page.id, video_id: '', media_type: s.mediaType, published: !s.draft,
      started_at: Date.now(), poll_failures: 0, warnings,
    };

    if (s.mediaType === 'STORIES') {
      if (title || description) warnings.push('facebook_title and facebook_description are ignored for Facebook stories.');
      const { videoId, body } = await uploadSession(ctx, video, 'video_stories', page, singlePage, {});
      Object.assign(state, { video_id: videoId, post_id: str(body.post_id) });
    } else if (s.mediaType === 'REELS') {
      const { videoId } = await uploadSession(ctx, video, 'video_reels', page, singlePage, {
        video_state: s.draft ? 'DRAFT' : 'PUBLISHED', title, description,
      });
      state.video_id = videoId;
    } else {
      const meta = { title, description, published: String(!s.draft) };
      let source: Record<string, string>;
      if (video.size <= resumableThreshold) {
        // Facebook fetches the file itself: nothing passes through Herald.
        source = { file_url: ctx.media.publicUrl(video.id) };
      } else {
        const userToken = ctx.credentials.user_access_token;
        if (video.contentType !== 'video/mp4') {
          throw invalid('unsupported_video_format', `Facebook's Resumable Upload API takes video/mp4 only; this video is ${video.contentType}.`);
        }
        if (!userToken) throw new PlatformError('facebook', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Facebook login has no user token; reconnect the account.');
        const session = await graph('POST', `/${encodeURIComponent(opts.clientId)}/uploads`, {
          file_name: video.filename ?? `${video.id}.mp4`, file_length: String(video.size), file_type: video.contentType,
        }, { token: userToken, signal: ctx.signal, singlePage, expect: 'id' });
        const uploaded = await uploadBytes(`${apiBase}/${String(session.id)}?appsecret_proof=${proof(userToken)}`, {
          authorization: `OAuth ${userToken}`, file_offset: '0', 'content-type': 'application/octet-stream',
        }, ctx, video, { singlePage, expect: 'h' });
        source = { fbuploader_video_file_chunk: String(uploaded.h) };
      }
      const created = await graph('POST', `/${page.id}/videos`, { ...source, ...meta }, { ...call, base: videoApiBase, expect: 'id' });
      state.video_id = String(created.id);
    }
    return { kind: 'wait', afterMs: pollMs, state: { ...state } };
  }

  /** One status read of a processing video: done, failed, or another wait. */
  async function pollVideo(ctx: PublishContext, raw: Record<string, unknown>): Promise<PublishStep> {
    const state = raw as unknown as VideoState;
    if (state.phase !== 'video_processing' || !str(state.video_id)) throw new Error('facebook: unknown publish state');
    const { page, singlePage } = choosePage(ctx.credentials, state.page_id);
    const warnings = [...(state.warnings ?? [])];
    let res: Json;
    try {
      res = await graph('GET', `/${state.video_id}`, { fields: 'status,permalink_url' }, { token: page.token, signal: ctx.signal, singlePage });
    } catch (err) {
      // The video exists already: a failed status read must not make the workflow upload it again.
      const passing = err instanceof PlatformError && (err.failure.kind === 'transient' || err.failure.kind === 'rate_limited');
      if (!passing || state.poll_failures + 1 >= MAX_POLL_FAILURES) throw err;
      const afterMs = err.failure.kind === 'rate_limited' ? Math.max(pollMs, err.failure.retryAfterMs) : pollMs;
      return { kind: 'wait', afterMs, state: { ...state, poll_failures: state.poll_failures + 1 } };
    }
    const status = isObject(res.status) ? res.status : {};
    const videoStatus = str(status.video_status);
    if (videoStatus === 'error' || videoStatus === 'expired') {
      const phase = isObject(status.processing_phase) ? status.processing_phase : {};
      const first = Array.isArray(phase.errors) && isObject(phase.errors[0]) ? str(phase.errors[0].message) : undefined;
      throw mapFacebookFailure({ kind: 'video_failed', videoId: state.video_id, detail: first ?? videoStatus });
    }
    const postId = state.post_id ?? state.video_id;
    const extra = { page_id: page.id, page_name: page.name, media_type: state.media_type, ...(state.published ? {} : { published: false }) };
    if (videoStatus !== 'ready') {
      if (Date.now() - state.started_at < processingTimeoutMs) return { kind: 'wait', afterMs: pollMs, state: { ...state, poll_failures: 0 } };
      warnings.push(`Facebook was still processing the video after ${Math.round(processingTimeoutMs / 60_000)} minutes; it appears on the Page when processing ends.`);
      return { kind: 'done', outcome: { postId, warnings, extra } };
    }
    const url = state.media_type === 'STORIES' ? undefined : permalink(res.permalink_url);
    return { kind: 'done', outcome: { postId, ...(url ? { url } : {}), warnings, extra } };
  }

  const firstCommenter: Comments = {
    async create(ctx, { post, text }) {
      const extra = post.extra ?? {};
      if (!post.id) return { warnings: ['The first comment was skipped: the Facebook post id is not known yet.'] };
      if (extra.media_type === 'STORIES') return { warnings: ['The first comment was skipped: Facebook stories take no comments.'] };
      if (extra.published === false) return { warnings: ['The first comment was skipped: the Facebook post is a draft or unpublished.'] };
      const pageId = str(extra.page_id) ?? post.id.split('_')[0];
      const { page, singlePage } = choosePage(ctx.credentials, pageId);
      const comment = await graph('POST', `/${post.id}/comments`, { message: text }, { token: page.token, signal: ctx.signal, singlePage, expect: 'id' });
      return { comment: { id: String(comment.id), post } };
    },
  };

  return {
    descriptor: facebookDescriptor,
    oauth,
    refresher,
    comments: firstCommenter,
    publisher: {
      async publish(ctx, post) {
        const s = readSettings(post.settings);
        const { page, singlePage } = choosePage(ctx.credentials, s.pageId);
        switch (post.kind) {
          case 'text': return { kind: 'done', outcome: await publishText(ctx, post, s, page, singlePage) };
          case 'photo': return { kind: 'done', outcome: await publishPhotos(ctx, post, s, page, singlePage) };
          case 'video': return publishVideo(ctx, post, s, page, singlePage);
        }
      },
      resume: (ctx, _post, state) => pollVideo(ctx, state),
    },
  };
}
