/**
 * LinkedIn's versioned REST API as the adapter uses it (`/rest/...` with LinkedIn-Version and
 * Rest.li 2.0 headers, byte uploads to the URLs LinkedIn hands out), and THE one place LinkedIn's
 * answers get a meaning (mapLinkedInFailure).
 */
import { PlatformError } from '../../../core/domain/errors';
import {
  exchangeJson, isObject, noResponseMessage, retryAfterMs, trimBase, type HttpExchange, type FailureContext, type Now, malformedAnswer} from '../kit/http';

export const LINKEDIN_API_BASE = 'https://api.linkedin.com';
/** LinkedIn keeps a monthly version active for about a year: bump this when the simulator or LinkedIn answers 426. */
export const LINKEDIN_DEFAULT_VERSION = '202610';
export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_UPLOAD_TIMEOUT_MS = 120_000;

/** What came back from LinkedIn, before it is given a meaning. */
export type LinkedInOutcome =
  | HttpExchange
  /** A 2xx whose body or headers are not what the call returns. */
  | { kind: 'malformed'; status: number; what: string }
  /** GET /rest/videos answered PROCESSING_FAILED. */
  | { kind: 'video_failed'; video: string; reason?: string }
  /** The video was still processing after the last poll. */
  | { kind: 'video_stuck'; video: string; polls: number };

/** Which call answered: the token endpoint speaks OAuth errors, the rest LinkedIn's REST errors. */
export type LinkedInCall = 'api' | 'upload' | 'code_exchange' | 'token_refresh';

/** Without Retry-After, wait for the reset of LinkedIn's daily throttles (midnight UTC). */
function linkedinRetryAfterMs(headers: Headers, now: Date): number {
  const midnight = new Date(now);
  midnight.setUTCHours(24, 0, 0, 0);
  return retryAfterMs(headers, now, midnight.getTime() - now.getTime());
}

/**
 * The one place LinkedIn's answers get a meaning in the core taxonomy. REST errors are
 * `{status, serviceErrorCode, code, message}`; the token endpoint answers `{error, error_description}`.
 * Classifies by HTTP status, `code`, `serviceErrorCode` and OAuth `error`, never by message text.
 */
export function mapLinkedInFailure(outcome: LinkedInOutcome, context: FailureContext & { call: LinkedInCall }): PlatformError {
  const fail = (failure: PlatformError['failure'], message: string, upstream: PlatformError['upstream'] = {}) =>
    new PlatformError('linkedin', failure, message, upstream);

  switch (outcome.kind) {
    case 'no_response':
      return fail({ kind: 'transient' }, noResponseMessage('LinkedIn', outcome, context.timeoutMs));
    case 'malformed':
      // LinkedIn may have acted on the request: retrying could post twice, so this is not transient.
      return malformedAnswer('linkedin', 'LinkedIn', outcome, 'the account');
    case 'video_failed':
      return fail({ kind: 'invalid_content', code: 'video_processing_failed' },
        `LinkedIn could not process the video ${outcome.video}${outcome.reason ? `: ${outcome.reason}` : ''}.`);
    case 'video_stuck':
      return fail({ kind: 'transient' }, `LinkedIn was still processing the video ${outcome.video} after ${outcome.polls} checks; nothing was posted.`);
    case 'response':
      break;
  }

  const { status, headers } = outcome;
  const body = isObject(outcome.body) ? outcome.body : {};
  const code = typeof body.code === 'string' ? body.code : undefined;
  const serviceErrorCode = typeof body.serviceErrorCode === 'number' ? body.serviceErrorCode : undefined;
  const oauthError = typeof body.error === 'string' ? body.error : undefined;
  const said = typeof body.message === 'string' && body.message ? body.message
    : typeof body.error_description === 'string' && body.error_description ? body.error_description
    : oauthError ?? `HTTP ${status}`;
  const upstream = { status, code: code ?? oauthError ?? serviceErrorCode };

  if (status === 429) {
    return fail({ kind: 'rate_limited', retryAfterMs: linkedinRetryAfterMs(headers, context.now) }, `LinkedIn: ${said}`, upstream);
  }
  if (status >= 500) return fail({ kind: 'transient' }, `LinkedIn is failing (HTTP ${status}); try again later.`, upstream);

  if (oauthError && (context.call === 'code_exchange' || context.call === 'token_refresh')) {
    if (oauthError === 'invalid_grant' || (oauthError === 'invalid_request' && context.call === 'token_refresh')) {
      return context.call === 'token_refresh'
        ? fail({ kind: 'auth_expired', reason: 'refresh_token_invalid' }, `LinkedIn refused the refresh token (${said}); reconnect the account.`, upstream)
        : fail({ kind: 'rejected', code: 'oauth_code_invalid' }, `LinkedIn refused the authorization code (${said}); start the connection again.`, upstream);
    }
    if (oauthError === 'invalid_client' || oauthError === 'unauthorized_client') {
      return fail({ kind: 'rejected', code: 'oauth_client_invalid' }, `LinkedIn refused Herald's client credentials: ${said}`, upstream);
    }
    return fail({ kind: 'rejected', code: oauthError }, `LinkedIn: ${said}`, upstream);
  }

  if (status === 401) {
    const reason = code === 'REVOKED_ACCESS_TOKEN' || serviceErrorCode === 65601 ? 'token_revoked'
      : code === 'EXPIRED_ACCESS_TOKEN' ? 'token_expired' : 'token_invalid';
    return fail({ kind: 'auth_expired', reason }, `LinkedIn: ${said}. Reconnect the account.`, upstream);
  }
  if (status === 426) {
    return fail({ kind: 'rejected', code: 'linkedin_version_inactive' },
      `LinkedIn no longer serves API version this Herald uses (${said}); update the LinkedIn-Version setting.`, upstream);
  }
  if (status === 403) {
    return fail({ kind: 'rejected', code: 'permission_denied' }, `LinkedIn denied access: ${said}`, upstream);
  }
  if (status === 422 || status === 400 || status === 413) {
    const contentCode = code === 'DUPLICATE_POST' ? 'duplicate_post' : status === 413 ? 'payload_too_large' : undefined;
    return fail({ kind: 'invalid_content', ...(contentCode ? { code: contentCode } : {}) }, `LinkedIn refused the content: ${said}`, upstream);
  }
  return fail({ kind: 'rejected', ...(code ? { code: code.toLowerCase() } : {}) }, `LinkedIn: ${said}`, upstream);
}

export interface Reply { status: number; headers: Headers; body: unknown }

export interface LinkedInClientOptions {
  apiBase: string;
  /** `LinkedIn-Version` header, YYYYMM or YYYYMM.RR. */
  version: string;
  timeoutMs: number;
  uploadTimeoutMs: number;
  fetch: typeof fetch;
  now: Now;
}

export interface LinkedInClient {
  readonly timeoutMs: number;
  readonly fetch: typeof fetch;
  readonly now: Now;
  /** One exchange; any non-2xx or missing answer leaves as a PlatformError from mapLinkedInFailure. */
  send(call: LinkedInCall, url: string, init: RequestInit, signal?: AbortSignal): Promise<Reply>;
  /** A call to the versioned REST API (`/rest/...`). */
  rest(method: string, path: string, token: string, json: unknown, signal?: AbortSignal, headers?: Record<string, string>): Promise<Reply>;
  /** A call to the unversioned `/v2/...` API (OpenID userinfo). */
  v2(path: string, token: string): Promise<Reply>;
  putBytes(url: string, token: string, bytes: Buffer, contentType: string, signal?: AbortSignal): Promise<Reply>;
  /** A 2xx without what the call returns. */
  malformed(status: number, what: string): PlatformError;
}

export function createLinkedInClient(opts: LinkedInClientOptions): LinkedInClient {
  const apiBase = trimBase(opts.apiBase);
  const { version, timeoutMs, uploadTimeoutMs, now } = opts;
  if (!/^\d{6}(\.\d{2})?$/.test(version)) throw new Error(`LinkedIn version must be YYYYMM or YYYYMM.RR, got ${version}`);

  async function send(call: LinkedInCall, url: string, init: RequestInit, signal?: AbortSignal): Promise<Reply> {
    const wait = call === 'upload' ? uploadTimeoutMs : timeoutMs;
    const outcome = await exchangeJson(url, init, { fetch: opts.fetch, timeoutMs: wait, signal });
    if (outcome.kind === 'no_response' || outcome.status < 200 || outcome.status >= 300) {
      throw mapLinkedInFailure(outcome, { timeoutMs: wait, call, now: now() });
    }
    return outcome;
  }

  return {
    timeoutMs,
    fetch: opts.fetch,
    now,
    send,
    rest: (method, path, token, json, signal, headers) => send('api', `${apiBase}/rest${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        'linkedin-version': version,
        'x-restli-protocol-version': '2.0.0',
        accept: 'application/json',
        ...(json !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      },
      body: json !== undefined ? JSON.stringify(json) : undefined,
    }, signal),
    v2: (path, token) => send('api', `${apiBase}/v2${path}`, { method: 'GET', headers: { authorization: `Bearer ${token}`, accept: 'application/json' } }),
    putBytes: (url, token, bytes, contentType, signal) =>
      send('upload', url, { method: 'PUT', headers: { authorization: `Bearer ${token}`, 'content-type': contentType }, body: bytes }, signal),
    malformed: (status, what) => mapLinkedInFailure({ kind: 'malformed', status, what }, { timeoutMs, call: 'api', now: now() }),
  };
}
