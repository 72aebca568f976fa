/**
 * TikTok through the Content Posting API v2 (developers.tiktok.com: content-posting-api-reference-
 * direct-post, -upload-video, -photo-post, -query-creator-info, -get-video-status,
 * content-posting-api-media-transfer-guide, oauth-user-access-token-management,
 * tiktok-api-v2-error-handling).
 * The capabilities, assembled over one client: connect.ts, publish.ts (with plan.ts and
 * validate.ts), comments.ts (API for Business).
 *
 * Fields the spec gates by connection capability (music, location, cover image) are not in TikTok's
 * public reference; they travel in `post_info` as `music_id`, `music_volume`, `music_start_ms`,
 * `music_end_ms`, `original_sound_volume`, `location_id`, `location_name`, `cover_image_url`.
 */
import type { PlatformAdapter } from '../../../core/ports/platform';
import { httpUrl, millis, oneOf } from '../kit/env';
import { systemNow, trimBase, type Now } from '../kit/http';
import { defineNetwork } from '../kit/network';
import { createTikTokAnalytics } from './analytics';
import { createTikTokClient } from './client';
import { createTikTokComments } from './comments';
import { createTikTokConnect, TIKTOK_AUTH_BASE, TIKTOK_SCOPES } from './connect';
import { tiktokDescriptor } from './descriptor';
import { createTikTokLookups } from './lookups';
import { createTikTokMediaLibrary } from './media';
import { createTikTokPublisher } from './publish';

export { mapTikTokFailure, type TikTokOutcome } from './client';
export { TIKTOK_AUTH_BASE, TIKTOK_SCOPES } from './connect';
export * from './descriptor';
export { TIKTOK_PRIVACY_LEVELS, tiktokSettings } from './settings';

export const TIKTOK_API_BASE = 'https://open.tiktokapis.com';
export const TIKTOK_BUSINESS_API_BASE = 'https://business-api.tiktok.com/open_api';

export interface TikTokPlatformOptions {
  /** The app's client key. */
  clientId: string;
  clientSecret: string;
  /** Default https://open.tiktokapis.com (API and token endpoint); a simulator in tests and the sandbox. */
  apiBase?: string;
  /** Default https://www.tiktok.com (the authorize page). */
  authBase?: string;
  /** Default https://business-api.tiktok.com/open_api (first comments). */
  businessApiBase?: string;
  scopes?: readonly string[];
  /** How videos reach TikTok: pushed in chunks (default), or pulled from a verified public URL. */
  videoSource?: 'FILE_UPLOAD' | 'PULL_FROM_URL';
  /** Chunk size for videos of 5 MB and more; clamped to 5–64 MB. Default 10 MB. */
  chunkSizeBytes?: number;
  /** Delay between status polls while TikTok processes. Default 5 s. */
  pollIntervalMs?: number;
  /** Polls while processing before giving up. Default 360 (30 min at 5 s). */
  maxStatusPolls?: number;
  /** After PUBLISH_COMPLETE without a post id: delay between polls and how many. Default 15 s × 12. */
  postIdPollIntervalMs?: number;
  postIdPolls?: number;
  timeoutMs?: number;
  /** Per uploaded chunk. Default 120 s. */
  uploadTimeoutMs?: number;
  fetch?: typeof fetch;
  /** Clock for token expiry and restriction ends. */
  now?: Now;
}

export function createTikTokPlatform(opts: TikTokPlatformOptions): PlatformAdapter {
  const client = createTikTokClient({
    apiBase: trimBase(opts.apiBase ?? TIKTOK_API_BASE),
    businessBase: trimBase(opts.businessApiBase ?? TIKTOK_BUSINESS_API_BASE),
    timeoutMs: opts.timeoutMs ?? 15_000,
    uploadTimeoutMs: opts.uploadTimeoutMs ?? 120_000,
    fetch: opts.fetch ?? fetch,
    now: opts.now ?? systemNow,
  });
  const { oauth, refresher } = createTikTokConnect(client, {
    clientId: opts.clientId, clientSecret: opts.clientSecret,
    authBase: trimBase(opts.authBase ?? TIKTOK_AUTH_BASE), scopes: opts.scopes ?? TIKTOK_SCOPES,
  });
  return {
    descriptor: tiktokDescriptor,
    oauth,
    refresher,
    comments: createTikTokComments(client),
    mediaLibrary: createTikTokMediaLibrary(client),
    lookups: createTikTokLookups(client),
    analytics: createTikTokAnalytics(client),
    publisher: createTikTokPublisher(client, {
      videoSource: opts.videoSource ?? 'FILE_UPLOAD',
      chunkSizeBytes: opts.chunkSizeBytes,
      pollIntervalMs: opts.pollIntervalMs ?? 5000,
      maxStatusPolls: opts.maxStatusPolls ?? 360,
      postIdPollIntervalMs: opts.postIdPollIntervalMs ?? 15_000,
      postIdPolls: opts.postIdPolls ?? 12,
    }),
  };
}

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
