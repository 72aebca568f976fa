/**
 * Threads through the Threads API (developers.facebook.com/docs/threads): OAuth at
 * threads.net/oauth/authorize → graph.threads.net/oauth/access_token → a 60-day token from
 * /access_token (th_exchange_token), renewed with /refresh_access_token (th_refresh_token). Posts are
 * containers: POST /{uid}/threads (Meta pulls media from public URLs) → GET /{container}?fields=status
 * → POST /{uid}/threads_publish → GET /{id}?fields=permalink. More than 20 files, or an explicit
 * threads_thread_media_layout, become a thread: each post a reply to the one before.
 *
 * This file: the HTTP client (Graph calls through the Meta kit) and THE one failure-mapping
 * function, `mapThreadsFailure`.
 */
import { PlatformError, type PlatformFailure } from '../../../core/domain/errors';
import type { PlatformCredentials } from '../../../core/ports/platform';
import { isObject, noResponseMessage, systemNow, trimBase, type HttpExchange, type Json, type FailureContext, type Now, malformedAnswer } from '../kit/http';
import type { CommonOptions, OAuthClientOptions } from '../kit/network';
import { createMetaGraphClient, META_RATE_LIMIT_CODES, META_TOKEN_SUBCODE_REASONS, metaRetryAfterMs, readMetaAccount, readMetaGraphError, type MetaGraphClient } from '../kit/meta-graph';

export const THREADS_API_BASE = 'https://graph.threads.net';
export const THREADS_API_VERSION = 'v1.0';
export const THREADS_AUTHORIZE_URL = 'https://threads.net/oauth/authorize';
export const THREADS_SCOPES = ['threads_basic', 'threads_content_publish', 'threads_manage_replies', 'threads_read_replies', 'threads_manage_insights'] as const;

const DEFAULT_TIMEOUT_MS = 20_000;
const DEFAULT_RATE_LIMIT_MS = 60_000;
/** No reset time comes with the 24-hour publishing quota: try again in an hour. */
const QUOTA_RETRY_MS = 60 * 60_000;

export interface ThreadsPlatformOptions extends CommonOptions, OAuthClientOptions {
  /** graph.threads.net by default: the Graph API, the token exchange and the refresh. */
  apiBase?: string;
  apiVersion?: string;
  /** https://threads.net/oauth/authorize by default. */
  authorizeUrl?: string;
  /** Delay between container status checks (default 30 s). */
  pollIntervalMs?: number;
  /** A post's containers still processing after this long fail the attempt as transient (default 10 min). */
  maxProcessingMs?: number;
}

/** What came back from Threads, before it is given a meaning. */
export type ThreadsOutcome =
  | HttpExchange
  | { kind: 'malformed'; status: number; what: string }
  /** A container ended in ERROR (with Threads' error_message, e.g. FAILED_DOWNLOADING_VIDEO) or EXPIRED. */
  | { kind: 'container_failed'; status: string; errorMessage?: string }
  | { kind: 'processing_timeout'; waitedMs: number }
  /** threads_publishing_limit says the 24-hour quota of posts or replies is used up. */
  | { kind: 'quota_exhausted'; what: 'posts' | 'replies'; usage: number; total: number };

/** Threads' waits are relative (Retry-After seconds, usage-header minutes, fixed quota waits): `now` goes unread. */
export type ThreadsFailureContext = FailureContext & {
  /** The code exchange: a refused code, secret or redirect_uri is an OAuth refusal, whatever its code. */
  stage?: 'connect';
};

/** X-Business-Use-Case-Usage / X-App-Usage `estimated_time_to_regain_access` (minutes), else Retry-After. */
const USAGE_HEADERS = ['x-business-use-case-usage', 'x-app-usage'] as const;
const retryAfter = (headers: Headers): number => metaRetryAfterMs(headers, USAGE_HEADERS, DEFAULT_RATE_LIMIT_MS);

/**
 * The one place Threads' answers get a meaning in the core taxonomy. Threads answers in the Graph
 * shape `{error:{message,type,code,error_subcode,is_transient,fbtrace_id}}`: classified by
 * code/subcode, then HTTP status. Checkpoint is Graph's 190 with subcode 459 ("user checkpointed"),
 * tested before the other 190s. Messages never contain tokens.
 */
export function mapThreadsFailure(outcome: ThreadsOutcome, context: ThreadsFailureContext): PlatformError {
  const { timeoutMs } = context;
  const fail = (failure: PlatformFailure, message: string, upstream: { status?: number; code?: string | number } = {}) =>
    new PlatformError('threads', failure, message, upstream);

  switch (outcome.kind) {
    case 'no_response':
      return fail({ kind: 'transient' }, noResponseMessage('Threads', outcome, timeoutMs));
    case 'malformed':
      return malformedAnswer('threads', 'Threads', outcome, 'the profile');
    case 'container_failed':
      if (outcome.status === 'EXPIRED') return fail({ kind: 'transient' }, 'Threads: the media container expired before it was published; a new attempt creates a new one.');
      return fail({ kind: 'invalid_content', code: (outcome.errorMessage ?? 'media_processing_failed').toLowerCase() },
        `Threads could not process the media: ${outcome.errorMessage ?? 'UNKNOWN'}`, { code: outcome.errorMessage });
    case 'processing_timeout':
      return fail({ kind: 'transient' }, `Threads was still processing the media after ${Math.round(outcome.waitedMs / 1000)} s.`);
    case 'quota_exhausted':
      return fail({ kind: 'rate_limited', retryAfterMs: QUOTA_RETRY_MS },
        `Threads: the profile used ${outcome.usage} of its ${outcome.total} API ${outcome.what} in the last 24 hours.`);
    case 'response':
      break;
  }

  const { status, headers } = outcome;
  const body = isObject(outcome.body) ? outcome.body : {};
  const graphError = readMetaGraphError(body, status, 'Threads');
  if (!graphError) {
    if (status === 429) return fail({ kind: 'rate_limited', retryAfterMs: retryAfter(headers) }, 'Threads: too many requests.', { status });
    if (status >= 500) return fail({ kind: 'transient' }, `Threads is failing (HTTP ${status}); try again later.`, { status });
    return fail({ kind: 'rejected' }, `Threads answered HTTP ${status}.`, { status });
  }
  const { error, code, subcode, detail, said, upstream } = graphError;

  if (code === 190 && subcode === 459) {
    return fail({ kind: 'checkpoint' }, `${said}. Sign in to Threads or Instagram and complete what it asks, then try again.`, upstream);
  }
  if (code === 190 || code === 102) {
    return fail({ kind: 'auth_expired', reason: META_TOKEN_SUBCODE_REASONS[subcode] ?? 'token_invalid' }, `${said}. Reconnect the Threads account.`, upstream);
  }
  // Code 9 is the 24-hour publishing limit: no reset time comes with it.
  if (code === 9) return fail({ kind: 'rate_limited', retryAfterMs: QUOTA_RETRY_MS }, said, upstream);
  if (META_RATE_LIMIT_CODES.has(code) || status === 429) return fail({ kind: 'rate_limited', retryAfterMs: retryAfter(headers) }, said, upstream);
  if (context.stage === 'connect' && status < 500) return fail({ kind: 'rejected', code: 'oauth_rejected' }, `Threads refused the authorization: ${detail}`, upstream);
  if (code === 10 || (code >= 200 && code <= 299)) {
    return fail({ kind: 'rejected', code: 'permission_denied' }, `${said}. The connection lacks a permission; reconnect the account.`, upstream);
  }
  // 9007: the container is not ready to publish yet.
  if (code === 1 || code === 2 || code === 9007 || error.is_transient === true || status >= 500) return fail({ kind: 'transient' }, said, upstream);
  if (code === 100 && subcode === 33) return fail({ kind: 'rejected', code: 'not_found' }, said, upstream);
  if (code === 100) return fail({ kind: 'invalid_content', code: 'invalid_parameter' }, said, upstream);
  return fail({ kind: 'rejected' }, said, upstream);
}

export function invalid(message: string, code?: string): PlatformError {
  return new PlatformError('threads', { kind: 'invalid_content', ...(code ? { code } : {}) }, message);
}

/** What the capabilities share: the options resolved, the Graph client and the stored profile. */
export interface ThreadsClient {
  opts: ThreadsPlatformOptions;
  apiBase: string;
  now: Now;
  meta: MetaGraphClient<{ stage?: 'connect' }>;
  /** A Graph call with the token in a header (POST parameters as a form). */
  graphCall(method: 'GET' | 'POST', path: string, params: Record<string, string>, token: string, what: string, signal?: AbortSignal): Promise<Json>;
  /** The failure mapping with this client's timeout. */
  fail(outcome: ThreadsOutcome): PlatformError;
  /** The stored token and Threads user id; missing ones are auth_expired. */
  account(credentials: PlatformCredentials): { token: string; userId: string };
}

export function createThreadsClient(opts: ThreadsPlatformOptions): ThreadsClient {
  const apiBase = trimBase(opts.apiBase ?? THREADS_API_BASE);
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const now = opts.now ?? systemNow;
  const meta = createMetaGraphClient<{ stage?: 'connect' }>({
    apiBase, apiVersion: opts.apiVersion ?? THREADS_API_VERSION, timeoutMs, fetch: opts.fetch ?? fetch, baseCtx: {}, now,
    fail: (outcome, { stage }) => mapThreadsFailure(outcome, { timeoutMs, now: now(), stage }),
  });
  return {
    opts, apiBase, now, meta,
    graphCall: (method, path, params, token, what, signal) => meta.graphCall(method, path, params, token, what, {}, signal),
    fail: (outcome) => mapThreadsFailure(outcome, { timeoutMs, now: now() }),
    account: (credentials) => readMetaAccount(credentials, 'threads', 'Threads', 'threads_user_id'),
  };
}
