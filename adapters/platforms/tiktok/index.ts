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
    apiBase: ['TIKTOK_API_BASE', httpUrl, { meaning: 'TikTok Content Posting and Display API.', default: '`https://open.tiktokapis.com`' }],
    authBase: ['TIKTOK_AUTH_BASE', httpUrl, { meaning: 'TikTok consent page host.', default: '`https://www.tiktok.com`' }],
    businessApiBase: ['TIKTOK_BUSINESS_API_BASE', httpUrl, { meaning: 'TikTok API for Business (comments, profile analytics).', default: '`https://business-api.tiktok.com/open_api`' }],
    videoSource: ['TIKTOK_VIDEO_SOURCE', oneOf('FILE_UPLOAD', 'PULL_FROM_URL'), { meaning: 'How TikTok gets the video: uploaded by Herald, or pulled from Herald\'s signed URL (needs a verified domain).', default: '`FILE_UPLOAD`' }],
    pollIntervalMs: ['TIKTOK_POLL_MS', millis, { meaning: 'Delay between publish status polls.', default: '5000 (5 s)' }],
    postIdPollIntervalMs: ['TIKTOK_POST_ID_POLL_MS', millis, { meaning: 'Delay between polls for the public post id after publishing.', default: '15000 (15 s)' }],
  },
  pollOptions: ['pollIntervalMs', 'postIdPollIntervalMs'],
  create: createTikTokPlatform,
});
