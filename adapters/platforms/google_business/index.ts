/**
 * Google Business Profile (developers.google.com/my-business): Google OAuth 2 (business.manage),
 * locations through the Account Management and Business Information APIs, local posts and gallery
 * media through the v4 API, daily metrics through the Performance API. One record for the network list.
 */
import type { PlatformAdapter } from '../../../core/ports/platform';
import { httpUrl } from '../kit/env';
import { GOOGLE_AUTH_BASE, GOOGLE_TOKEN_URL } from '../kit/google';
import { systemNow, trimBase } from '../kit/http';
import { defineNetwork, type CommonOptions, type OAuthClientOptions } from '../kit/network';
import { createGoogleBusinessAnalytics } from './analytics';
import { createGoogleBusinessClient, GBP_ACCOUNTS_BASE, GBP_API_BASE, GBP_INFO_BASE, GBP_PERFORMANCE_BASE } from './client';
import { createGoogleBusinessConnect } from './connect';
import { googleBusinessDescriptor } from './descriptor';
import { createGoogleBusinessLookups } from './lookups';
import { createGoogleBusinessPostEditor } from './posts';
import { createGoogleBusinessPublisher } from './publish';

export { mapGoogleBusinessFailure, GBP_API_BASE, GBP_PERFORMANCE_BASE } from './client';
export { GBP_DAILY_METRICS, googleBusinessCatalogue } from './analytics';
export { googleBusinessDescriptor } from './descriptor';
export { GBP_SCOPES } from './connect';
export { listLocations } from './locations';
export { googleBusinessSettings } from './settings';

export interface GoogleBusinessPlatformOptions extends CommonOptions, OAuthClientOptions {
  /** v4 (local posts, media). Default https://mybusiness.googleapis.com. */
  apiBase?: string;
  /** Account Management API. Default https://mybusinessaccountmanagement.googleapis.com. */
  accountsBase?: string;
  /** Business Information API. Default https://mybusinessbusinessinformation.googleapis.com. */
  infoBase?: string;
  /** Business Profile Performance API (analytics). Default https://businessprofileperformance.googleapis.com. */
  performanceBase?: string;
  authBase?: string;
  tokenUrl?: string;
}

export function createGoogleBusinessPlatform(opts: GoogleBusinessPlatformOptions): PlatformAdapter {
  const client = createGoogleBusinessClient({
    apiBase: trimBase(opts.apiBase ?? GBP_API_BASE),
    accountsBase: trimBase(opts.accountsBase ?? GBP_ACCOUNTS_BASE),
    infoBase: trimBase(opts.infoBase ?? GBP_INFO_BASE),
    performanceBase: trimBase(opts.performanceBase ?? GBP_PERFORMANCE_BASE),
    timeoutMs: opts.timeoutMs ?? 15_000,
    fetch: opts.fetch ?? fetch,
    now: opts.now ?? systemNow,
  });
  const { oauth, refresher } = createGoogleBusinessConnect(client, {
    clientId: opts.clientId, clientSecret: opts.clientSecret,
    authBase: trimBase(opts.authBase ?? GOOGLE_AUTH_BASE), tokenUrl: opts.tokenUrl ?? GOOGLE_TOKEN_URL,
  });
  return {
    descriptor: googleBusinessDescriptor,
    oauth,
    refresher,
    publisher: createGoogleBusinessPublisher(client),
    postEditor: createGoogleBusinessPostEditor(client),
    lookups: createGoogleBusinessLookups(client),
    analytics: createGoogleBusinessAnalytics(client),
  };
}

export const googleBusiness = defineNetwork<'google_business', GoogleBusinessPlatformOptions>({
  id: 'google_business',
  descriptor: googleBusinessDescriptor,
  env: {
    apiBase: ['GOOGLE_BUSINESS_API_BASE', httpUrl, { meaning: 'Business Profile API v4 (local posts, media).', default: '`https://mybusiness.googleapis.com`' }],
    accountsBase: ['GOOGLE_BUSINESS_ACCOUNTS_BASE', httpUrl, { meaning: 'Account Management API.', default: '`https://mybusinessaccountmanagement.googleapis.com`' }],
    infoBase: ['GOOGLE_BUSINESS_INFO_BASE', httpUrl, { meaning: 'Business Information API (locations).', default: '`https://mybusinessbusinessinformation.googleapis.com`' }],
    performanceBase: ['GOOGLE_BUSINESS_PERFORMANCE_BASE', httpUrl, { meaning: 'Performance API (analytics).', default: '`https://businessprofileperformance.googleapis.com`' }],
    authBase: ['GOOGLE_BUSINESS_AUTH_BASE', httpUrl, { meaning: 'Google consent page host.', default: '`https://accounts.google.com`' }],
    tokenUrl: ['GOOGLE_BUSINESS_TOKEN_URL', httpUrl, { meaning: 'Google token endpoint.', default: '`https://oauth2.googleapis.com/token`' }],
  },
  create: createGoogleBusinessPlatform,
});
