/**
 * YouTube through the Data API v3 (developers.google.com/youtube/v3) and Google OAuth 2: the
 * capabilities assembled over one client.
 */
import type { PlatformAdapter } from '../../../core/ports/platform';
import { httpUrl, millis } from '../kit/env';
import { GOOGLE_AUTH_BASE, GOOGLE_TOKEN_URL } from '../kit/google';
import { systemNow, trimBase, type Now } from '../kit/http';
import { defineNetwork } from '../kit/network';
import { createYoutubeAnalytics, YOUTUBE_ANALYTICS_API_BASE } from './analytics';
import { createYoutubeClient } from './client';
import { createYoutubeComments } from './comments';
import { createYoutubeConnect } from './connect';
import { youtubeDescriptor } from './descriptor';
import { createYoutubeMediaLibrary } from './media';
import { createYoutubePostEditor } from './posts';
import { createYoutubePublisher, YOUTUBE_CHUNK_UNIT } from './publish';

export { GOOGLE_AUTH_BASE, GOOGLE_TOKEN_URL, msUntilPacificMidnight } from '../kit/google';
export * from './client';
export * from './connect';
export * from './descriptor';
export { YOUTUBE_CHUNK_UNIT } from './publish';
export { youtubeSettings, youtubeTagsLength, YOUTUBE_SUBTITLE_SLOTS } from './settings';

export const YOUTUBE_API_BASE = 'https://www.googleapis.com';

export interface YoutubePlatformOptions {
  clientId: string;
  clientSecret: string;
  /** Data API and upload host. Default https://www.googleapis.com (uploads go to `${apiBase}/upload/youtube/v3/...`). */
  apiBase?: string;
  /** YouTube Analytics API host (`/v2/reports`). Default https://youtubeanalytics.googleapis.com. */
  analyticsApiBase?: string;
  /** Host of the consent page `${authBase}/o/oauth2/v2/auth`. Default https://accounts.google.com. */
  authBase?: string;
  /** Default https://oauth2.googleapis.com/token. */
  tokenUrl?: string;
  /** JSON calls. Default 15 s. */
  timeoutMs?: number;
  /** Each chunk PUT. Default 120 s. */
  uploadTimeoutMs?: number;
  /** Bytes per PUT; a positive multiple of 256 KiB. Default 8 MiB. */
  chunkSizeBytes?: number;
  /** Bytes sent in one publish step before handing back a `wait`, so no single call runs for hours. Default 64 MiB. */
  maxBytesPerStep?: number;
  /** Between processing polls. Default 15 s. */
  pollIntervalMs?: number;
  /** Processing polled this long at most; then the post is reported with a "still processing" warning. Default 60 min. */
  maxProcessingMs?: number;
  fetch?: typeof fetch;
  /** Clock for token expiry, restriction ends, quota resets and processing deadlines. */
  now?: Now;
  /** How long a channel over its daily upload limit is paused before its post is retried. Default 2 h (spec). */
  dailyLimitPauseMs?: number;
}

export function createYoutubePlatform(opts: YoutubePlatformOptions): PlatformAdapter {
  const client = createYoutubeClient({
    ...(opts.dailyLimitPauseMs !== undefined ? { dailyLimitPauseMs: opts.dailyLimitPauseMs } : {}),
    apiBase: trimBase(opts.apiBase ?? YOUTUBE_API_BASE),
    timeoutMs: opts.timeoutMs ?? 15_000,
    uploadTimeoutMs: opts.uploadTimeoutMs ?? 120_000,
    fetch: opts.fetch ?? fetch,
    now: opts.now ?? systemNow,
  });
  const { oauth, refresher } = createYoutubeConnect(client, {
    clientId: opts.clientId,
    clientSecret: opts.clientSecret,
    authBase: trimBase(opts.authBase ?? GOOGLE_AUTH_BASE),
    tokenUrl: opts.tokenUrl ?? GOOGLE_TOKEN_URL,
  });
  return {
    descriptor: youtubeDescriptor,
    oauth,
    refresher,
    publisher: createYoutubePublisher(client, {
      chunkSizeBytes: opts.chunkSizeBytes ?? 32 * YOUTUBE_CHUNK_UNIT, // 8 MiB
      maxBytesPerStep: opts.maxBytesPerStep ?? 64 * 1024 * 1024,
      pollIntervalMs: opts.pollIntervalMs ?? 15_000,
      maxProcessingMs: opts.maxProcessingMs ?? 60 * 60_000,
    }),
    comments: createYoutubeComments(client),
    mediaLibrary: createYoutubeMediaLibrary(client),
    postEditor: createYoutubePostEditor(client),
    analytics: createYoutubeAnalytics(client, { analyticsApiBase: trimBase(opts.analyticsApiBase ?? YOUTUBE_ANALYTICS_API_BASE) }),
  };
}

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
