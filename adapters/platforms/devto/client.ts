/**
 * DEV's Forem API v1 (developers.forem.com/api/v1) as the adapter uses it: the `api-key` header, the
 * v1 Accept type, JSON bodies. One exchange function and THE one place DEV's answers get a meaning
 * (mapDevtoFailure).
 */
import { PlatformError } from '../../../core/domain/errors';
import {
  exchangeJson, isObject, malformedAnswer, noResponseMessage, retryAfterMs, str, trimBase, type HttpExchange, type Json, type FailureContext, type Now,
} from '../kit/http';

export const DEVTO_API_BASE = 'https://dev.to/api';
export const DEFAULT_TIMEOUT_MS = 30_000;
const ACCEPT = 'application/vnd.forem.api-v1+json';

export type DevtoOutcome = HttpExchange | { kind: 'malformed'; status: number; what: string };

/**
 * The one place DEV's answers get a meaning. Forem answers `{error, status}`: 401 a wrong or
 * revoked key, 403 not allowed, 404 unknown article, 422 validation ("Title can't be blank", tag
 * rules), 429 throttled with Retry-After (article creation is limited to a few per 30 s).
 */
export function mapDevtoFailure(outcome: DevtoOutcome, context: FailureContext): PlatformError {
  const { timeoutMs, now } = context;
  if (outcome.kind === 'no_response') return new PlatformError('devto', { kind: 'transient' }, noResponseMessage('DEV', outcome, timeoutMs));
  if (outcome.kind === 'malformed') return malformedAnswer('devto', 'DEV', outcome, 'the account\'s articles');
  const { status, headers } = outcome;
  const body = isObject(outcome.body) ? outcome.body : {};
  const said = str(body.error) ?? `HTTP ${status}`;
  const upstream = { status };
  if (status === 401) {
    return new PlatformError('devto', { kind: 'auth_expired', reason: 'token_revoked' },
      `DEV: ${said}. The API key was revoked; reconnect the account with a new key (Settings → Extensions → DEV Community API Keys).`, upstream);
  }
  if (status === 403) return new PlatformError('devto', { kind: 'rejected', code: 'forbidden' }, `DEV: ${said}`, upstream);
  if (status === 404) return new PlatformError('devto', { kind: 'rejected', code: 'not_found' }, `DEV: ${said}`, upstream);
  if (status === 422 || status === 400) return new PlatformError('devto', { kind: 'invalid_content' }, `DEV: ${said}`, upstream);
  if (status === 429) return new PlatformError('devto', { kind: 'rate_limited', retryAfterMs: retryAfterMs(headers, now, 30_000) }, `DEV: ${said}`, upstream);
  if (status >= 500) return new PlatformError('devto', { kind: 'transient' }, `DEV is failing (HTTP ${status}); try again later.`, upstream);
  return new PlatformError('devto', { kind: 'rejected' }, `DEV: ${said}`, upstream);
}

export interface DevtoClient {
  call(apiKey: string, method: 'GET' | 'POST' | 'PUT', path: string, what: string, json?: Json, signal?: AbortSignal): Promise<{ status: number; body: Json }>;
  fail(outcome: DevtoOutcome): PlatformError;
}

export function createDevtoClient(opts: { apiBase: string; timeoutMs: number; fetch: typeof fetch; now: Now }): DevtoClient {
  const base = trimBase(opts.apiBase);
  const fail = (outcome: DevtoOutcome) => mapDevtoFailure(outcome, { timeoutMs: opts.timeoutMs, now: opts.now() });
  return {
    fail,
    async call(apiKey, method, path, what, json, signal) {
      const outcome = await exchangeJson(`${base}${path}`, {
        method,
        headers: { 'api-key': apiKey, accept: ACCEPT, ...(json ? { 'content-type': 'application/json' } : {}) },
        body: json ? JSON.stringify(json) : undefined,
      }, { fetch: opts.fetch, timeoutMs: opts.timeoutMs, signal });
      if (outcome.kind === 'no_response' || outcome.status < 200 || outcome.status >= 300) throw fail(outcome);
      if (!isObject(outcome.body) || (typeof outcome.body.id !== 'number' && typeof outcome.body.id !== 'string')) {
        throw fail({ kind: 'malformed', status: outcome.status, what });
      }
      return { status: outcome.status, body: outcome.body };
    },
  };
}
