/**
 * listmonk's HTTP API (listmonk.app/docs/apis/apis) as the adapter uses it. listmonk is
 * self-hosted: calls go to the instance URL stored with the connection, authenticated as an API
 * user with `Authorization: token <user>:<token>`. One exchange function and THE one place
 * listmonk's answers get a meaning (mapListmonkFailure).
 */
import { PlatformError } from '../../../core/domain/errors';
import {
  exchangeJson, isObject, malformedAnswer, noResponseMessage, retryAfterMs, str, trimBase, type HttpExchange, type Json, type FailureContext, type Now,
} from '../kit/http';

export const DEFAULT_TIMEOUT_MS = 30_000;

export type ListmonkOutcome = HttpExchange | { kind: 'malformed'; status: number; what: string };

/**
 * The one place listmonk's answers get a meaning. listmonk answers `{message}` and no error codes:
 * by status (400 invalid fields, 404 unknown campaign or list, 5xx failing), except 403, which is
 * both "invalid API credentials" (the token was reset or the user removed) and a missing
 * permission: only the message tells them apart. 429 comes from a proxy in front of the instance.
 */
export function mapListmonkFailure(outcome: ListmonkOutcome, context: FailureContext): PlatformError {
  const { timeoutMs, now } = context;
  if (outcome.kind === 'no_response') return new PlatformError('listmonk', { kind: 'transient' }, noResponseMessage('The listmonk instance', outcome, timeoutMs));
  if (outcome.kind === 'malformed') return malformedAnswer('listmonk', 'The listmonk instance', outcome, 'the instance\'s campaigns');
  const { status, headers } = outcome;
  const body = isObject(outcome.body) ? outcome.body : {};
  const said = `listmonk: ${str(body.message) ?? `HTTP ${status}`}`;
  const upstream = { status };
  if (status === 401 || (status === 403 && /invalid (api )?credentials|invalid session|unauthori[sz]ed/i.test(str(body.message) ?? ''))) {
    return new PlatformError('listmonk', { kind: 'auth_expired', reason: 'token_revoked' },
      `${said}. The API user's token was reset or the user removed; reconnect with a new token (Admin → Users).`, upstream);
  }
  if (status === 403) return new PlatformError('listmonk', { kind: 'rejected', code: 'permission_denied' }, `${said}. Give the API user's role the campaigns:manage permission.`, upstream);
  if (status === 404) return new PlatformError('listmonk', { kind: 'rejected', code: 'not_found' }, said, upstream);
  if (status === 400 || status === 422) return new PlatformError('listmonk', { kind: 'invalid_content' }, said, upstream);
  if (status === 429) return new PlatformError('listmonk', { kind: 'rate_limited', retryAfterMs: retryAfterMs(headers, now, 60_000) }, said, upstream);
  if (status >= 500) return new PlatformError('listmonk', { kind: 'transient' }, `The listmonk instance is failing (HTTP ${status}); try again later.`, upstream);
  return new PlatformError('listmonk', { kind: 'rejected' }, said, upstream);
}

export interface ListmonkAccount { instance: string; user: string; token: string }

export interface ListmonkClient {
  /** One call answering `{data}`; the data is returned. */
  call(account: ListmonkAccount, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, what: string, json?: Json, signal?: AbortSignal): Promise<unknown>;
  fail(outcome: ListmonkOutcome): PlatformError;
  /** POST /api/media, multipart `file`: the uploaded media's data ({id, url, …}). */
  uploadMedia(account: ListmonkAccount, file: { name: string; contentType: string; bytes: Buffer }, signal?: AbortSignal): Promise<unknown>;
}

export function createListmonkClient(opts: { timeoutMs: number; fetch: typeof fetch; now: Now }): ListmonkClient {
  const fail = (outcome: ListmonkOutcome) => mapListmonkFailure(outcome, { timeoutMs: opts.timeoutMs, now: opts.now() });
  return {
    fail,
    async uploadMedia(account, file, signal) {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.contentType }), file.name);
      return send(account, 'POST', '/api/media', 'the uploaded media', form, signal);
    },
    async call(account, method, path, what, json, signal) {
      return send(account, method, path, what, json, signal);
    },
  };

  async function send(account: ListmonkAccount, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, what: string, json: Json | FormData | undefined, signal?: AbortSignal): Promise<unknown> {
    // A FormData body sets its own multipart content type and boundary.
    const form = json instanceof FormData;
    const outcome = await exchangeJson(`${trimBase(account.instance)}${path}`, {
      method,
      headers: { authorization: `token ${account.user}:${account.token}`, accept: 'application/json', ...(json && !form ? { 'content-type': 'application/json' } : {}) },
      body: form ? json : json ? JSON.stringify(json) : undefined,
    }, { fetch: opts.fetch, timeoutMs: opts.timeoutMs, signal });
    if (outcome.kind === 'no_response' || outcome.status < 200 || outcome.status >= 300) throw fail(outcome);
    if (!isObject(outcome.body) || !('data' in outcome.body)) throw fail({ kind: 'malformed', status: outcome.status, what });
    return outcome.body.data;
  }
}
