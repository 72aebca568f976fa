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
 *
 * This file: the Graph client (appsecret_proof, the token in a header, byte uploads) and THE one
 * failure-mapping function, `mapFacebookFailure`.
 */
import { createHmac } from 'node:crypto';
import { PlatformError } from '../../../core/domain/errors';
import type { MediaRef, PublishContext } from '../../../core/ports/platform';
import { collectAll, exchangeJson, isObject, noResponseMessage, systemNow, trimBase, type HttpExchange, type Json, type FailureContext, type Now, malformedAnswer } from '../kit/http';
import { metaRetryAfterMs } from '../kit/meta-graph';
import type { CommonOptions, OAuthClientOptions } from '../kit/network';

export const FACEBOOK_GRAPH_VERSION = 'v21.0';
export const FACEBOOK_API_BASE = `https://graph.facebook.com/${FACEBOOK_GRAPH_VERSION}`;
/** Video uploads go to the graph-video host (video-api/guides/publishing). */
export const FACEBOOK_VIDEO_API_BASE = `https://graph-video.facebook.com/${FACEBOOK_GRAPH_VERSION}`;
export const FACEBOOK_AUTH_BASE = `https://www.facebook.com/${FACEBOOK_GRAPH_VERSION}`;
export const FACEBOOK_SCOPES: readonly string[] = [
  'pages_show_list', 'pages_read_engagement', 'pages_manage_posts', 'pages_manage_engagement', 'publish_video', 'read_insights',
  // Reading the comments people write under the Page's posts.
  'pages_read_user_content',
];
const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_UPLOAD_TIMEOUT_MS = 30 * 60_000;
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
/** Meta's throttling headers, read for `estimated_time_to_regain_access` (BUC usage is keyed by page). */
const USAGE_HEADERS = ['x-business-use-case-usage', 'x-page-usage', 'x-app-usage'] as const;

export interface FacebookPlatformOptions extends CommonOptions, OAuthClientOptions {
  /** Default https://graph.facebook.com/v21.0 */
  apiBase?: string;
  /** Default https://graph-video.facebook.com/v21.0: where `/{page}/videos` is posted. */
  videoApiBase?: string;
  /** Default https://www.facebook.com/v21.0: the login dialog is `${authBase}/dialog/oauth`. */
  authBase?: string;
  /** Byte uploads (resumable, story and reel uploads). Default 30 min. */
  uploadTimeoutMs?: number;
  /** Videos larger than this use the Resumable Upload API instead of `file_url`. Default 1 GiB. */
  resumableThresholdBytes?: number;
  /** Delay between video status reads. Default 10 s. */
  pollIntervalMs?: number;
  processingTimeoutMs?: number;
}

/** What came back from Facebook, before it is given a meaning. */
export type FacebookOutcome =
  | HttpExchange
  /** A 2xx whose body is not what the call returns. */
  | { kind: 'malformed'; status: number; what: string }
  /** The video was accepted, then Facebook's processing failed. */
  | { kind: 'video_failed'; videoId: string; detail?: string };

export type FacebookFailureContext = FailureContext & {
  /** The login has exactly one page: account-level verdicts pause the account (spec Errors). */
  singlePage?: boolean;
  /** An OAuth token call: an invalid code or grant means connecting again. */
  oauth?: boolean;
};

/**
 * The one place Facebook's answers get a meaning in the core taxonomy, classified by Graph's error
 * `code` and `error_subcode` (graph-api/guides/error-handling), then by HTTP status. Signals chosen:
 * - 368 (temporarily blocked for policy violations) is the "rate limited" verdict: on a single-page
 *   login the account is paused (restricted rate_limited, 1 h); with several pages only this
 *   publish waits an hour (rate_limited), so the other pages are not paused.
 * - subcodes 464 / 1404078 are the identity confirmation: restricted identity_confirmation 24 h on a
 *   single-page login, rejected `identity_confirmation` otherwise. Subcode 459 is a checkpoint.
 */
export function mapFacebookFailure(outcome: FacebookOutcome, context: FacebookFailureContext): PlatformError {
  const { now } = context;
  const fail = (failure: ConstructorParameters<typeof PlatformError>[1], message: string, upstream: PlatformError['upstream'] = {}) =>
    new PlatformError('facebook', failure, message, upstream);

  if (outcome.kind === 'no_response') return fail({ kind: 'transient' }, noResponseMessage('Facebook', outcome, context.timeoutMs));
  if (outcome.kind === 'malformed') {
    // Facebook may have acted: retrying could post twice, so this is not transient.
    return malformedAnswer('facebook', 'Facebook', outcome, 'the Page');
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
    return fail({ kind: 'rate_limited', retryAfterMs: metaRetryAfterMs(headers, USAGE_HEADERS, DEFAULT_RETRY_AFTER_MS) }, message, upstream);
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

export const invalid = (code: string, message: string) => new PlatformError('facebook', { kind: 'invalid_content', code }, message);

export interface CallOptions {
  token?: string;
  base?: string;
  signal?: AbortSignal;
  singlePage?: boolean;
  oauth?: boolean;
  /** Field the answer must carry (else `malformed`). */
  expect?: string;
}

/** What the capabilities share: the resolved options, the clock and the Graph calls. */
export interface FacebookClient {
  opts: FacebookPlatformOptions;
  apiBase: string;
  videoApiBase: string;
  authBase: string;
  now: Now;
  /** appsecret_proof proves the call comes from the app's server (graph-api/securing-requests). */
  proof(token: string): string;
  /** One Graph call: GET and DELETE with query parameters, POST with a form body; the token travels in a header. */
  graph(method: 'GET' | 'POST' | 'DELETE', path: string, params: Record<string, string | undefined>, call: CallOptions): Promise<Json>;
  /** Sends a file's bytes in one POST (Resumable Upload API and rupload): test and story media are small. */
  uploadBytes(url: string, headers: Record<string, string>, ctx: PublishContext, media: MediaRef, call: CallOptions & { expect: string }): Promise<Json>;
  /** The failure mapping at the clock's time, outside a call (malformed answers, failed videos). */
  fail(outcome: FacebookOutcome, call?: CallOptions): PlatformError;
}

export function createFacebookClient(opts: FacebookPlatformOptions): FacebookClient {
  const apiBase = trimBase(opts.apiBase ?? FACEBOOK_API_BASE);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const uploadTimeoutMs = opts.uploadTimeoutMs ?? DEFAULT_UPLOAD_TIMEOUT_MS;
  const doFetch = opts.fetch ?? fetch;
  const now = opts.now ?? systemNow;
  const proof = (token: string) => createHmac('sha256', opts.clientSecret).update(token).digest('hex');
  const contextOf = (call: CallOptions, ms: number): FacebookFailureContext =>
    ({ timeoutMs: ms, now: now(), singlePage: call.singlePage, oauth: call.oauth });

  function answer(outcome: HttpExchange, call: CallOptions, ms: number): Json {
    if (outcome.kind === 'no_response') throw mapFacebookFailure(outcome, contextOf(call, ms));
    const body = outcome.body;
    if (outcome.status < 200 || outcome.status >= 300 || (isObject(body) && isObject(body.error))) throw mapFacebookFailure(outcome, contextOf(call, ms));
    if (!isObject(body) || (call.expect && body[call.expect] === undefined)) {
      throw mapFacebookFailure({ kind: 'malformed', status: outcome.status, what: call.expect ? `"${call.expect}"` : 'a JSON object' }, contextOf(call, ms));
    }
    return body;
  }

  return {
    opts,
    apiBase,
    videoApiBase: trimBase(opts.videoApiBase ?? FACEBOOK_VIDEO_API_BASE),
    authBase: trimBase(opts.authBase ?? FACEBOOK_AUTH_BASE),
    now,
    proof,
    async graph(method, path, params, call) {
      const fields = Object.fromEntries(Object.entries(params).filter((e): e is [string, string] => e[1] !== undefined));
      if (call.token) fields.appsecret_proof = proof(call.token);
      const form = new URLSearchParams(fields);
      const url = `${call.base ?? apiBase}${path}${method !== 'POST' && form.size ? `?${form}` : ''}`;
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
    },
    async uploadBytes(url, headers, ctx, media, call) {
      const body = await collectAll(ctx.media.read(media.id));
      const outcome = await exchangeJson(url, { method: 'POST', headers, body }, { fetch: doFetch, timeoutMs: uploadTimeoutMs, signal: ctx.signal });
      return answer(outcome, call, uploadTimeoutMs);
    },
    fail: (outcome, call = {}) => mapFacebookFailure(outcome, contextOf(call, timeoutMs)),
  };
}
