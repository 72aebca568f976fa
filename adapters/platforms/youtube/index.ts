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
    apiBase: ['YOUTUBE_API_BASE', httpUrl, { meaning: 'YouTube Data API host.', default: '`https://www.googleapis.com`' }],
    analyticsApiBase: ['YOUTUBE_ANALYTICS_API_BASE', httpUrl, { meaning: 'YouTube Analytics API.', default: '`https://youtubeanalytics.googleapis.com`' }],
    authBase: ['YOUTUBE_AUTH_BASE', httpUrl, { meaning: 'Google consent page host.', default: '`https://accounts.google.com`' }],
    tokenUrl: ['YOUTUBE_TOKEN_URL', httpUrl, { meaning: 'Google token endpoint.', default: '`https://oauth2.googleapis.com/token`' }],
    pollIntervalMs: ['YOUTUBE_POLL_MS', millis, { meaning: 'Delay between video processing polls.', default: '15000 (15 s)' }],
    // Spec: 2 hours, then retried. Tests run the real pause in seconds.
    dailyLimitPauseMs: ['YOUTUBE_DAILY_LIMIT_PAUSE_MS', millis, { meaning: 'How long a channel over its daily upload limit is paused before its post is tried once more.', default: '7200000 (2 h)' }],
  },
  pollOptions: ['pollIntervalMs'],
  create: createYoutubePlatform,
});
