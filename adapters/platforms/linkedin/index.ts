/**
 * LinkedIn through its versioned REST API (learn.microsoft.com/linkedin/marketing/community-management/
 * shares/posts-api, images-api, videos-api, poll-post-api, comments-api, organizations: share, page
 * statistics) and OAuth 2 (connect.ts).
 */
import type { PlatformAdapter } from '../../../core/ports/platform';
import { createLinkedInAnalytics } from './analytics';
import { flag, httpUrl, matching, millis } from '../kit/env';
import { systemNow } from '../kit/http';
import { defineNetwork, type CommonOptions, type OAuthClientOptions } from '../kit/network';
import { createLinkedInClient, DEFAULT_TIMEOUT_MS, DEFAULT_UPLOAD_TIMEOUT_MS, LINKEDIN_API_BASE, LINKEDIN_DEFAULT_VERSION } from './client';
import { createLinkedInLookups } from './lookups';
import { createLinkedInMediaLibrary } from './media';
import { createLinkedInComments } from './comments';
import { createLinkedInConnect, LINKEDIN_AUTH_BASE } from './connect';
import { linkedinDescriptor } from './descriptor';
import { createLinkedInPostEditor } from './posts';
import { createLinkedInPublisher } from './publish';

export {
  LINKEDIN_API_BASE, LINKEDIN_DEFAULT_VERSION, mapLinkedInFailure, type LinkedInCall, type LinkedInOutcome,
} from './client';
export { LINKEDIN_AUTH_BASE, LINKEDIN_MEMBER_SCOPES, LINKEDIN_PAGE_SCOPES } from './connect';
export { linkedinDescriptor } from './descriptor';
export { LINKEDIN_POLL_DURATIONS, LINKEDIN_VISIBILITIES, parseOrganizationId } from './settings';
export { escapeLittleText, linkedinTitleLength } from './text';

const DEFAULT_VIDEO_POLL_MS = 5_000;
/** 360 polls of 5 s: LinkedIn video processing that has not finished in 30 minutes is treated as stuck. */
const DEFAULT_MAX_VIDEO_POLLS = 360;

export interface LinkedInPlatformOptions extends CommonOptions, OAuthClientOptions {
  /** Default https://api.linkedin.com (the adapter adds /rest and /v2); a simulator's origin in tests. */
  apiBase?: string;
  /** Default https://www.linkedin.com/oauth/v2 (authorization and accessToken live under it). */
  authBase?: string;
  /** `LinkedIn-Version` header, YYYYMM or YYYYMM.RR. */
  version?: string;
  /**
   * Also ask for the organization scopes, so accounts can post as the pages they administer
   * (target_linkedin_page_id). Only for apps approved for the Community Management API: LinkedIn
   * refuses the whole authorization when an app asks for scopes it was not granted. Default false.
   */
  organizationPages?: boolean;
  /** For each byte upload (image, video part, thumbnail). */
  uploadTimeoutMs?: number;
  /** Delay between two checks of a processing video. */
  videoPollMs?: number;
  maxVideoPolls?: number;
}

export function createLinkedInPlatform(opts: LinkedInPlatformOptions): PlatformAdapter {
  const client = createLinkedInClient({
    apiBase: opts.apiBase ?? LINKEDIN_API_BASE,
    version: opts.version ?? LINKEDIN_DEFAULT_VERSION,
    timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    uploadTimeoutMs: opts.uploadTimeoutMs ?? DEFAULT_UPLOAD_TIMEOUT_MS,
    fetch: opts.fetch ?? fetch,
    now: opts.now ?? systemNow,
  });
  const { oauth, refresher } = createLinkedInConnect(client, {
    clientId: opts.clientId, clientSecret: opts.clientSecret, authBase: opts.authBase ?? LINKEDIN_AUTH_BASE, organizationPages: opts.organizationPages ?? false,
  });
  return {
    descriptor: linkedinDescriptor,
    oauth,
    refresher,
    publisher: createLinkedInPublisher(client, {
      videoPollMs: opts.videoPollMs ?? DEFAULT_VIDEO_POLL_MS, maxVideoPolls: opts.maxVideoPolls ?? DEFAULT_MAX_VIDEO_POLLS,
    }),
    comments: createLinkedInComments(client),
    mediaLibrary: createLinkedInMediaLibrary(client),
    lookups: createLinkedInLookups(client),
    postEditor: createLinkedInPostEditor(client),
    analytics: createLinkedInAnalytics(client),
  };
}

export const linkedin = defineNetwork<'linkedin', LinkedInPlatformOptions>({
  id: 'linkedin',
  descriptor: linkedinDescriptor,
  env: {
    apiBase: ['LINKEDIN_API_BASE', httpUrl, { meaning: 'LinkedIn REST API host.', default: '`https://api.linkedin.com`' }],
    authBase: ['LINKEDIN_AUTH_BASE', httpUrl, { meaning: 'LinkedIn OAuth host.', default: '`https://www.linkedin.com/oauth/v2`' }],
    version: ['LINKEDIN_VERSION', matching(/^\d{6}(\.\d{2})?$/, 'a LinkedIn API version YYYYMM or YYYYMM.RR'), { meaning: '`LinkedIn-Version` header (YYYYMM).', default: '`202610`' }],
    organizationPages: ['LINKEDIN_ORGANIZATION_PAGES', flag, { meaning: 'Connect with page access (organization scopes): page posts, media library, analytics.', default: '`false`' }],
    videoPollMs: ['LINKEDIN_POLL_MS', millis, { meaning: 'Delay between video and document processing polls.', default: '5000 (5 s)' }],
  },
  pollOptions: ['videoPollMs'],
  create: createLinkedInPlatform,
});
