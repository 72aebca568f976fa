import { defineNetwork } from '../kit/network';
import { httpUrl, matching, millis } from '../kit/env';
import { blueskyDescriptor, createBlueskyPlatform, type BlueskyPlatformOptions } from './adapter';

export * from './adapter';

export const bluesky = defineNetwork<'bluesky', BlueskyPlatformOptions>({
  id: 'bluesky',
  descriptor: blueskyDescriptor,
  env: {
    apiBase: ['BLUESKY_API_BASE', httpUrl],
    videoBase: ['BLUESKY_VIDEO_BASE', httpUrl],
    videoServiceDid: ['BLUESKY_VIDEO_SERVICE_DID', matching(/^did:[a-z]+:\S+$/, 'a DID such as did:web:video.bsky.app')],
    appUrl: ['BLUESKY_APP_URL', httpUrl],
    videoPollMs: ['BLUESKY_POLL_MS', millis],
  },
  pollOptions: ['videoPollMs'],
  create: createBlueskyPlatform,
});
