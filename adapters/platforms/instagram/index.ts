import { defineNetwork } from '../kit/network';
import { httpUrl, millis, text } from '../kit/env';
import { createInstagramPlatform, instagramDescriptor, type InstagramPlatformOptions } from './adapter';

export * from './adapter';

export const instagram = defineNetwork<'instagram', InstagramPlatformOptions>({
  id: 'instagram',
  descriptor: instagramDescriptor,
  env: {
    apiBase: ['INSTAGRAM_API_BASE', httpUrl],
    apiVersion: ['INSTAGRAM_API_VERSION', text],
    authorizeUrl: ['INSTAGRAM_AUTHORIZE_URL', httpUrl],
    tokenUrl: ['INSTAGRAM_TOKEN_URL', httpUrl],
    pollIntervalMs: ['INSTAGRAM_POLL_MS', millis],
  },
  pollOptions: ['pollIntervalMs'],
  create: createInstagramPlatform,
});
