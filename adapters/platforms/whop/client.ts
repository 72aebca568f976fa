/**
 * Whop's REST API v1 (docs.whop.com/api-reference) as the adapter uses it: `Authorization: Bearer`
 * with the API key, JSON bodies. One exchange function and THE one place Whop's answers get a
 * meaning (mapWhopFailure).
 */
import { PlatformError } from '../../../core/domain/errors';
import {
  exchangeJson, isObject, malformedAnswer, noResponseMessage, retryAfterMs, str, trimBase, type HttpExchange, type Json, type FailureContext, type Now,
} from '../kit/http';

export const WHOP_API_BASE = 'https://api.whop.com/api/v1';
export const DEFAULT_TIMEOUT_MS = 30_000;

export type WhopOutcome = HttpExchange | { kind: 'malformed'; status: number; what: string };

/** Whop's `{error:{type, message}}` (or a bare `{error}` / `{message}` from its edge). */
function readWhopError(body: unknown, status: number): { type?: string; message: string } {
  if (!isObject(body)) return { message: `HTTP ${status}` };
  if (isObject(body.error)) return { type: str(body.error.type), message: str(body.error.message) ?? `HTTP ${status}` };
  return { message: str(body.error) ?? str(body.message) ?? `HTTP ${status}` };
}

/**
 * The one place Whop's answers get a meaning, by HTTP status: 401 the key was deleted or is wrong,
 * 403 the key lacks a permission (forum:post:create, experience:read), 404 unknown experience or
 * post, 400/422 invalid content, 429 throttled (Retry-After), 5xx Whop failing.
 */
export function mapWhopFailure(outcome: WhopOutcome, context: FailureContext): PlatformError {
  const { timeoutMs, now } = context;
  if (outcome.kind === 'no_response') return new PlatformError('whop', { kind: 'transient' }, noResponseMessage('Whop', outcome, timeoutMs));
  if (outcome.kind === 'malformed') return malformedAnswer('whop', 'Whop', outcome, 'the forum');
  const { status, headers } = outcome;
  const error = readWhopError(outcome.body, status);
  const said = `Whop: ${error.message}`;
  const upstream = { status, ...(error.type ? { code: error.type } : {}) };
  if (status === 401) {
    return new PlatformError('whop', { kind: 'auth_expired', reason: 'token_revoked' }, `${said}. The API key was deleted or rotated; reconnect with a new key.`, upstream);
  }
  if (status === 403) return new PlatformError('whop', { kind: 'rejected', code: 'permission_denied' }, `${said}. Give the API key the forum:post:create permission.`, upstream);
  if (status === 404) return new PlatformError('whop', { kind: 'rejected', code: 'not_found' }, said, upstream);
  if (status === 400 || status === 422) return new PlatformError('whop', { kind: 'invalid_content' }, said, upstream);
  if (status === 429) return new PlatformError('whop', { kind: 'rate_limited', retryAfterMs: retryAfterMs(headers, now, 60_000) }, said, upstream);
  if (status >= 500) return new PlatformError('whop', { kind: 'transient' }, `Whop is failing (HTTP ${status}); try again later.`, upstream);
  return new PlatformError('whop', { kind: 'rejected' }, said, upstream);
}

export interface WhopClient {
  call(apiKey: string, method: 'GET' | 'POST' | 'PATCH', path: string, what: string, json?: Json, signal?: AbortSignal): Promise<Json & { id: string }>;
  fail(outcome: WhopOutcome): PlatformError;
}

export function createWhopClient(opts: { apiBase: string; timeoutMs: number; fetch: typeof fetch; now: Now }): WhopClient {
  const base = trimBase(opts.apiBase);
  const fail = (outcome: WhopOutcome) => mapWhopFailure(outcome, { timeoutMs: opts.timeoutMs, now: opts.now() });
  return {
    fail,
    async call(apiKey, method, path, what, json, signal) {
      const outcome = await exchangeJson(`${base}${path}`, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json', ...(json ? { 'content-type': 'application/json' } : {}) },
        body: json ? JSON.stringify(json) : undefined,
      }, { fetch: opts.fetch, timeoutMs: opts.timeoutMs, signal });
      if (outcome.kind === 'no_response' || outcome.status < 200 || outcome.status >= 300) throw fail(outcome);
      if (!isObject(outcome.body) || !str(outcome.body.id)) throw fail({ kind: 'malformed', status: outcome.status, what });
      return outcome.body as Json & { id: string };
    },
  };
}
