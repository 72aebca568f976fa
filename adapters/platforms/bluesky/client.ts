/**
 * XRPC as the adapter uses it (on the account's PDS and on the video service), and THE one place
 * Bluesky's answers get a meaning (mapBlueskyFailure).
 */
import { PlatformError, type PlatformFailure } from '../../../core/domain/errors';
import {
  exchangeJson, isObject, noResponseMessage, resetHeaderMs, retryAfterMs, str, type HttpExchange, type Json, type FailureContext, type Now, malformedAnswer} from '../kit/http';

export const BLUESKY_SERVICE = 'https://bsky.social';
export const BLUESKY_VIDEO_BASE = 'https://video.bsky.app';
export const BLUESKY_VIDEO_SERVICE_DID = 'did:web:video.bsky.app';
export const BLUESKY_APP_URL = 'https://bsky.app';
export const DEFAULT_TIMEOUT_MS = 15_000;
export const DEFAULT_UPLOAD_TIMEOUT_MS = 300_000;

/** The video service's daily quota publishes no reset time; ask again after an hour. */
const VIDEO_DAILY_LIMIT_RETRY_MS = 60 * 60_000;

/** What came back from Bluesky, before it is given a meaning. */
export type BlueskyOutcome =
  | HttpExchange
  /** A 2xx whose body is not what the method returns. */
  | { kind: 'malformed'; status: number; what: string }
  /** The video service's verdict inside a job status (JOB_STATE_FAILED, or `error` on upload). */
  | { kind: 'video_job'; error?: string; failureCode?: string; message?: string }
  /** getUploadLimits said no (daily quota, unconfirmed email, not allowed). */
  | { kind: 'upload_limits'; limits: Json; videoBytes: number }
  /** Still processing after the configured maximum. */
  | { kind: 'video_stalled'; jobId: string; waitedMs: number }
  /** The stored refresh JWT is past its expiry: only a new app-password login helps. */
  | { kind: 'refresh_expired' };

/** The PDS sends RateLimit-Reset (epoch seconds); other services may send Retry-After. At least 1 s. */
function blueskyRetryAfterMs(headers: Headers, now: Date): number {
  return resetHeaderMs(headers, 'ratelimit-reset', now) ?? Math.max(1000, retryAfterMs(headers, now, 60_000));
}

/** Why a video job failed, by the service's machine-readable codes. */
function videoFailure(error: string | undefined, failureCode: string | undefined): PlatformFailure {
  if (error === 'unconfirmed_email') return { kind: 'invalid_content', code: 'unconfirmed_email' };
  switch (failureCode) {
    case 'validation_failure':
    case 'encoding_failure': return { kind: 'invalid_content', code: 'video_rejected' };
    case 'pds_upload_unsupported_blob_size': return { kind: 'invalid_content', code: 'media_too_large' };
    default: return { kind: 'transient' };
  }
}

/**
 * The one place Bluesky's answers get a meaning in the core taxonomy: by HTTP status and the XRPC
 * `error` name (or the video service's `error` / `failureCode`), never by message text. Messages
 * never contain tokens or passwords.
 */
export function mapBlueskyFailure(outcome: BlueskyOutcome, context: FailureContext): PlatformError {
  const { timeoutMs, now } = context;
  const fail = (failure: PlatformFailure, message: string, upstream: { status?: number; code?: string } = {}) =>
    new PlatformError('bluesky', failure, message, upstream);

  switch (outcome.kind) {
    case 'no_response':
      return fail({ kind: 'transient' }, noResponseMessage('Bluesky', outcome, timeoutMs));
    case 'malformed':
      // Bluesky may have acted on the request: retrying could post twice, so this is not transient.
      return malformedAnswer('bluesky', 'Bluesky', outcome, 'the account');
    case 'video_job': {
      const said = outcome.message ?? outcome.error ?? outcome.failureCode ?? 'the video could not be processed';
      const failure = videoFailure(outcome.error, outcome.failureCode);
      const hint = outcome.error === 'unconfirmed_email' ? ' Bluesky accepts videos only from accounts with a verified email: verify it in Bluesky settings.' : '';
      return fail(failure, `Bluesky video service: ${said}.${hint}`, { code: outcome.error ?? outcome.failureCode });
    }
    case 'upload_limits': {
      const { limits } = outcome;
      const said = str(limits.message) ?? str(limits.error) ?? 'video uploads are not allowed right now';
      if (limits.error === 'unconfirmed_email') {
        return fail({ kind: 'invalid_content', code: 'unconfirmed_email' },
          `Bluesky video service: ${said}. Bluesky accepts videos only from accounts with a verified email.`, { code: 'unconfirmed_email' });
      }
      const videosLeft = typeof limits.remainingDailyVideos === 'number' ? limits.remainingDailyVideos : undefined;
      const bytesLeft = typeof limits.remainingDailyBytes === 'number' ? limits.remainingDailyBytes : undefined;
      if ((videosLeft !== undefined && videosLeft < 1) || (bytesLeft !== undefined && bytesLeft < outcome.videoBytes)) {
        return fail({ kind: 'rate_limited', retryAfterMs: VIDEO_DAILY_LIMIT_RETRY_MS },
          `Bluesky's daily video upload limit is reached (${videosLeft ?? '?'} videos, ${bytesLeft ?? '?'} bytes left): ${said}.`, { code: 'daily_video_limit' });
      }
      return fail({ kind: 'rejected', code: 'video_upload_not_allowed' }, `Bluesky video service: ${said}.`, { code: str(limits.error) });
    }
    case 'video_stalled':
      return fail({ kind: 'transient' },
        `Bluesky was still processing video job ${outcome.jobId} after ${Math.round(outcome.waitedMs / 1000)} s.`);
    case 'refresh_expired':
      return fail({ kind: 'auth_expired', reason: 'refresh_token_expired' },
        'The Bluesky session expired (refresh tokens last about two months); reconnect the account with an app password.');
    case 'response':
      break;
  }

  const { status, headers } = outcome;
  const body = isObject(outcome.body) ? outcome.body : {};
  const job = isObject(body.jobStatus) ? body.jobStatus : {};
  const code = str(body.error) ?? str(job.error);
  const said = `Bluesky: ${str(body.message) ?? str(job.message) ?? code ?? `HTTP ${status}`}`;
  const upstream = { status, code };

  if (status === 429 || code === 'RateLimitExceeded') {
    return fail({ kind: 'rate_limited', retryAfterMs: blueskyRetryAfterMs(headers, now) }, said, upstream);
  }
  switch (code) {
    case 'ExpiredToken':
      return fail({ kind: 'auth_expired', reason: 'token_expired' }, said, upstream);
    case 'InvalidToken':
      return fail({ kind: 'auth_expired', reason: 'token_invalid' }, `${said}. Reconnect the account with an app password.`, upstream);
    case 'AuthenticationRequired':
    case 'AuthMissing':
      return fail({ kind: 'auth_expired', reason: 'authentication_required' }, `${said}. Reconnect the account with an app password.`, upstream);
    case 'AuthFactorTokenRequired':
      return fail({ kind: 'rejected', code: 'auth_factor_required' },
        `${said}. The account asks for an email sign-in code: connect with an app password (Settings → Privacy and security → App passwords).`, upstream);
    case 'AccountTakedown':
    case 'AccountDeactivated':
    case 'AccountSuspended':
      return fail({ kind: 'rejected', code: code === 'AccountTakedown' ? 'account_takedown' : 'account_inactive' }, said, upstream);
    case 'unconfirmed_email':
      return fail({ kind: 'invalid_content', code: 'unconfirmed_email' },
        `${said}. Bluesky accepts videos only from accounts with a verified email: verify it in Bluesky settings.`, upstream);
    case 'BlobTooLarge':
    case 'PayloadTooLarge':
      return fail({ kind: 'invalid_content', code: 'media_too_large' }, said, upstream);
    case 'InvalidMimeType':
      return fail({ kind: 'invalid_content', code: 'media_type_unsupported' }, said, upstream);
    case 'RecordNotFound':
      return fail({ kind: 'invalid_content', code: 'record_not_found' }, said, upstream);
  }
  if (status === 401) return fail({ kind: 'auth_expired', reason: 'authentication_required' }, said, upstream);
  if (status === 413) return fail({ kind: 'invalid_content', code: 'media_too_large' }, said, upstream);
  if (status >= 500) return fail({ kind: 'transient' }, `Bluesky is failing (HTTP ${status}${code ? ` ${code}` : ''}); try again later.`, upstream);
  if (status === 400) return fail({ kind: 'invalid_content' }, said, upstream);
  return fail({ kind: 'rejected', code }, said, upstream);
}

export interface XrpcCall {
  method: 'GET' | 'POST';
  query?: Record<string, string>;
  json?: Json;
  bytes?: { data: Buffer; contentType: string };
  token?: string;
  signal?: AbortSignal;
  /** Answers that are not failures even without a 2xx (the video service's already_exists). */
  accept?: (status: number, body: unknown) => boolean;
}

export interface BlueskyClientOptions {
  timeoutMs: number;
  /** Byte uploads (images, video). */
  uploadTimeoutMs: number;
  fetch: typeof fetch;
  now: Now;
}

export interface BlueskyClient {
  readonly timeoutMs: number;
  readonly uploadTimeoutMs: number;
  readonly now: Now;
  /** One XRPC call on `base`; every failure leaves as a PlatformError from mapBlueskyFailure. */
  xrpc(base: string, nsid: string, call: XrpcCall): Promise<{ status: number; body: Json }>;
  /** mapBlueskyFailure with this client's clock. */
  failure(outcome: BlueskyOutcome, timeoutMs?: number): PlatformError;
}

export function createBlueskyClient(opts: BlueskyClientOptions): BlueskyClient {
  const { timeoutMs, uploadTimeoutMs, now } = opts;
  const failure = (outcome: BlueskyOutcome, limit = timeoutMs) => mapBlueskyFailure(outcome, { timeoutMs: limit, now: now() });
  return {
    timeoutMs,
    uploadTimeoutMs,
    now,
    failure,
    async xrpc(base, nsid, call) {
      const query = call.query ? `?${new URLSearchParams(call.query)}` : '';
      const headers: Record<string, string> = { accept: 'application/json' };
      if (call.token) headers.authorization = `Bearer ${call.token}`;
      if (call.json) headers['content-type'] = 'application/json';
      if (call.bytes) headers['content-type'] = call.bytes.contentType;
      const limit = call.bytes ? uploadTimeoutMs : timeoutMs;
      const outcome = await exchangeJson(`${base}/xrpc/${nsid}${query}`, {
        method: call.method,
        headers,
        body: call.json ? JSON.stringify(call.json) : call.bytes ? call.bytes.data : undefined,
      }, { fetch: opts.fetch, timeoutMs: limit, signal: call.signal });
      if (outcome.kind === 'no_response') throw failure(outcome, limit);
      const { status, body } = outcome;
      const ok = status >= 200 && status < 300;
      if (!(ok || call.accept?.(status, body))) throw failure(outcome, limit);
      if (!isObject(body)) throw failure({ kind: 'malformed', status, what: `a JSON answer to ${nsid}` }, limit);
      return { status, body };
    },
  };
}
