/**
 * X's HTTP side (API v2): calls with the user's token, the post-creating call, and the one place
 * X's answers get a meaning (`mapXFailure`).
 */
import { PlatformError, type PlatformFailure } from '../../../core/domain/errors';
import type { CallContext } from '../../../core/ports/platform';
import {
  exchangeJson, isObject, noResponseMessage, resetHeaderMs, retryAfterMs, str, type HttpExchange, type Json, type FailureContext, type Now, malformedAnswer} from '../kit/http';

/** What came back from X, before it is given a meaning. */
export type XOutcome =
  | HttpExchange
  /** A 2xx whose body is not what the call returns. */
  | { kind: 'malformed'; status: number; what: string }
  /** Media processing ended in `failed` (STATUS or FINALIZE `processing_info.error`). */
  | { kind: 'processing_failed'; mediaId: string; error: { code?: number; name?: string; message?: string } };

export type XFailureContext = FailureContext & {
  /** Token endpoint calls: OAuth error bodies mean different things for a code and for a refresh. */
  during?: 'code_exchange' | 'token_refresh';
};

/** X's rate-limit headers give the reset as epoch seconds; the 24-hour user cap has its own. */
function xRetryAfterMs(headers: Headers, now: Date): number {
  const dailyExhausted = headers.get('x-user-limit-24hour-remaining') === '0';
  const reset = (dailyExhausted ? resetHeaderMs(headers, 'x-user-limit-24hour-reset', now) : undefined) ?? resetHeaderMs(headers, 'x-rate-limit-reset', now);
  return reset ?? Math.max(1000, retryAfterMs(headers, now, 60_000));
}

/** `https://api.twitter.com/2/problems/usage-capped` → `usage-capped`; about:blank has no slug. */
const problemSlug = (type: string | undefined) => (type && type !== 'about:blank' ? type.split('/').pop() : undefined);

/**
 * The one place X's answers get a meaning in the core taxonomy: by HTTP status, the problem
 * `type` and the OAuth `error` code. Bodies come as a problem `{title, detail, type, status}`,
 * as `{errors:[…], title, detail, type}`, or (token endpoint) as `{error, error_description}`.
 */
export function mapXFailure(outcome: XOutcome, context: XFailureContext): PlatformError {
  const fail = (failure: PlatformFailure, message: string, upstream: PlatformError['upstream'] = {}) =>
    new PlatformError('x', failure, message, upstream);

  if (outcome.kind === 'no_response') return fail({ kind: 'transient' }, noResponseMessage('X', outcome, context.timeoutMs));
  if (outcome.kind === 'malformed') {
    // X may have acted on the request: retrying could post twice, so this is not transient.
    return malformedAnswer('x', 'X', outcome, 'the account');
  }
  if (outcome.kind === 'processing_failed') {
    const { error } = outcome;
    return fail({ kind: 'invalid_content', code: 'media_processing_failed' },
      `X could not process media ${outcome.mediaId}: ${error.message ?? error.name ?? 'processing failed'}.`, { code: error.name ?? error.code });
  }

  const { status, headers } = outcome;
  const body = isObject(outcome.body) ? outcome.body : {};
  const firstError = Array.isArray(body.errors) && isObject(body.errors[0]) ? body.errors[0] : {};
  const oauthError = str(body.error);
  const type = str(body.type) ?? str(firstError.type);
  const slug = problemSlug(type);
  const detail = str(body.detail) ?? str(firstError.detail) ?? str(firstError.message) ?? str(body.error_description) ?? str(body.title);
  const said = `X: ${detail ?? `HTTP ${status}`}`;
  const upstream = { status, code: oauthError ?? slug };

  if (status === 429) {
    const capped = slug === 'usage-capped' ? ' (the app reached its X usage cap)' : '';
    return fail({ kind: 'rate_limited', retryAfterMs: xRetryAfterMs(headers, context.now) }, `${said}${capped}`, upstream);
  }
  if (status >= 500) return fail({ kind: 'transient' }, `X is failing (HTTP ${status}); try again later.`, upstream);

  if (oauthError) {
    if (oauthError === 'unauthorized_client' || oauthError === 'invalid_client') {
      return fail({ kind: 'rejected', code: 'oauth_client_rejected' }, `${said}. Check Herald's X client id and secret.`, upstream);
    }
    if (context.during === 'token_refresh') {
      return fail({ kind: 'auth_expired', reason: 'refresh_token_invalid' },
        `${said}. X no longer accepts the refresh token; reconnect the account.`, upstream);
    }
    return fail({ kind: 'rejected', code: 'oauth_code_rejected' }, `${said}. Start the connection again.`, upstream);
  }
  if (status === 401) {
    return fail({ kind: 'auth_expired', reason: 'token_expired' }, `${said}. X refused the access token (expired or revoked).`, upstream);
  }
  if (status === 403) {
    // X answers duplicates with type about:blank: only then is the detail the sole signal there is.
    const duplicate = slug === 'duplicate-content' || (!slug && /duplicate content/i.test(detail ?? ''));
    if (duplicate) return fail({ kind: 'rejected', code: 'duplicate_content' }, `${said} X refuses to post the same text twice.`, upstream);
    return fail({ kind: 'rejected', code: slug?.replace(/-/g, '_') }, said, upstream);
  }
  if (status === 413) return fail({ kind: 'invalid_content', code: 'payload_too_large' }, said, upstream);
  if (status === 400 || status === 422) return fail({ kind: 'invalid_content' }, said, upstream);
  return fail({ kind: 'rejected', code: slug?.replace(/-/g, '_') }, said, upstream);
}

export interface XClientOptions {
  apiBase: string;
  timeoutMs: number;
  fetch: typeof fetch;
  now: Now;
}

export type XClient = ReturnType<typeof createXClient>;

export function createXClient(opts: XClientOptions) {
  const { apiBase, timeoutMs, now } = opts;
  const failure = (outcome: XOutcome, during?: XFailureContext['during']) => mapXFailure(outcome, { timeoutMs, now: now(), during });

  /** One API call with the user's token; every failure leaves as a PlatformError from mapXFailure. */
  async function api(
    token: string, method: 'GET' | 'POST' | 'DELETE', path: string,
    init: { query?: Record<string, string>; json?: unknown; form?: FormData; signal?: AbortSignal } = {},
  ): Promise<{ status: number; body: Json }> {
    const query = init.query ? `?${new URLSearchParams(init.query)}` : '';
    const headers: Record<string, string> = { authorization: `Bearer ${token}`, accept: 'application/json' };
    if (init.json !== undefined) headers['content-type'] = 'application/json';
    const outcome = await exchangeJson(`${apiBase}${path}${query}`, {
      method, headers, body: init.json !== undefined ? JSON.stringify(init.json) : init.form,
    }, { fetch: opts.fetch, timeoutMs, signal: init.signal });
    if (outcome.kind === 'no_response' || outcome.status < 200 || outcome.status >= 300) throw failure(outcome);
    return { status: outcome.status, body: isObject(outcome.body) ? outcome.body : {} };
  }

  /** The `data` object of a 2xx answer, or a malformed-answer failure naming what was missing. */
  async function apiData(token: string, method: 'GET' | 'POST', path: string, what: string, init?: Parameters<typeof api>[3]): Promise<Json> {
    const { status, body } = await api(token, method, path, init);
    if (!isObject(body.data)) throw failure({ kind: 'malformed', status, what });
    return body.data;
  }

  function accessToken(ctx: CallContext): string {
    const token = ctx.credentials.access_token;
    if (!token) throw new PlatformError('x', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored X credentials are incomplete; reconnect the account.');
    return token;
  }

  async function createTweet(ctx: CallContext, token: string, body: Json): Promise<string> {
    const data = await apiData(token, 'POST', '/2/tweets', 'the created post', { json: body, signal: ctx.signal });
    const id = str(data.id);
    if (!id) throw failure({ kind: 'malformed', status: 201, what: 'the created post id' });
    return id;
  }

  return { ...opts, failure, api, apiData, accessToken, createTweet };
}
