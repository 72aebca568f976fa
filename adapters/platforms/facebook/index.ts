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
import { createFacebookLookups } from './lookups';
import { createFacebookMediaLibrary } from './media';
import { createFacebookPostEditor } from './posts';
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
    mediaLibrary: createFacebookMediaLibrary(client),
    lookups: createFacebookLookups(),
    postEditor: createFacebookPostEditor(client),
    analytics: createFacebookAnalytics(client),
  };
}

export const facebook = defineNetwork<'facebook', FacebookPlatformOptions>({
  id: 'facebook',
  descriptor: facebookDescriptor,
  env: {
    apiBase: ['FACEBOOK_API_BASE', httpUrl, { meaning: 'Graph API host and version.', default: '`https://graph.facebook.com/v21.0`' }],
    videoApiBase: ['FACEBOOK_VIDEO_API_BASE', httpUrl, { meaning: 'Graph video upload host.', default: '`https://graph-video.facebook.com/v21.0`' }],
    authBase: ['FACEBOOK_AUTH_BASE', httpUrl, { meaning: 'Facebook consent page host.', default: '`https://www.facebook.com/v21.0`' }],
    pollIntervalMs: ['FACEBOOK_POLL_MS', millis, { meaning: 'Delay between video processing polls.', default: '10000 (10 s)' }],
  },
  pollOptions: ['pollIntervalMs'],
  create: createFacebookPlatform,
});
