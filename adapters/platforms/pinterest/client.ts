/**
 * Pinterest's HTTP side (API v5): JSON calls with the user's token or the app's Basic
 * authentication, and the one place Pinterest's answers get a meaning (`mapPinterestFailure`).
 */
import { PlatformError } from '../../../core/domain/errors';
import type { PlatformCredentials } from '../../../core/ports/platform';
import { exchangeJson, isObject, noResponseMessage, retryAfterMs, type HttpExchange, type Json, type FailureContext, type Now, malformedAnswer } from '../kit/http';

/**
 * Pinterest's "video not ready, try again" refusal of a video Pin save. Its public reference
 * documents no code for it, so this is the code the Herald simulator answers with (HTTP 409);
 * replace it here if Pinterest's real answer turns out to carry another one.
 */
export const PINTEREST_VIDEO_NOT_READY_CODE = 3021;

/** What came back from Pinterest (or its upload storage), before it is given a meaning. */
export type PinterestOutcome =
  | HttpExchange
  /** The S3 form upload's answer: empty on success, XML `<Error><Code>` otherwise. */
  | { kind: 'upload_response'; status: number; text: string }
  /** A 2xx whose body is not what the call returns. */
  | { kind: 'malformed'; status: number; what: string }
  /** GET /v5/media/{id} answered `status: failed`. */
  | { kind: 'media_failed'; mediaId: string };

/** Which endpoint answered: the token endpoint's refusals mean the grant is gone. */
export type PinterestCall = 'token' | 'api' | 'upload';

const RATE_LIMIT_CODE = 8;
const AUTH_FAILED_CODE = 2;
const AUTHORIZATION_FAILED_CODE = 3;
const BOARD_NOT_FOUND_CODE = 40;
const BOARD_SECTION_NOT_FOUND_CODE = 2031;
const IMAGE_TOO_SMALL_CODE = 233;
const IMAGE_BROKEN_CODE = 235;

/** Retry-After, else x-ratelimit-reset: seconds until the window resets (an epoch time is accepted too). */
function pinterestWaitMs(headers: Headers, now: Date): number {
  if (headers.get('retry-after')) return Math.max(1000, retryAfterMs(headers, now, 60_000));
  const reset = Number.parseFloat(headers.get('x-ratelimit-reset') ?? '');
  if (Number.isFinite(reset) && reset >= 0) {
    const ms = reset > 1e9 ? reset * 1000 - now.getTime() : reset * 1000;
    return Math.max(1000, Math.ceil(ms));
  }
  return 60_000;
}

/**
 * The one place Pinterest's answers get a meaning in the core taxonomy: by HTTP status and
 * Pinterest's numeric `code` (S3's `<Code>` for the upload), never by message text. Messages
 * never contain tokens or signed upload parameters.
 */
export function mapPinterestFailure(outcome: PinterestOutcome, context: FailureContext & { call: PinterestCall }): PlatformError {
  const where = context.call === 'upload' ? "Pinterest's upload storage" : 'Pinterest';
  if (outcome.kind === 'no_response') return new PlatformError('pinterest', { kind: 'transient' }, noResponseMessage(where, outcome, context.timeoutMs));
  if (outcome.kind === 'malformed') {
    // Pinterest may have acted (a Pin may exist): retrying could pin twice, so this is not transient.
    return malformedAnswer('pinterest', 'Pinterest', outcome, 'the board');
  }
  if (outcome.kind === 'media_failed') {
    return new PlatformError('pinterest', { kind: 'invalid_content', code: 'video_processing_failed' },
      `Pinterest could not process the video (media ${outcome.mediaId}); check that it is a valid MP4 or MOV file.`);
  }
  if (outcome.kind === 'upload_response') {
    const code = /<Code>([^<]+)<\/Code>/.exec(outcome.text)?.[1];
    const upstream = { status: outcome.status, ...(code ? { code } : {}) };
    if (code === 'EntityTooLarge') {
      return new PlatformError('pinterest', { kind: 'invalid_content', code: 'video_too_large' }, 'Pinterest refused the video upload: the file is too large.', upstream);
    }
    if (code === 'EntityTooSmall') {
      return new PlatformError('pinterest', { kind: 'invalid_content', code: 'video_empty' }, 'Pinterest refused the video upload: the file is empty.', upstream);
    }
    // A refused or expired upload grant (AccessDenied, ExpiredToken) is cured by a new registration,
    // which a later attempt makes; throttling and S3's own failures pass too.
    if (outcome.status >= 500 || code === 'AccessDenied' || code === 'ExpiredToken' || code === 'RequestTimeout' || code === 'SlowDown') {
      return new PlatformError('pinterest', { kind: 'transient' },
        `Pinterest's upload storage refused the video (HTTP ${outcome.status}${code ? ` ${code}` : ''}); a new attempt registers a new upload.`, upstream);
    }
    return new PlatformError('pinterest', { kind: 'rejected', code: 'upload_refused' },
      `Pinterest's upload storage refused the video (HTTP ${outcome.status}${code ? ` ${code}` : ''}).`, upstream);
  }

  const { status, headers } = outcome;
  const body = isObject(outcome.body) ? outcome.body : {};
  const code = typeof body.code === 'number' ? body.code : undefined;
  const said = typeof body.message === 'string' && body.message ? body.message : `HTTP ${status}`;
  const upstream = { status, ...(code !== undefined ? { code } : {}) };

  if (status === 429 || code === RATE_LIMIT_CODE) {
    return new PlatformError('pinterest', { kind: 'rate_limited', retryAfterMs: pinterestWaitMs(headers, context.now) }, `Pinterest: ${said}`, upstream);
  }
  if (context.call === 'token' && status >= 400 && status < 500) {
    return new PlatformError('pinterest', { kind: 'auth_expired', reason: 'grant_rejected' },
      `Pinterest refused the authorization (${said}); reconnect the Pinterest account (or check the app's client id and secret).`, upstream);
  }
  if (status === 401 || code === AUTH_FAILED_CODE || code === AUTHORIZATION_FAILED_CODE) {
    const reason = code === AUTHORIZATION_FAILED_CODE ? 'scope_missing' : 'token_invalid';
    return new PlatformError('pinterest', { kind: 'auth_expired', reason },
      `Pinterest: ${said}. The access token expired, was revoked or lacks a scope; reconnect the Pinterest account.`, upstream);
  }
  if (code === PINTEREST_VIDEO_NOT_READY_CODE) {
    return new PlatformError('pinterest', { kind: 'transient' }, `Pinterest: ${said}`, upstream);
  }
  if (code === BOARD_NOT_FOUND_CODE) {
    return new PlatformError('pinterest', { kind: 'invalid_content', code: 'board_not_found' },
      `Pinterest: ${said} Check pinterest_board_id (GET /svc/pinterest/boards lists the account's boards).`, upstream);
  }
  if (code === BOARD_SECTION_NOT_FOUND_CODE) {
    return new PlatformError('pinterest', { kind: 'invalid_content', code: 'board_section_not_found' },
      `Pinterest: ${said} Check pinterest_board_section_id.`, upstream);
  }
  if (code === IMAGE_TOO_SMALL_CODE) return new PlatformError('pinterest', { kind: 'invalid_content', code: 'image_too_small' }, `Pinterest: ${said}`, upstream);
  if (code === IMAGE_BROKEN_CODE) return new PlatformError('pinterest', { kind: 'invalid_content', code: 'image_broken' }, `Pinterest: ${said}`, upstream);
  if (status === 403) return new PlatformError('pinterest', { kind: 'rejected', code: 'forbidden' }, `Pinterest: ${said}`, upstream);
  if (status === 409 || status >= 500) {
    return new PlatformError('pinterest', { kind: 'transient' }, `Pinterest is failing (HTTP ${status}); try again later.`, upstream);
  }
  if (status === 400 || status === 413 || status === 422) {
    return new PlatformError('pinterest', { kind: 'invalid_content', code: 'invalid_parameters' }, `Pinterest: ${said}`, upstream);
  }
  return new PlatformError('pinterest', { kind: 'rejected' }, `Pinterest: ${said}`, upstream);
}

export interface PinterestClientOptions {
  apiBase: string;
  clientId: string;
  clientSecret: string;
  timeoutMs: number;
  uploadTimeoutMs: number;
  fetch: typeof fetch;
  now: Now;
}

export type PinterestClient = ReturnType<typeof createPinterestClient>;

export function createPinterestClient(opts: PinterestClientOptions) {
  const { apiBase, timeoutMs } = opts;
  const basic = `Basic ${Buffer.from(`${opts.clientId}:${opts.clientSecret}`).toString('base64')}`;
  const failure = (outcome: PinterestOutcome, call: PinterestCall = 'api', ms = timeoutMs) =>
    mapPinterestFailure(outcome, { call, timeoutMs: ms, now: opts.now() });

  /** One JSON exchange; every failure leaves as a PlatformError from mapPinterestFailure. */
  async function call(
    method: 'GET' | 'POST' | 'DELETE', path: string,
    auth: { token: string } | { basic: true },
    payload: { json: Json } | { form: Record<string, string> } | undefined,
    expect: { what: string; has: (body: Json) => boolean },
    signal?: AbortSignal,
  ): Promise<Json> {
    const headers: Record<string, string> = {
      accept: 'application/json',
      authorization: 'token' in auth ? `Bearer ${auth.token}` : basic,
    };
    let body: string | undefined;
    if (payload && 'json' in payload) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(payload.json);
    } else if (payload) {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(payload.form).toString();
    }
    const kind: PinterestCall = 'basic' in auth ? 'token' : 'api';
    const outcome = await exchangeJson(`${apiBase}${path}`, { method, headers, body }, { fetch: opts.fetch, timeoutMs, signal });
    if (outcome.kind === 'no_response' || outcome.status < 200 || outcome.status >= 300) {
      throw failure(outcome, kind);
    }
    // DELETE answers 204 without a body.
    if (outcome.status === 204 && method === 'DELETE') return {};
    if (!isObject(outcome.body) || !expect.has(outcome.body)) {
      throw failure({ kind: 'malformed', status: outcome.status, what: expect.what }, kind);
    }
    return outcome.body;
  }

  const accessToken = (credentials: PlatformCredentials): string => {
    if (!credentials.access_token) {
      throw new PlatformError('pinterest', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Pinterest credentials have no access token; reconnect the account.');
    }
    return credentials.access_token;
  };

  return { ...opts, failure, call, accessToken };
}
