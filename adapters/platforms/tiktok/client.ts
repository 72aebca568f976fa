/**
 * TikTok's HTTP side: Content Posting / user API calls (answers under `data`), big-id-safe JSON,
 * and the one place TikTok's answers get a meaning (`mapTikTokFailure`).
 */
import { PlatformError } from '../../../core/domain/errors';
import type { CallContext } from '../../../core/ports/platform';
import {
  exchangeJson, isObject, noResponseMessage, resetHeaderMs, retryAfterMs, type HttpExchange, type Json, type FailureContext, type Now, malformedAnswer} from '../kit/http';

const HOUR_MS = 3_600_000;
/** TikTok counts its init limit (6 requests) per minute: without a header, wait out the window. */
const DEFAULT_RATE_LIMIT_WAIT_MS = 60_000;
/** Spec "restriction_reason values": account-level spam verdicts park the account this long. */
const RESTRICTION_MS: Record<string, number> = {
  spam_risk_too_many_posts: HOUR_MS,
  spam_risk_user_banned_from_posting: 7 * 24 * HOUR_MS,
};

/** What came back from TikTok, before it is given a meaning. */
export type TikTokOutcome =
  | HttpExchange
  /** A success status whose body is not what the call returns. */
  | { kind: 'malformed'; status: number; what: string }
  /** status/fetch answered FAILED with this `fail_reason`. */
  | { kind: 'publish_failed'; failReason: string }
  /** status/fetch kept answering "processing" past the poll budget. */
  | { kind: 'processing_timeout'; publishId: string; polls: number };

export const fail = (failure: PlatformError['failure'], message: string, upstream: PlatformError['upstream'] = {}) =>
  new PlatformError('tiktok', failure, message, upstream);

/** Retry-After, else TikTok's reset time (epoch seconds), else a whole rate window. */
function tiktokRetryAfterMs(headers: Headers, now: Date): number {
  if (headers.get('retry-after')) return retryAfterMs(headers, now, DEFAULT_RATE_LIMIT_WAIT_MS);
  return resetHeaderMs(headers, 'x-ratelimit-reset', now, 1) ?? DEFAULT_RATE_LIMIT_WAIT_MS;
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
      return fail({ kind: 'rate_limited', retryAfterMs: headers ? tiktokRetryAfterMs(headers, now) : DEFAULT_RATE_LIMIT_WAIT_MS }, message, upstream);
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
export function mapTikTokFailure(outcome: TikTokOutcome, context: FailureContext): PlatformError {
  const { timeoutMs, now } = context;
  switch (outcome.kind) {
    case 'no_response':
      return fail({ kind: 'transient' }, noResponseMessage('TikTok', outcome, timeoutMs));
    case 'malformed':
      // TikTok may have acted on the request: retrying could post twice, so this is not transient.
      return malformedAnswer('tiktok', 'TikTok', outcome, 'the account');
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
    if (body.code === 40100) return fail({ kind: 'rate_limited', retryAfterMs: tiktokRetryAfterMs(headers, now) }, `TikTok: ${said}`, upstream);
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

export interface TikTokClientOptions {
  apiBase: string;
  businessBase: string;
  timeoutMs: number;
  uploadTimeoutMs: number;
  fetch: typeof fetch;
  now: Now;
}

export type TikTokClient = ReturnType<typeof createTikTokClient>;

export function createTikTokClient(opts: TikTokClientOptions) {
  const { apiBase, timeoutMs, now } = opts;
  const doFetch = opts.fetch;
  const bigIdFetch = keepingBigIds(doFetch);
  const failure = (outcome: TikTokOutcome, ms = timeoutMs) => mapTikTokFailure(outcome, { timeoutMs: ms, now: now() });

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
    if (outcome.kind === 'no_response') throw failure(outcome);
    const body = isObject(outcome.body) ? outcome.body : {};
    const code = isObject(body.error) ? body.error.code : undefined;
    if (outcome.status < 200 || outcome.status >= 300 || (code !== undefined && code !== 'ok')) throw failure(outcome);
    if (!isObject(body.data)) throw failure({ kind: 'malformed', status: outcome.status, what: `the data of ${path}` });
    return body.data;
  }

  function tokenOf(ctx: CallContext): string {
    const token = ctx.credentials.access_token;
    if (!token) throw fail({ kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored TikTok connection has no access token; reconnect the account.');
    return token;
  }

  return { ...opts, bigIdFetch, failure, api, tokenOf };
}
