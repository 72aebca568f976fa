/**
 * The closed error taxonomy of the core. Use cases throw `HeraldError`; the API layer maps
 * `kind` to an HTTP status in one place and copies `errorCode` and `details` into the body.
 */
import { networkCode, type CodeWithStatus, type ErrorCode, type HttpStatus } from './error-codes';

export type HeraldErrorKind =
  | 'invalid_input' // 400
  | 'unauthenticated' // 401
  | 'forbidden' // 403
  | 'not_found' // 404
  | 'conflict' // 409
  | 'too_many_requests' // 429
  | 'platform_rejected' // 502
  | 'unavailable' // 503
  | 'internal'; // 500

/** The one place where a kind becomes an HTTP status (apps/api/http-errors.ts answers with it). */
export const KIND_STATUS = {
  invalid_input: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  too_many_requests: 429,
  internal: 500,
  platform_rejected: 502,
  unavailable: 503,
} as const satisfies Record<HeraldErrorKind, HttpStatus>;

/** The registered codes an error of kind `K` may carry: those registered with its status. */
export type CodeOfKind<K extends HeraldErrorKind> = CodeWithStatus<(typeof KIND_STATUS)[K]>;

export class HeraldError<K extends HeraldErrorKind = HeraldErrorKind> extends Error {
  constructor(
    readonly kind: K,
    message: string,
    readonly errorCode?: CodeOfKind<K>,
    /** Extra body fields (violations, retry_after_seconds, …), copied into the error response. */
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'HeraldError';
  }
}

export const invalidInput = (message: string, details?: Record<string, unknown>, errorCode?: CodeOfKind<'invalid_input'>) =>
  new HeraldError('invalid_input', message, errorCode, details);
export const notFound = (message: string, errorCode?: CodeOfKind<'not_found'>) => new HeraldError('not_found', message, errorCode);
export const conflict = (message: string, errorCode?: CodeOfKind<'conflict'>, details?: Record<string, unknown>) =>
  new HeraldError('conflict', message, errorCode, details);
export const forbidden = (message: string, errorCode?: CodeOfKind<'forbidden'>) => new HeraldError('forbidden', message, errorCode);

export function redditUnavailable(): HeraldError {
  return new HeraldError('unavailable', 'Publishing, connecting and commenting on reddit is unavailable. Remove reddit from platform[].', 'reddit_unavailable');
}

/**
 * What a network's answer means, whatever its wire shape. Each platform adapter maps its
 * upstream responses to exactly one of these in one function.
 */
export type PlatformFailure =
  /** The token expired or was revoked; the account must be reconnected. */
  | { kind: 'auth_expired'; reason: string }
  /**
   * The account is paused by the network for a while (spec restriction reasons). `code` is the
   * result's error_code when it differs from the reason (youtube_channel_daily_limit).
   * `retryAfterPause`: the spec says "paused …, then retried": the post waits for `until` and is
   * published once more instead of failing.
   */
  | { kind: 'restricted'; reason: string; until: Date; code?: string; retryAfterPause?: boolean }
  /** The network demands a checkpoint (account_checkpoint_required); reconnecting alone does not clear it. */
  | { kind: 'checkpoint' }
  /** Throughput limit; try again after `retryAfterMs`. */
  | { kind: 'rate_limited'; retryAfterMs: number }
  /** The network refuses this content (too long, bad media, …); retrying cannot help. */
  | { kind: 'invalid_content'; code?: string }
  /** The network is failing for reasons of its own; a later attempt may succeed. */
  | { kind: 'transient' }
  /** The network cannot do this. */
  | { kind: 'unsupported' }
  /** Any other refusal, with the network's own message. */
  | { kind: 'rejected'; code?: string };

export class PlatformError extends Error {
  constructor(
    readonly platform: string,
    readonly failure: PlatformFailure,
    /** The network's own message, shown to the caller. */
    message: string,
    /** The network's own status and code, for logs and debugging. */
    readonly upstream: { status?: number; code?: string | number } = {},
    /** Spec fields the failed target's result carries (Facebook `available_pages`, …). */
    readonly resultFields: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'PlatformError';
  }
}

/**
 * A network refusing credentials the caller submitted to connect is the caller's to fix (400
 * `invalid_credentials`), unless the network is throttling or down. Connecting keeps this mapping;
 * every other synchronous call answers by failure kind (apps/api/http-errors.ts).
 */
export function connectRefused(err: PlatformError): HeraldError {
  const { failure } = err;
  switch (failure.kind) {
    case 'rate_limited':
      return new HeraldError('too_many_requests', `${err.platform} is rate limiting: ${err.message}`, 'platform_rate_limited',
        { retry_after_seconds: Math.ceil(failure.retryAfterMs / 1000) });
    case 'transient':
      return new HeraldError('platform_rejected', `${err.platform} did not answer properly: ${err.message}`, 'platform_unavailable');
    default:
      return new HeraldError('invalid_input', `${err.platform} refused the credentials: ${err.message}`, 'invalid_credentials');
  }
}

/**
 * The `error_code` a failed publish target reports for each failure kind: the network's code when
 * it is registered, else the kind's generic code (the network's own code stays in the logs).
 */
export function failureErrorCode(failure: PlatformFailure): ErrorCode {
  switch (failure.kind) {
    case 'auth_expired': return 'reauth_required';
    case 'restricted': return networkCode(failure.code ?? failure.reason, 'account_restricted');
    case 'checkpoint': return 'account_checkpoint_required';
    case 'rate_limited': return 'rate_limited';
    case 'invalid_content': return networkCode(failure.code, 'invalid_content');
    case 'transient': return 'platform_unavailable';
    case 'unsupported': return 'platform_not_supported';
    case 'rejected': return networkCode(failure.code, 'platform_rejected');
  }
}

/** Joins messages into one readable text: each ends with a full stop. */
export const sentences = (messages: readonly unknown[]): string =>
  messages.map((m) => String(m).trim()).filter(Boolean).map((m) => (/[.!?]$/.test(m) ? m : `${m}.`)).join(' ');
