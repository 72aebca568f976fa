import { defineNetwork } from '../kit/network';
import { httpUrl, millis, oneOf } from '../kit/env';
import { tiktokDescriptor } from './descriptor';
import { createTikTokPlatform, type TikTokPlatformOptions } from './platform';

export { mapTikTokFailure, type TikTokOutcome } from './client';
export { TIKTOK_AUTH_BASE, TIKTOK_SCOPES } from './connect';
export * from './descriptor';
export * from './platform';
export { TIKTOK_PRIVACY_LEVELS, tiktokSettings } from './settings';

export const tiktok = defineNetwork<'tiktok', TikTokPlatformOptions>({
  id: 'tiktok',
  descriptor: tiktokDescriptor,
  env: {
    apiBase: ['TIKTOK_API_BASE', httpUrl],
    authBase: ['TIKTOK_AUTH_BASE', httpUrl],
    businessApiBase: ['TIKTOK_BUSINESS_API_BASE', httpUrl],
    videoSource: ['TIKTOK_VIDEO_SOURCE', oneOf('FILE_UPLOAD', 'PULL_FROM_URL')],
    pollIntervalMs: ['TIKTOK_POLL_MS', millis],
    postIdPollIntervalMs: ['TIKTOK_POST_ID_POLL_MS', millis],
  },
  pollOptions: ['pollIntervalMs', 'postIdPollIntervalMs'],
  create: createTikTokPlatform,
});
