/**
 * Snap's Public Profile API as the adapter uses it: JSON and multipart calls with the bearer token,
 * and the one place Snap's answers get a meaning in the core taxonomy (`mapSnapchatFailure`).
 * Errors look like `{request_status: "ERROR", request_id, debug_message, display_message, error_code}`;
 * the OAuth endpoint answers `{error, error_description}`.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { CallContext } from '../../../core/ports/platform';
import { exchangeJson, isObject, malformedAnswer, noResponseMessage, retryAfterMs, str, type HttpExchange, type Json, type FailureContext, type Now } from '../kit/http';

export const SNAP_API_BASE = 'https://businessapi.snapchat.com';
export const SNAP_AUTH_BASE = 'https://accounts.snapchat.com';
const DEFAULT_RETRY_AFTER_MS = 60_000;

export type SnapchatOutcome = HttpExchange | { kind: 'malformed'; status: number; what: string };

/** The one place Snap's answers get a meaning: by HTTP status, the OAuth `error` and Snap's `error_code`, never by message text. */
export function mapSnapchatFailure(outcome: SnapchatOutcome, context: FailureContext): PlatformError {
  const fail = (failure: PlatformError['failure'], message: string, upstream: PlatformError['upstream'] = {}) => new PlatformError('snapchat', failure, message, upstream);
  if (outcome.kind === 'no_response') return fail({ kind: 'transient' }, noResponseMessage('Snapchat', outcome, context.timeoutMs));
  if (outcome.kind === 'malformed') return malformedAnswer('snapchat', 'Snapchat', outcome, 'the Public Profile');
  const { status, headers } = outcome;
  const body = isObject(outcome.body) ? outcome.body : {};
  if (typeof body.error === 'string') {
    const said = `Snapchat: ${str(body.error_description) ?? body.error}`;
    const upstream = { status, code: body.error };
    if (body.error === 'invalid_grant') return fail({ kind: 'auth_expired', reason: 'invalid_grant' }, `${said}. The Snapchat authorization expired or was revoked; reconnect the account.`, upstream);
    if (body.error === 'invalid_client' || body.error === 'unauthorized_client') return fail({ kind: 'rejected', code: 'oauth_client_invalid' }, `${said}. Check the Snapchat client id and secret.`, upstream);
    if (status >= 500) return fail({ kind: 'transient' }, `Snapchat sign-in is failing (HTTP ${status}); try again later.`, upstream);
    return fail({ kind: 'rejected', code: `oauth_${body.error}` }, said, upstream);
  }
  const code = str(body.error_code);
  const said = `Snapchat: ${str(body.display_message) ?? str(body.debug_message) ?? `HTTP ${status}`}`;
  const upstream = { status, ...(code ? { code } : {}) };
  if (status === 401) return fail({ kind: 'auth_expired', reason: 'token_invalid' }, `${said} The Snapchat token expired or was revoked.`, upstream);
  if (status === 429) return fail({ kind: 'rate_limited', retryAfterMs: retryAfterMs(headers, context.now, DEFAULT_RETRY_AFTER_MS) }, said, upstream);
  if (status >= 500) return fail({ kind: 'transient' }, `Snapchat is failing (HTTP ${status}); try again later.`, upstream);
  if (status === 403) return fail({ kind: 'rejected', code: 'permission_denied' }, `${said} Publishing needs a Public Profile and an app allowlisted for the Public Profile API.`, upstream);
  if (status === 413) return fail({ kind: 'invalid_content', code: 'payload_too_large' }, said, upstream);
  if (status === 400) return fail({ kind: 'invalid_content', code: code === 'E2003' ? 'media_rejected' : code === 'E2002' ? 'media_invalid' : 'snapchat_invalid_request' }, said, upstream);
  return fail({ kind: 'rejected', ...(code ? { code: code.toLowerCase() } : {}) }, said, upstream);
}

export interface SnapchatClientOptions { apiBase: string; timeoutMs: number; uploadTimeoutMs: number; fetch: typeof fetch; now: Now }
export type SnapchatClient = ReturnType<typeof createSnapchatClient>;

export function createSnapchatClient(opts: SnapchatClientOptions) {
  const { apiBase, timeoutMs, now } = opts;
  const apiOrigin = new URL(apiBase).origin;
  const failure = (outcome: SnapchatOutcome, ms = timeoutMs) => mapSnapchatFailure(outcome, { timeoutMs: ms, now: now() });

  function tokenOf(ctx: CallContext): string {
    const token = ctx.credentials.access_token;
    if (!token) throw new PlatformError('snapchat', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Snapchat credentials are incomplete; reconnect the account.');
    return token;
  }

  /** A path from an answer (`add_path`) as a URL on the API host: the bearer token never leaves it. */
  function onApi(path: string): string {
    const url = new URL(path, `${apiBase}/`);
    if (url.origin !== apiOrigin) throw failure({ kind: 'malformed', status: 200, what: 'an upload path on the API host' });
    return url.toString();
  }

  async function call(token: string, method: 'GET' | 'POST' | 'DELETE', path: string, payload?: Json | FormData, signal?: AbortSignal): Promise<Json> {
    const multipart = payload instanceof FormData;
    const ms = multipart ? opts.uploadTimeoutMs : timeoutMs;
    const outcome = await exchangeJson(path.startsWith('http') ? path : `${apiBase}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(payload && !multipart ? { 'content-type': 'application/json' } : {}) },
      body: multipart ? payload : payload ? JSON.stringify(payload) : undefined,
    }, { fetch: opts.fetch, timeoutMs: ms, signal });
    if (outcome.kind === 'no_response' || outcome.status < 200 || outcome.status >= 300) throw failure(outcome, ms);
    if (!isObject(outcome.body)) throw failure({ kind: 'malformed', status: outcome.status, what: 'a JSON body' });
    if (outcome.body.request_status !== undefined && String(outcome.body.request_status).toUpperCase() !== 'SUCCESS') throw failure({ kind: 'response', status: 400, headers: outcome.headers, body: outcome.body });
    return outcome.body;
  }

  return { apiBase, timeoutMs, now, fetch: opts.fetch, failure, tokenOf, onApi, call };
}
