/**
 * Mastodon's REST API (docs.joinmastodon.org/methods) as the adapter uses it. Every connection has
 * its own instance: calls go to the instance URL stored with the connection, with the account's
 * access token as a Bearer token. One exchange function, and THE one place Mastodon's answers get
 * a meaning (mapMastodonFailure).
 */
import { PlatformError } from '../../../core/domain/errors';
import {
  exchangeJson, isObject, malformedAnswer, noResponseMessage, retryAfterMs, str, trimBase, type HttpExchange, type Json, type FailureContext, type Now,
} from '../kit/http';

export const DEFAULT_TIMEOUT_MS = 30_000;
/** Media uploads carry up to 99 MB of video. */
export const DEFAULT_UPLOAD_TIMEOUT_MS = 5 * 60_000;

/** What came back from the instance, before it is given a meaning. */
export type MastodonOutcome =
  | HttpExchange
  /** A 2xx whose body is not what the call returns. */
  | { kind: 'malformed'; status: number; what: string }
  /** The instance could not process an uploaded file (GET /api/v1/media/:id answered 422, or processing never ended). */
  | { kind: 'media_failed'; detail: string };

/** Milliseconds until `X-RateLimit-Reset` (an ISO time), else Retry-After, else 60 s. */
function mastodonRetryAfterMs(headers: Headers, now: Date): number {
  const reset = Date.parse(headers.get('x-ratelimit-reset') ?? '');
  if (Number.isFinite(reset)) return Math.max(1000, reset - now.getTime());
  return retryAfterMs(headers, now, 60_000);
}

/**
 * The one place Mastodon's answers get a meaning. Mastodon answers errors as `{error, error_description?}`
 * and classifies by HTTP status: 401 token, 403 account disabled or not allowed, 404 gone, 422
 * validation, 429 throttled (300 calls / 5 min, 30 media / 30 min), 5xx the instance failing.
 */
export function mapMastodonFailure(outcome: MastodonOutcome, context: FailureContext): PlatformError {
  const { timeoutMs, now } = context;
  if (outcome.kind === 'no_response') return new PlatformError('mastodon', { kind: 'transient' }, noResponseMessage('The Mastodon instance', outcome, timeoutMs));
  if (outcome.kind === 'malformed') return malformedAnswer('mastodon', 'The Mastodon instance', outcome, 'the account\'s posts');
  if (outcome.kind === 'media_failed') {
    return new PlatformError('mastodon', { kind: 'invalid_content', code: 'media_processing_failed' }, `Mastodon could not process the media: ${outcome.detail}`);
  }
  const { status, headers } = outcome;
  const body = isObject(outcome.body) ? outcome.body : {};
  const said = str(body.error) ?? `HTTP ${status}`;
  const upstream = { status };
  if (status === 401) {
    return new PlatformError('mastodon', { kind: 'auth_expired', reason: 'token_revoked' },
      `Mastodon: ${said}. The access token was revoked or the application removed; reconnect the account with a new token.`, upstream);
  }
  if (status === 403) {
    // A suspended or disabled login, or a token without the write scopes.
    return new PlatformError('mastodon', { kind: 'rejected', code: 'forbidden' }, `Mastodon: ${said}`, upstream);
  }
  if (status === 404) return new PlatformError('mastodon', { kind: 'rejected', code: 'not_found' }, `Mastodon: ${said}`, upstream);
  if (status === 413) return new PlatformError('mastodon', { kind: 'invalid_content', code: 'payload_too_large' }, `Mastodon: ${said}`, upstream);
  if (status === 422) {
    const tooLong = /character limit/i.test(said);
    return new PlatformError('mastodon', { kind: 'invalid_content', ...(tooLong ? { code: 'text_too_long' } : {}) }, `Mastodon: ${said}`, upstream);
  }
  if (status === 429) return new PlatformError('mastodon', { kind: 'rate_limited', retryAfterMs: mastodonRetryAfterMs(headers, now) }, `Mastodon: ${said}`, upstream);
  if (status >= 500) return new PlatformError('mastodon', { kind: 'transient' }, `The Mastodon instance is failing (HTTP ${status}); try again later.`, upstream);
  return new PlatformError('mastodon', { kind: 'rejected' }, `Mastodon: ${said}`, upstream);
}

/** Where a connection's calls go and as whom. */
export interface MastodonAccount { instance: string; token: string }

export interface MastodonClientOptions {
  timeoutMs: number;
  uploadTimeoutMs: number;
  fetch: typeof fetch;
  now: Now;
}

export interface MastodonClient {
  /**
   * One call; non-2xx and no answer leave through mapMastodonFailure, a 2xx without a JSON object as
   * malformed. Answers the status too (media: 200 processed, 202/206 still processing).
   */
  call(account: MastodonAccount, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, what: string,
    opts?: { json?: Json; form?: FormData; idempotencyKey?: string; signal?: AbortSignal }): Promise<{ status: number; body: Json }>;
  fail(outcome: MastodonOutcome): PlatformError;
}

export function createMastodonClient(opts: MastodonClientOptions): MastodonClient {
  const { timeoutMs, now } = opts;
  const fail = (outcome: MastodonOutcome) => mapMastodonFailure(outcome, { timeoutMs, now: now() });
  return {
    fail,
    async call(account, method, path, what, { json, form, idempotencyKey, signal } = {}) {
      const outcome = await exchangeJson(`${trimBase(account.instance)}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${account.token}`,
          accept: 'application/json',
          ...(json ? { 'content-type': 'application/json' } : {}),
          ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
        },
        body: json ? JSON.stringify(json) : form,
      }, { fetch: opts.fetch, timeoutMs: form ? opts.uploadTimeoutMs : timeoutMs, signal });
      if (outcome.kind === 'no_response' || outcome.status < 200 || outcome.status >= 300) throw fail(outcome);
      if (!isObject(outcome.body)) throw fail({ kind: 'malformed', status: outcome.status, what });
      return { status: outcome.status, body: outcome.body };
    },
  };
}

/** The `id` of an answer as text, else a malformed answer. */
export function idOf(client: MastodonClient, status: number, body: Json, what: string): string {
  const id = typeof body.id === 'string' ? body.id : typeof body.id === 'number' ? String(body.id) : '';
  if (!id) throw client.fail({ kind: 'malformed', status, what });
  return id;
}
