/**
 * Google Business Profile's HTTP side: the JSON calls to its four APIs (v4 for local posts and
 * media, Account Management and Business Information v1 for the lookups, Performance v1 for the
 * analytics), and the one place their
 * answers get a meaning in the core taxonomy (`mapGoogleBusinessFailure`).
 */
import { PlatformError } from '../../../core/domain/errors';
import type { CallContext } from '../../../core/ports/platform';
import { readGoogleApiError, readGoogleOAuthError } from '../kit/google';
import { exchangeJson, isObject, malformedAnswer, noResponseMessage, retryAfterMs, str, type HttpExchange, type Json, type FailureContext, type Now } from '../kit/http';

export const GBP_API_BASE = 'https://mybusiness.googleapis.com';
export const GBP_ACCOUNTS_BASE = 'https://mybusinessaccountmanagement.googleapis.com';
export const GBP_INFO_BASE = 'https://mybusinessbusinessinformation.googleapis.com';
export const GBP_PERFORMANCE_BASE = 'https://businessprofileperformance.googleapis.com';
const DEFAULT_RETRY_AFTER_MS = 60_000;

export type GoogleBusinessOutcome = HttpExchange | { kind: 'malformed'; status: number; what: string };

/** The field and message of a v4 ValidationError (`error.details[].errorDetails[]`), when Google sent one. */
function validationDetail(body: unknown): { field?: string; message?: string } {
  const error = isObject(body) && isObject(body.error) ? body.error : {};
  for (const detail of Array.isArray(error.details) ? error.details : []) {
    if (!isObject(detail) || !Array.isArray(detail.errorDetails)) continue;
    const first = detail.errorDetails.find(isObject);
    if (first) return { field: str(first.field), message: str(first.message) };
  }
  return {};
}

/**
 * The one place Google Business Profile's answers get a meaning: by HTTP status, the error's
 * `status` (or `errors[0].reason`) and the OAuth endpoint's `error`, never by message text.
 */
export function mapGoogleBusinessFailure(outcome: GoogleBusinessOutcome, context: FailureContext): PlatformError {
  const fail = (failure: PlatformError['failure'], message: string, upstream: PlatformError['upstream'] = {}) =>
    new PlatformError('google_business', failure, message, upstream);
  if (outcome.kind === 'no_response') return fail({ kind: 'transient' }, noResponseMessage('Google Business Profile', outcome, context.timeoutMs));
  if (outcome.kind === 'malformed') return malformedAnswer('google_business', 'Google Business Profile', outcome, 'the location');

  const { status, headers } = outcome;
  const oauth = readGoogleOAuthError(outcome.body);
  if (oauth) {
    const said = `Google: ${oauth.description ?? oauth.code}`;
    const upstream = { status, code: oauth.code };
    if (oauth.code === 'invalid_grant') return fail({ kind: 'auth_expired', reason: 'invalid_grant' }, `${said}. The Google authorization expired or was revoked; reconnect the account.`, upstream);
    if (oauth.code === 'invalid_client' || oauth.code === 'unauthorized_client') return fail({ kind: 'rejected', code: 'oauth_client_invalid' }, `${said}. Check the Google Business client id and secret.`, upstream);
    if (status === 429) return fail({ kind: 'rate_limited', retryAfterMs: retryAfterMs(headers, context.now, DEFAULT_RETRY_AFTER_MS) }, said, upstream);
    if (status >= 500) return fail({ kind: 'transient' }, `Google sign-in is failing (HTTP ${status}); try again later.`, upstream);
    return fail({ kind: 'rejected', code: `oauth_${oauth.code}` }, said, upstream);
  }

  const { reason, message } = readGoogleApiError(outcome.body, status);
  const detail = validationDetail(outcome.body);
  const said = `Google Business Profile: ${detail.message ?? message}${detail.field ? ` (${detail.field})` : ''}`;
  const upstream = { status, code: reason };
  if (status === 401 || reason === 'UNAUTHENTICATED') return fail({ kind: 'auth_expired', reason: 'token_invalid' }, `${said}. The Google token expired or was revoked.`, upstream);
  if (status === 429 || reason === 'RESOURCE_EXHAUSTED') {
    // Projects without Business Profile API access have a quota of 0: every call answers this.
    return fail({ kind: 'rate_limited', retryAfterMs: retryAfterMs(headers, context.now, DEFAULT_RETRY_AFTER_MS) },
      `${said} (A project not approved for the Business Profile APIs has a quota of 0 requests per minute.)`, upstream);
  }
  if (status >= 500) return fail({ kind: 'transient' }, `Google Business Profile is failing (HTTP ${status}); try again later.`, upstream);
  if (status === 403 || reason === 'PERMISSION_DENIED') {
    return fail({ kind: 'rejected', code: 'permission_denied' }, `${said}. The connected Google account does not manage this location.`, upstream);
  }
  if (status === 404 || reason === 'NOT_FOUND') return fail({ kind: 'rejected', code: 'gbp_not_found' }, `${said}. Check gbp_location_id (GET /google-business/locations lists them).`, upstream);
  if (reason === 'FAILED_PRECONDITION') return fail({ kind: 'rejected', code: 'gbp_location_unverified' }, `${said}. Only verified locations can publish.`, upstream);
  if (status === 400 || reason === 'INVALID_ARGUMENT') return fail({ kind: 'invalid_content', code: 'gbp_invalid_argument' }, said, upstream);
  return fail({ kind: 'rejected', ...(reason ? { code: reason.toLowerCase() } : {}) }, said, upstream);
}

export interface GoogleBusinessClientOptions {
  apiBase: string;
  accountsBase: string;
  infoBase: string;
  performanceBase: string;
  timeoutMs: number;
  fetch: typeof fetch;
  now: Now;
}

export type GoogleBusinessClient = ReturnType<typeof createGoogleBusinessClient>;

export function createGoogleBusinessClient(opts: GoogleBusinessClientOptions) {
  const { timeoutMs, now } = opts;
  const failure = (outcome: GoogleBusinessOutcome) => mapGoogleBusinessFailure(outcome, { timeoutMs, now: now() });

  function tokenOf(ctx: CallContext): string {
    const token = ctx.credentials.access_token;
    if (!token) throw new PlatformError('google_business', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Google Business credentials are incomplete; reconnect the account.');
    return token;
  }

  /** One JSON call to `url`; any non-2xx leaves as a PlatformError. */
  async function call(token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: Json, signal?: AbortSignal): Promise<Json> {
    const outcome = await exchangeJson(url, {
      method,
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(payload ? { 'content-type': 'application/json; charset=UTF-8' } : {}) },
      body: payload ? JSON.stringify(payload) : undefined,
    }, { fetch: opts.fetch, timeoutMs, signal });
    if (outcome.kind === 'no_response' || outcome.status < 200 || outcome.status >= 300) throw failure(outcome);
    if (!isObject(outcome.body)) throw failure({ kind: 'malformed', status: outcome.status, what: 'a JSON body' });
    return outcome.body;
  }

  return {
    timeoutMs, now, fetch: opts.fetch, failure, tokenOf, call,
    v4: (path: string) => `${opts.apiBase}/v4/${path}`,
    accounts: (path: string) => `${opts.accountsBase}/v1/${path}`,
    info: (path: string) => `${opts.infoBase}/v1/${path}`,
    performance: (path: string) => `${opts.performanceBase}/v1/${path}`,
  };
}
