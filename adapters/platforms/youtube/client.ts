/**
 * YouTube's HTTP side: the Data API JSON calls, the resumable upload sessions, and the one place
 * Google's answers get a meaning in the core taxonomy (`mapYoutubeFailure`).
 */
import { PlatformError } from '../../../core/domain/errors';
import type { CallContext, PublishContext } from '../../../core/ports/platform';
import { msUntilPacificMidnight, readGoogleApiError, readGoogleOAuthError } from '../kit/google';
import { exchangeJson, isObject, noResponseMessage, retryAfterMs, type HttpExchange, type Json, type FailureContext, type Now, malformedAnswer } from '../kit/http';

/** Spec restriction pauses: `daily_upload_limit` 2 h then retried, `permission_denied` 24 h. */
export const YOUTUBE_DAILY_LIMIT_PAUSE_MS = 2 * 3600_000;
export const YOUTUBE_PERMISSION_PAUSE_MS = 24 * 3600_000;
/** When a throttled answer carries no Retry-After. */
const DEFAULT_RETRY_AFTER_MS = 60_000;

/** What came back from Google, before it is given a meaning. */
export type YoutubeOutcome =
  | HttpExchange
  /** A 2xx whose body is not what the call returns. */
  | { kind: 'malformed'; status: number; what: string }
  /** videos.list says processing ended badly (status.uploadStatus failed / rejected / deleted). */
  | { kind: 'processing'; uploadStatus: string; reason?: string };

const snake = (reason: string) => reason.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/**
 * The one place Google's answers get a meaning in the core taxonomy: by HTTP status, the Data
 * API's `error.errors[0].reason` and the OAuth endpoint's `error` code, never by message text.
 * Messages never contain tokens.
 */
export function mapYoutubeFailure(outcome: YoutubeOutcome, context: FailureContext & { dailyLimitPauseMs?: number }): PlatformError {
  const { now } = context;
  const fail = (failure: PlatformError['failure'], message: string, upstream: PlatformError['upstream'] = {}) =>
    new PlatformError('youtube', failure, message, upstream);

  if (outcome.kind === 'no_response') return fail({ kind: 'transient' }, noResponseMessage('YouTube', outcome, context.timeoutMs));
  if (outcome.kind === 'malformed') {
    return malformedAnswer('youtube', 'YouTube', outcome, 'the channel');
  }
  if (outcome.kind === 'processing') {
    const why = outcome.reason ? ` (${outcome.reason})` : '';
    const upstream = { code: outcome.reason ?? outcome.uploadStatus };
    if (outcome.uploadStatus === 'failed') {
      return fail({ kind: 'invalid_content', code: 'video_processing_failed' }, `YouTube could not process the video${why}.`, upstream);
    }
    if (outcome.uploadStatus === 'rejected') return fail({ kind: 'rejected', code: 'video_rejected' }, `YouTube rejected the video${why}.`, upstream);
    return fail({ kind: 'rejected', code: 'video_deleted' }, 'The video was deleted on YouTube while it was processing.', upstream);
  }

  const { status, headers } = outcome;
  const retryAfter = () => retryAfterMs(headers, now, DEFAULT_RETRY_AFTER_MS);

  const oauth = readGoogleOAuthError(outcome.body);
  if (oauth) {
    const { code } = oauth;
    const said = `Google: ${oauth.description ?? code}`;
    const upstream = { status, code };
    if (code === 'invalid_grant') {
      return fail({ kind: 'auth_expired', reason: 'invalid_grant' }, `${said}. The YouTube authorization expired or was revoked; reconnect the account.`, upstream);
    }
    if (code === 'invalid_client' || code === 'unauthorized_client') {
      return fail({ kind: 'rejected', code: 'oauth_client_invalid' }, `${said}. Check the YouTube client id and secret.`, upstream);
    }
    if (status === 429) return fail({ kind: 'rate_limited', retryAfterMs: retryAfter() }, said, upstream);
    if (status >= 500) return fail({ kind: 'transient' }, `Google sign-in is failing (HTTP ${status}); try again later.`, upstream);
    return fail({ kind: 'rejected', code: `oauth_${code}` }, said, upstream);
  }

  const { reason, message } = readGoogleApiError(outcome.body, status);
  const said = `YouTube: ${message}`;
  const upstream = { status, code: reason };

  switch (reason) {
    case 'quotaExceeded':
      // The project's daily Data API quota resets at midnight Pacific time.
      return fail({ kind: 'rate_limited', retryAfterMs: msUntilPacificMidnight(now) }, `${said} The daily quota resets at midnight Pacific time.`, upstream);
    case 'rateLimitExceeded':
    case 'userRateLimitExceeded':
    case 'uploadRateLimitExceeded':
      return fail({ kind: 'rate_limited', retryAfterMs: retryAfter() }, said, upstream);
    case 'uploadLimitExceeded':
      return fail({
        kind: 'restricted', reason: 'daily_upload_limit', code: 'youtube_channel_daily_limit', retryAfterPause: true,
        until: new Date(now.getTime() + (context.dailyLimitPauseMs ?? YOUTUBE_DAILY_LIMIT_PAUSE_MS)),
      },
        `${said} The channel reached its daily upload limit; it is paused for 2 hours, then retried.`, upstream);
    case 'forbidden':
    case 'insufficientPermissions':
      return fail({ kind: 'restricted', reason: 'permission_denied', until: new Date(now.getTime() + YOUTUBE_PERMISSION_PAUSE_MS) },
        `${said} The channel does not allow this; it is paused for 24 hours.`, upstream);
    case 'youtubeSignupRequired':
      return fail({ kind: 'rejected', code: 'youtube_channel_required' }, `${said} The Google account has no YouTube channel yet.`, upstream);
    case 'commentsDisabled':
      return fail({ kind: 'rejected', code: 'comments_disabled' }, said, upstream);
    case 'backendError':
      return fail({ kind: 'transient' }, `YouTube is failing (HTTP ${status}); try again later.`, upstream);
    default:
      break;
  }
  if (status === 401 || reason === 'authError') {
    return fail({ kind: 'auth_expired', reason: 'token_invalid' }, `${said}. The YouTube token expired or was revoked.`, upstream);
  }
  if (status === 429) return fail({ kind: 'rate_limited', retryAfterMs: retryAfter() }, said, upstream);
  if (status >= 500) return fail({ kind: 'transient' }, `YouTube is failing (HTTP ${status}); try again later.`, upstream);
  if (status === 400 && reason && /^(invalid|mediaBody|contentRequired)/.test(reason)) {
    return fail({ kind: 'invalid_content', code: snake(reason) }, said, upstream);
  }
  return fail({ kind: 'rejected', ...(reason ? { code: snake(reason) } : {}) }, said, upstream);
}

/** Where a resumable session stands after a PUT. */
export type Range = { kind: 'complete'; body: Json } | { kind: 'incomplete'; received: number } | { kind: 'failed'; outcome: HttpExchange };

export interface YoutubeClientOptions {
  apiBase: string;
  timeoutMs: number;
  uploadTimeoutMs: number;
  fetch: typeof fetch;
  now: Now;
  /** How long a channel over its daily upload limit is paused before its post is retried. Default 2 h (spec). */
  dailyLimitPauseMs?: number;
}

export type YoutubeClient = ReturnType<typeof createYoutubeClient>;

export function createYoutubeClient(opts: YoutubeClientOptions) {
  const { apiBase, timeoutMs, uploadTimeoutMs, now } = opts;
  const apiOrigin = new URL(apiBase).origin;
  const doFetch = opts.fetch;

  const failure = (outcome: YoutubeOutcome, ms = timeoutMs) => mapYoutubeFailure(outcome, { timeoutMs: ms, now: now(), ...(opts.dailyLimitPauseMs !== undefined ? { dailyLimitPauseMs: opts.dailyLimitPauseMs } : {}) });

  function tokenOf(ctx: CallContext): string {
    const token = ctx.credentials.access_token;
    if (!token) throw new PlatformError('youtube', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored YouTube credentials are incomplete; reconnect the account.');
    return token;
  }

  /** One Data API JSON call; any non-2xx leaves as a PlatformError; 204 (deletes, moderation) is an empty object. */
  async function api(token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, payload?: Json, signal?: AbortSignal): Promise<Json> {
    const outcome = await exchangeJson(`${apiBase}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(payload ? { 'content-type': 'application/json; charset=UTF-8' } : {}) },
      body: payload ? JSON.stringify(payload) : undefined,
    }, { fetch: doFetch, timeoutMs, signal });
    if (outcome.kind === 'no_response' || outcome.status < 200 || outcome.status >= 300) throw failure(outcome);
    // Deletes and moderation answer 204 without a body.
    if (outcome.status === 204) return {};
    if (!isObject(outcome.body)) throw failure({ kind: 'malformed', status: outcome.status, what: 'a JSON body' });
    return outcome.body;
  }

  /** Opens an upload session (videos, captions); nothing is stored by YouTube until its bytes arrive. */
  async function openSession(ctx: PublishContext, path: string, resource: Json, size: number, contentType: string): Promise<string> {
    const outcome = await exchangeJson(`${apiBase}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${tokenOf(ctx)}`,
        'content-type': 'application/json; charset=UTF-8',
        'x-upload-content-length': String(size),
        'x-upload-content-type': contentType,
      },
      body: JSON.stringify(resource),
    }, { fetch: doFetch, timeoutMs, signal: ctx.signal });
    if (outcome.kind === 'no_response' || outcome.status !== 200) throw failure(outcome);
    const location = outcome.headers.get('location');
    let session: URL | undefined;
    try {
      session = location ? new URL(location, apiBase) : undefined;
    } catch { /* answered below */ }
    // The bearer token goes with every PUT: only to the API's own host.
    if (!session || session.origin !== apiOrigin) throw failure({ kind: 'malformed', status: outcome.status, what: 'an upload session URI on the API host' });
    return session.toString();
  }

  /** Sends bytes [start, start + bytes.length) of `total`, or without bytes asks the session what it holds. */
  async function sendRange(ctx: PublishContext, session: string, total: number, contentType: string, part?: { start: number; bytes: Buffer }): Promise<Range> {
    const headers: Record<string, string> = { authorization: `Bearer ${tokenOf(ctx)}` };
    if (part) {
      headers['content-type'] = contentType;
      headers['content-range'] = `bytes ${part.start}-${part.start + part.bytes.length - 1}/${total}`;
    } else {
      headers['content-range'] = `bytes */${total}`;
    }
    // 308 here is "Resume Incomplete", not a redirect.
    const outcome = await exchangeJson(session, { method: 'PUT', headers, body: part ? part.bytes : undefined, redirect: 'manual' },
      { fetch: doFetch, timeoutMs: uploadTimeoutMs, signal: ctx.signal });
    if (outcome.kind === 'no_response') return { kind: 'failed', outcome };
    if (outcome.status === 200 || outcome.status === 201) {
      if (!isObject(outcome.body)) throw failure({ kind: 'malformed', status: outcome.status, what: 'the created resource' });
      return { kind: 'complete', body: outcome.body };
    }
    if (outcome.status === 308) {
      const last = /bytes=\d+-(\d+)/.exec(outcome.headers.get('range') ?? '')?.[1];
      return { kind: 'incomplete', received: last === undefined ? 0 : Number(last) + 1 };
    }
    return { kind: 'failed', outcome };
  }

  return { apiBase, timeoutMs, uploadTimeoutMs, fetch: doFetch, now, failure, tokenOf, api, openSession, sendRange };
}
