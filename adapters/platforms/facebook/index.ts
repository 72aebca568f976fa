/**
 * Facebook Pages through the Graph API. client.ts (Graph calls and the failure mapping),
 * descriptor.ts + settings.ts (what intake checks), pages.ts (stored Pages and the page choice),
 * connect.ts (Facebook Login, refresh), publish.ts (text, photos, stories, videos, reels), comments.ts.
 */
import type { PlatformAdapter } from '../../../core/ports/platform';
import { defineNetwork } from '../kit/network';
import { httpUrl, millis } from '../kit/env';
import { createFacebookClient, type FacebookPlatformOptions } from './client';
import { createFacebookComments } from './comments';
import { createFacebookConnect } from './connect';
import { createFacebookAnalytics } from './analytics';
import { facebookDescriptor } from './descriptor';
import { createFacebookPublisher } from './publish';

export {
  FACEBOOK_API_BASE, FACEBOOK_AUTH_BASE, FACEBOOK_GRAPH_VERSION, FACEBOOK_SCOPES, FACEBOOK_VIDEO_API_BASE, mapFacebookFailure,
  type FacebookFailureContext, type FacebookOutcome, type FacebookPlatformOptions,
} from './client';
export { facebookDescriptor } from './descriptor';
export { facebookPages, type FacebookPage } from './pages';
export { facebookSettings } from './settings';

export function createFacebookPlatform(opts: FacebookPlatformOptions): PlatformAdapter {
  const client = createFacebookClient(opts);
  return {
    descriptor: facebookDescriptor,
    ...createFacebookConnect(client),
    comments: createFacebookComments(client),
    publisher: createFacebookPublisher(client),
    analytics: createFacebookAnalytics(client),
  };
}

export const facebook = defineNetwork<'facebook', FacebookPlatformOptions>({
  id: 'facebook',
  descriptor: facebookDescriptor,
  env: {
    apiBase: ['FACEBOOK_API_BASE', httpUrl],
    videoApiBase: ['FACEBOOK_VIDEO_API_BASE', httpUrl],
    authBase: ['FACEBOOK_AUTH_BASE', httpUrl],
    pollIntervalMs: ['FACEBOOK_POLL_MS', millis],
  },
  pollOptions: ['pollIntervalMs'],
  create: createFacebookPlatform,
});
