import { defineNetwork } from '../kit/network';
import { httpUrl, millis } from '../kit/env';
import { youtubeDescriptor } from './descriptor';
import { createYoutubePlatform, type YoutubePlatformOptions } from './platform';

export { GOOGLE_AUTH_BASE, GOOGLE_TOKEN_URL, msUntilPacificMidnight } from '../kit/google';
export * from './client';
export * from './connect';
export * from './descriptor';
export * from './platform';
export { YOUTUBE_CHUNK_UNIT } from './publish';
export { youtubeSettings, youtubeTagsLength, YOUTUBE_SUBTITLE_SLOTS } from './settings';

export const youtube = defineNetwork<'youtube', YoutubePlatformOptions>({
  id: 'youtube',
  descriptor: youtubeDescriptor,
  env: {
    apiBase: ['YOUTUBE_API_BASE', httpUrl],
    analyticsApiBase: ['YOUTUBE_ANALYTICS_API_BASE', httpUrl],
    authBase: ['YOUTUBE_AUTH_BASE', httpUrl],
    tokenUrl: ['YOUTUBE_TOKEN_URL', httpUrl],
    pollIntervalMs: ['YOUTUBE_POLL_MS', millis],
    // Spec: 2 hours, then retried. Tests run the real pause in seconds.
    dailyLimitPauseMs: ['YOUTUBE_DAILY_LIMIT_PAUSE_MS', millis],
  },
  pollOptions: ['pollIntervalMs'],
  create: createYoutubePlatform,
});
