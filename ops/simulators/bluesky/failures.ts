/** The Bluesky simulator's failure switches: generic ones answer at once, verdicts wait for their method. */
import type { BlueskyState } from './state';
import { XrpcError } from './xrpc';

/**
 * Failure switches. The first six answer whatever request comes next. The others are the network's
 * own verdicts and wait for the call they concern (named in BLUESKY_FAILURE_TARGETS): a request to
 * another method that takes one from the queue puts it aside and runs normally.
 */
export const BLUESKY_FAILURE_MODES = [
  'expired_token', 'invalid_token', 'auth_required', 'rate_limited', 'server_error', 'upstream_failure',
  'blob_too_large', 'invalid_request', 'account_takedown', 'unconfirmed_email', 'video_daily_limit', 'video_processing_failed',
] as const;
export type BlueskyFailureMode = (typeof BLUESKY_FAILURE_MODES)[number];

export const BLUESKY_FAILURE_TARGETS: Partial<Record<BlueskyFailureMode, readonly string[]>> = {
  blob_too_large: ['com.atproto.repo.createRecord'],
  invalid_request: ['com.atproto.repo.createRecord'],
  account_takedown: ['com.atproto.server.createSession', 'com.atproto.server.refreshSession'],
  unconfirmed_email: ['app.bsky.video.uploadVideo'],
  video_daily_limit: ['app.bsky.video.getUploadLimits'],
  video_processing_failed: ['app.bsky.video.uploadVideo'],
};

/** `ratelimit-reset` of a rate_limited answer: this many seconds from now. */
export const BLUESKY_SIM_RATE_LIMIT_RESET_SECONDS = 30;
export const BLUESKY_SIM_VIDEO_SERVICE_DID = 'did:web:video.bsky.app';

export function createBlueskyFailures(s: BlueskyState) {
  const { deferred } = s;

  /** Generic switches answer at once; a verdict meant for another method waits for that one. */
  function pickVerdict(nsid: string, failure: BlueskyFailureMode | undefined): BlueskyFailureMode | undefined {
    if (failure && BLUESKY_FAILURE_TARGETS[failure] && !BLUESKY_FAILURE_TARGETS[failure]!.includes(nsid)) {
      deferred.push(failure);
      failure = undefined;
    }
    if (failure) return failure;
    const i = deferred.findIndex((m) => BLUESKY_FAILURE_TARGETS[m]!.includes(nsid));
    return i >= 0 ? deferred.splice(i, 1)[0] : undefined;
  }

  function generic(mode: BlueskyFailureMode): XrpcError | undefined {
    switch (mode) {
      case 'expired_token': return new XrpcError(400, 'ExpiredToken', 'Token has expired');
      case 'invalid_token': return new XrpcError(401, 'InvalidToken', 'Token has been revoked');
      case 'auth_required': return new XrpcError(401, 'AuthenticationRequired', 'Authentication Required');
      case 'rate_limited': {
        const reset = Math.floor(Date.now() / 1000) + BLUESKY_SIM_RATE_LIMIT_RESET_SECONDS;
        return new XrpcError(429, 'RateLimitExceeded', 'Rate Limit Exceeded',
          { 'ratelimit-limit': '3000', 'ratelimit-remaining': '0', 'ratelimit-reset': String(reset), 'ratelimit-policy': '3000;w=300' });
      }
      case 'server_error': return new XrpcError(500, 'InternalServerError', 'Internal Server Error');
      case 'upstream_failure': return new XrpcError(502, 'UpstreamFailure', 'Upstream Failure');
      default: return undefined;
    }
  }

  return { pickVerdict, generic };
}
