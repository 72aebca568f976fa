import { defineNetwork } from '../kit/network';
import { httpUrl, millis } from '../kit/env';
import { createYoutubePlatform, youtubeDescriptor, type YoutubePlatformOptions } from './adapter';

export * from './adapter';

export const youtube = defineNetwork<'youtube', YoutubePlatformOptions>({
  id: 'youtube',
  descriptor: youtubeDescriptor,
  env: {
    apiBase: ['YOUTUBE_API_BASE', httpUrl],
    authBase: ['YOUTUBE_AUTH_BASE', httpUrl],
    tokenUrl: ['YOUTUBE_TOKEN_URL', httpUrl],
    pollIntervalMs: ['YOUTUBE_POLL_MS', millis],
    // Spec: 2 hours, then retried. Tests run the real pause in seconds.
    dailyLimitPauseMs: ['YOUTUBE_DAILY_LIMIT_PAUSE_MS', millis],
  },
  pollOptions: ['pollIntervalMs'],
  create: createYoutubePlatform,
});
