import { defineNetwork } from '../kit/network';
import { flag, httpUrl, matching, millis } from '../kit/env';
import { createLinkedInPlatform, linkedinDescriptor, type LinkedInPlatformOptions } from './adapter';

export * from './adapter';

export const linkedin = defineNetwork<'linkedin', LinkedInPlatformOptions>({
  id: 'linkedin',
  descriptor: linkedinDescriptor,
  env: {
    apiBase: ['LINKEDIN_API_BASE', httpUrl],
    authBase: ['LINKEDIN_AUTH_BASE', httpUrl],
    version: ['LINKEDIN_VERSION', matching(/^\d{6}(\.\d{2})?$/, 'a LinkedIn API version YYYYMM or YYYYMM.RR')],
    organizationPages: ['LINKEDIN_ORGANIZATION_PAGES', flag],
    videoPollMs: ['LINKEDIN_POLL_MS', millis],
  },
  pollOptions: ['videoPollMs'],
  create: createLinkedInPlatform,
});
