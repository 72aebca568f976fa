/**
 * Instagram through the Instagram API with Instagram Login (developers.facebook.com/docs/instagram-platform).
 * client.ts (HTTP and the failure mapping), descriptor.ts + limits.ts + settings.ts (what intake
 * checks), connect.ts (Business Login, token renewal), publish.ts (containers), comments.ts, probe.ts.
 */
import type { PlatformAdapter } from '../../../core/ports/platform';
import { defineNetwork } from '../kit/network';
import { httpUrl, millis, text } from '../kit/env';
import { createInstagramAnalytics } from './analytics';
import { createInstagramClient, type InstagramPlatformOptions } from './client';
import { createInstagramComments } from './comments';
import { createInstagramConnect } from './connect';
import { instagramDescriptor } from './descriptor';
import { createInstagramLookups } from './lookups';
import { createInstagramMediaLibrary } from './media';
import { createInstagramProbe } from './probe';
import { createInstagramPublisher } from './publish';

export {
  INSTAGRAM_API_BASE, INSTAGRAM_API_VERSION, INSTAGRAM_AUTHORIZE_URL, INSTAGRAM_SCOPES, INSTAGRAM_TOKEN_URL, mapInstagramFailure,
  type InstagramFailureContext, type InstagramOutcome, type InstagramPlatformOptions,
} from './client';
export { instagramDescriptor } from './descriptor';
export { instagramSettings, parseUserTags } from './settings';

export function createInstagramPlatform(opts: InstagramPlatformOptions): PlatformAdapter {
  const client = createInstagramClient(opts);
  return {
    descriptor: instagramDescriptor,
    ...createInstagramConnect(client),
    publisher: createInstagramPublisher(client),
    probe: createInstagramProbe(client),
    comments: createInstagramComments(client),
    mediaLibrary: createInstagramMediaLibrary(client),
    lookups: createInstagramLookups(client),
    analytics: createInstagramAnalytics(client),
  };
}

export const instagram = defineNetwork<'instagram', InstagramPlatformOptions>({
  id: 'instagram',
  descriptor: instagramDescriptor,
  env: {
    apiBase: ['INSTAGRAM_API_BASE', httpUrl, { meaning: 'Instagram Graph API host.', default: '`https://graph.instagram.com`' }],
    apiVersion: ['INSTAGRAM_API_VERSION', text, { meaning: 'Instagram Graph API version.', default: '`v21.0`' }],
    authorizeUrl: ['INSTAGRAM_AUTHORIZE_URL', httpUrl, { meaning: 'Instagram consent page.', default: '`https://www.instagram.com/oauth/authorize`' }],
    tokenUrl: ['INSTAGRAM_TOKEN_URL', httpUrl, { meaning: 'Instagram token endpoint.', default: '`https://api.instagram.com/oauth/access_token`' }],
    pollIntervalMs: ['INSTAGRAM_POLL_MS', millis, { meaning: 'Delay between container status polls.', default: '30000 (30 s) for video, 5000 (5 s) for images' }],
  },
  pollOptions: ['pollIntervalMs'],
  create: createInstagramPlatform,
});
