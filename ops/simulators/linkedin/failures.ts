/** The LinkedIn simulator's failure switches and which requests each applies to. */
import type { ServerResponse } from 'node:http';
import { sendJson, sendText } from '../kit/http';
import { accessDenied, invalidField, restError } from './answers';
import type { LinkedInState } from './state';

/**
 * Failure switches. Each is consumed by the next request it can apply to: the first three by any
 * request, token ones by the next bearer call (/rest, /v2), version_retired by the next /rest call,
 * upload_failed / thumbnail_rejected by the next byte upload (of a thumbnail), video_processing_failed
 * by the next finalized video, duplicate_post / content_rejected by the next post creation,
 * statistics_access_denied by the next statistics read (share or page statistics, network size),
 * as when the member lost the page's ADMINISTRATOR role.
 */
export const LINKEDIN_FAILURE_MODES = [
  'rate_limited', 'server_error', 'gateway_timeout',
  'expired_token', 'revoked_token', 'access_denied', 'version_retired',
  'upload_failed', 'thumbnail_rejected', 'video_processing_failed',
  'duplicate_post', 'content_rejected',
  'statistics_access_denied',
] as const;
export type LinkedInFailureMode = (typeof LINKEDIN_FAILURE_MODES)[number];

/** Seconds in the Retry-After header of a rate_limited answer. */
export const LINKEDIN_SIM_RETRY_AFTER_SECONDS = 120;
export const LINKEDIN_SIM_ALL_SCOPES = [
  'openid', 'profile', 'email', 'w_member_social', 'w_organization_social', 'r_organization_admin', 'r_organization_social', 'rw_organization_admin',
];
const STATISTICS_OPS = ['shareStatistics', 'pageStatistics', 'networkSizes'];

/** What a request is, as the classifier (rest.ts) tells: the switches apply by it. */
export type Route =
  | { name: 'authorize' | 'token' | 'userinfo' | 'unknown' }
  | { name: 'upload'; id: string }
  | { name: 'rest'; op: string; param?: string };

export function createLinkedInFailures(s: LinkedInState) {
  const { armed, uploads, liveId } = s;

  /** Answers the failures that stand in for the whole request; false when the request goes on. */
  function answerFailure(mode: LinkedInFailureMode, res: ServerResponse): boolean {
    switch (mode) {
      case 'rate_limited':
        sendJson(res, 429, { status: 429, serviceErrorCode: 101, code: 'TOO_MANY_REQUESTS', message: 'Resource level throttle APPLICATION DAY limit for calls to this resource is reached.' },
          { 'retry-after': String(LINKEDIN_SIM_RETRY_AFTER_SECONDS) });
        return true;
      case 'server_error': restError(res, 500, 'INTERNAL_SERVER_ERROR', 'Internal Server Error'); return true;
      case 'gateway_timeout': sendText(res, 504, '<html><body><h1>504 Gateway Time-out</h1></body></html>', 'text/html'); return true;
      case 'expired_token': restError(res, 401, 'EXPIRED_ACCESS_TOKEN', 'The token used in the request has expired', 65600); return true;
      case 'revoked_token': restError(res, 401, 'REVOKED_ACCESS_TOKEN', 'The token used in the request has been revoked by the user', 65601); return true;
      case 'access_denied': accessDenied(res, 'partnerApiPostsExternal.CREATE'); return true;
      case 'version_retired': restError(res, 426, 'NONEXISTENT_VERSION', 'Requested version is not active'); return true;
      case 'upload_failed': restError(res, 500, 'INTERNAL_SERVER_ERROR', 'Upload failed'); return true;
      case 'thumbnail_rejected': restError(res, 400, 'INVALID_THUMBNAIL', 'The thumbnail could not be processed'); return true;
      case 'duplicate_post': restError(res, 422, 'DUPLICATE_POST', `Content is a duplicate of urn:li:share:${liveId()}`); return true;
      case 'content_rejected': invalidField(res, '/commentary', 'Content violates the content policy'); return true;
      case 'statistics_access_denied': accessDenied(res, 'organizationalEntityShareStatistics.FINDER-organizationalEntity'); return true;
      case 'video_processing_failed': return false;
    }
  }

  function appliesTo(mode: LinkedInFailureMode, route: Route): boolean {
    const bearer = route.name === 'rest' || route.name === 'userinfo';
    switch (mode) {
      case 'rate_limited': case 'server_error': case 'gateway_timeout': return true;
      case 'expired_token': case 'revoked_token': case 'access_denied': return bearer;
      case 'version_retired': return route.name === 'rest';
      case 'upload_failed': return route.name === 'upload';
      case 'thumbnail_rejected': return route.name === 'upload' && uploads.get(route.id)?.kind === 'thumbnail';
      case 'video_processing_failed': return route.name === 'rest' && route.op === 'videos.finalizeUpload';
      case 'duplicate_post': case 'content_rejected': return route.name === 'rest' && route.op === 'posts.create';
      case 'statistics_access_denied': return route.name === 'rest' && STATISTICS_OPS.includes(route.op);
    }
  }

  function takeArmed(route: Route): LinkedInFailureMode | undefined {
    const i = armed.findIndex((mode) => appliesTo(mode, route));
    return i < 0 ? undefined : armed.splice(i, 1)[0];
  }

  return { answerFailure, takeArmed };
}
