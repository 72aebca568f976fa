import { defineNetwork } from '../kit/network';
import { httpUrl, millis } from '../kit/env';
import { createFacebookPlatform, facebookDescriptor, type FacebookPlatformOptions } from './adapter';

export * from './adapter';

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
