/**
 * Instagram through the Instagram API with Instagram Login (developers.facebook.com/docs/instagram-platform):
 * Business Login for the account (www.instagram.com/oauth/authorize → api.instagram.com/oauth/access_token →
 * a 60-day token from graph.instagram.com/access_token), then the content-publishing container flow on
 * graph.instagram.com: POST /{ig-id}/media (Meta pulls the media from a public URL) → poll
 * GET /{container}?fields=status_code → POST /{ig-id}/media_publish → GET /{media}?fields=permalink.
 * Containers take a while to process, so publishing is a sequence of `wait` steps, never a sleep.
 *
 * This file: the HTTP client (Graph calls with the token in a header, through the Meta kit) and THE
 * one failure-mapping function, `mapInstagramFailure`.
 */
import { PlatformError, type PlatformFailure } from '../../../core/domain/errors';
import type { PlatformCredentials } from '../../../core/ports/platform';
import { isObject, noResponseMessage, systemNow, trimBase, type HttpExchange, type FailureContext, type Now, malformedAnswer } from '../kit/http';
import type { CommonOptions, OAuthClientOptions } from '../kit/network';
import { createMetaGraphClient, META_RATE_LIMIT_CODES, META_TOKEN_SUBCODE_REASONS, metaRetryAfterMs, readMetaAccount, readMetaGraphError, type MetaGraphClient } from '../kit/meta-graph';

export const INSTAGRAM_API_BASE = 'https://graph.instagram.com';
export const INSTAGRAM_API_VERSION = 'v21.0';
export const INSTAGRAM_AUTHORIZE_URL = 'https://www.instagram.com/oauth/authorize';
export const INSTAGRAM_TOKEN_URL = 'https://api.instagram.com/oauth/access_token';
/** Business Login scopes: profile, publishing, comments (first comments, moderation), messages (private replies) and insights (analytics). */
export const INSTAGRAM_SCOPES = ['instagram_business_basic', 'instagram_business_content_publish', 'instagram_business_manage_comments', 'instagram_business_manage_messages', 'instagram_business_manage_insights'] as const;

const DEFAULT_TIMEOUT_MS = 20_000;
const DEFAULT_RATE_LIMIT_MS = 60_000;
/** Spec restriction pauses. */
const PUBLISH_LIMIT_PAUSE_MS = 30 * 60_000;
const SPAM_PAUSE_MS = 24 * 60 * 60_000;

export interface InstagramPlatformOptions extends CommonOptions, OAuthClientOptions {
  /** graph.instagram.com by default: the Graph API and the long-lived token endpoints. */
  apiBase?: string;
  apiVersion?: string;
  /** https://www.instagram.com/oauth/authorize by default. */
  authorizeUrl?: string;
  /** https://api.instagram.com/oauth/access_token by default (code → short-lived token). */
  tokenUrl?: string;
  /** Delay between container status checks (default 5 s for images, 30 s when a video is involved). */
  pollIntervalMs?: number;
  /** Containers still processing after this long fail the attempt as transient (default 15 min). */
  maxProcessingMs?: number;
}

/** What came back from Instagram, before it is given a meaning. */
export type InstagramOutcome =
  | HttpExchange
  /** A 2xx whose body is not what the call returns. */
  | { kind: 'malformed'; status: number; what: string }
  /** A container ended in ERROR or EXPIRED (`status` carries Meta's detail, often with a 2207xxx code). */
  | { kind: 'container_failed'; statusCode: string; status?: string }
  /** Containers still IN_PROGRESS past the adapter's patience. */
  | { kind: 'processing_timeout'; waitedMs: number }
  /** content_publishing_limit says the 24-hour quota is used up. */
  | { kind: 'quota_exhausted'; usage: number; total: number };

export type InstagramFailureContext = FailureContext & {
  /** STORIES posts are exempt from the spam pause: a spam verdict on a story rejects that post only. */
  mediaType?: string;
  /** The code exchange: a refused code, secret or redirect_uri is an OAuth refusal, whatever its code. */
  stage?: 'connect';
};

/** Meta's 2207xxx publishing subcodes that describe the content, with Herald's error codes. */
const CONTENT_SUBCODES: Record<number, string> = {
  2207004: 'image_too_large',
  2207005: 'unsupported_image_format',
  2207009: 'invalid_aspect_ratio',
  2207010: 'caption_too_long',
  2207023: 'unknown_media_type',
  2207026: 'unsupported_video_format',
  2207028: 'invalid_carousel',
  2207052: 'media_fetch_failed',
  2207057: 'invalid_thumb_offset',
};
/** Subcodes Meta documents as "try again": server errors, download timeouts, expired or unready containers. */
const TRANSIENT_SUBCODES = new Set([2207001, 2207003, 2207008, 2207020, 2207027, 2207032, 2207053]);
/** Meta's throttling headers, read for `estimated_time_to_regain_access`. */
const USAGE_HEADERS = ['x-business-use-case-usage', 'x-app-usage', 'x-ad-account-usage'] as const;
const retryAfter = (headers: Headers): number => metaRetryAfterMs(headers, USAGE_HEADERS, DEFAULT_RATE_LIMIT_MS);

const subcodeIn = (text: string | undefined): number | undefined => {
  const m = /\b(220\d{4})\b/.exec(text ?? '');
  return m ? Number(m[1]) : undefined;
};

/**
 * The one place Instagram's answers get a meaning in the core taxonomy. Graph errors
 * `{error:{message,type,code,error_subcode,is_transient,fbtrace_id}}` are classified by subcode
 * first (2207xxx publishing verdicts share generic codes: spam is code 4, like throttling), then
 * by code, then by HTTP status. The older api.instagram.com shape `{error_type, code, error_message}`
 * only answers the code exchange. Checkpoint: error_subcode 2207050 ("inactive, checkpointed, or
 * restricted") and Graph's 190/459 ("user checkpointed"). Messages never contain tokens.
 */
export function mapInstagramFailure(outcome: InstagramOutcome, context: InstagramFailureContext): PlatformError {
  const fail = (failure: PlatformFailure, message: string, upstream: { status?: number; code?: string | number } = {}) =>
    new PlatformError('instagram', failure, message, upstream);

  switch (outcome.kind) {
    case 'no_response':
      return fail({ kind: 'transient' }, noResponseMessage('Instagram', outcome, context.timeoutMs));
    case 'malformed':
      return malformedAnswer('instagram', 'Instagram', outcome, 'the account');
    case 'container_failed': {
      if (outcome.statusCode === 'EXPIRED') {
        return fail({ kind: 'transient' }, 'Instagram: the media container expired before it was published; a new attempt creates a new one.');
      }
      const subcode = subcodeIn(outcome.status);
      const code = (subcode !== undefined ? CONTENT_SUBCODES[subcode] : undefined) ?? 'media_processing_failed';
      const failure: PlatformFailure = subcode !== undefined && TRANSIENT_SUBCODES.has(subcode) ? { kind: 'transient' } : { kind: 'invalid_content', code };
      return fail(failure, `Instagram could not process the media: ${outcome.status ?? outcome.statusCode}`, { code: subcode ?? outcome.statusCode });
    }
    case 'processing_timeout':
      return fail({ kind: 'transient' }, `Instagram was still processing the media after ${Math.round(outcome.waitedMs / 1000)} s.`);
    case 'quota_exhausted':
      return fail({ kind: 'restricted', reason: 'publish_limit', until: new Date(context.now.getTime() + PUBLISH_LIMIT_PAUSE_MS) },
        `Instagram: the account used ${outcome.usage} of its ${outcome.total} API posts in the last 24 hours.`);
    case 'response':
      break;
  }

  const { status, headers } = outcome;
  const body = isObject(outcome.body) ? outcome.body : {};
  const graphError = readMetaGraphError(body, status, 'Instagram');

  if (!graphError) {
    // api.instagram.com (code exchange) answers {error_type, code, error_message}.
    if (typeof body.error_type === 'string') {
      const said = typeof body.error_message === 'string' ? body.error_message : body.error_type;
      return fail({ kind: 'rejected', code: 'oauth_rejected' }, `Instagram refused the authorization: ${said}`, { status, code: body.error_type });
    }
    if (status === 429) return fail({ kind: 'rate_limited', retryAfterMs: retryAfter(headers) }, 'Instagram: too many requests.', { status });
    if (status >= 500) return fail({ kind: 'transient' }, `Instagram is failing (HTTP ${status}); try again later.`, { status });
    return fail({ kind: 'rejected' }, `Instagram answered HTTP ${status}.`, { status });
  }

  const { error, code, subcode, detail, said, upstream } = graphError;

  if (subcode === 2207050 || (code === 190 && subcode === 459)) {
    return fail({ kind: 'checkpoint' }, `${said}. Sign in to the Instagram app and complete what it asks, then try again.`, upstream);
  }
  if (subcode === 2207042 || code === 9) {
    return fail({ kind: 'restricted', reason: 'publish_limit', until: new Date(context.now.getTime() + PUBLISH_LIMIT_PAUSE_MS) }, said, upstream);
  }
  if (subcode === 2207051 || code === 368) {
    if (context.mediaType === 'STORIES') return fail({ kind: 'rejected', code: 'spam_restricted' }, said, upstream);
    return fail({ kind: 'restricted', reason: 'spam_restricted', until: new Date(context.now.getTime() + SPAM_PAUSE_MS) }, said, upstream);
  }
  if (code === 190 || code === 102) {
    const reason = META_TOKEN_SUBCODE_REASONS[subcode] ?? 'token_invalid';
    return fail({ kind: 'auth_expired', reason }, `${said}. Reconnect the Instagram account.`, upstream);
  }
  if (META_RATE_LIMIT_CODES.has(code) || status === 429) {
    return fail({ kind: 'rate_limited', retryAfterMs: retryAfter(headers) }, said, upstream);
  }
  if (context.stage === 'connect' && status < 500) return fail({ kind: 'rejected', code: 'oauth_rejected' }, `Instagram refused the authorization: ${detail}`, upstream);
  if (code === 10 || (code >= 200 && code <= 299)) {
    return fail({ kind: 'rejected', code: 'permission_denied' }, `${said}. The connection lacks a permission; reconnect the account.`, upstream);
  }
  if (CONTENT_SUBCODES[subcode]) return fail({ kind: 'invalid_content', code: CONTENT_SUBCODES[subcode] }, said, upstream);
  if (TRANSIENT_SUBCODES.has(subcode) || code === 1 || code === 2 || error.is_transient === true || status >= 500) {
    return fail({ kind: 'transient' }, said, upstream);
  }
  if (code === 100 && subcode === 33) return fail({ kind: 'rejected', code: 'not_found' }, said, upstream);
  if (code === 100) return fail({ kind: 'invalid_content', code: 'invalid_parameter' }, said, upstream);
  return fail({ kind: 'rejected' }, said, upstream);
}

export function invalid(message: string, code?: string): PlatformError {
  return new PlatformError('instagram', { kind: 'invalid_content', ...(code ? { code } : {}) }, message);
}

/** What the capabilities share: the options resolved, the Graph client and the stored account. */
export interface InstagramClient {
  opts: InstagramPlatformOptions;
  timeoutMs: number;
  now: Now;
  meta: MetaGraphClient<Omit<InstagramFailureContext, 'timeoutMs' | 'now'>>;
  /** The failure mapping with this client's timeout and the clock's time. */
  fail(outcome: InstagramOutcome, ctx?: Omit<InstagramFailureContext, 'timeoutMs' | 'now'>): PlatformError;
  /** The stored token and Instagram user id; missing ones are auth_expired. */
  account(credentials: PlatformCredentials): { token: string; igUserId: string };
}

export function createInstagramClient(opts: InstagramPlatformOptions): InstagramClient {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const now = opts.now ?? systemNow;
  const fail: InstagramClient['fail'] = (outcome, ctx = {}) => mapInstagramFailure(outcome, { timeoutMs, now: now(), ...ctx });
  const meta = createMetaGraphClient<Omit<InstagramFailureContext, 'timeoutMs' | 'now'>>({
    apiBase: trimBase(opts.apiBase ?? INSTAGRAM_API_BASE), apiVersion: opts.apiVersion ?? INSTAGRAM_API_VERSION,
    timeoutMs, fetch: opts.fetch ?? fetch, baseCtx: {}, now, fail,
  });
  return {
    opts, timeoutMs, now, meta, fail,
    account(credentials) {
      const { token, userId } = readMetaAccount(credentials, 'instagram', 'Instagram', 'ig_user_id');
      return { token, igUserId: userId };
    },
  };
}
