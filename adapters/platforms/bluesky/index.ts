/**
 * Bluesky over XRPC on the account's PDS (docs.bsky.app; atproto lexicons). The account is a handle
 * plus an app password exchanged for a session (connect.ts); posts are app.bsky.feed.post records
 * (publish.ts, records.ts), videos go through the video service (video.ts).
 */
import { createBlueskyAnalytics } from './analytics';
import type { PlatformAdapter } from '../../../core/ports/platform';
import { httpUrl, matching, millis } from '../kit/env';
import { systemNow, trimBase } from '../kit/http';
import { defineNetwork, type CommonOptions } from '../kit/network';
import {
  BLUESKY_APP_URL, BLUESKY_SERVICE, BLUESKY_VIDEO_BASE, BLUESKY_VIDEO_SERVICE_DID, createBlueskyClient, DEFAULT_TIMEOUT_MS, DEFAULT_UPLOAD_TIMEOUT_MS,
} from './client';
import { createBlueskyComments } from './comments';
import { createBlueskyPostEditor } from './posts';
import { createBlueskyConnect } from './connect';
import { blueskyDescriptor } from './descriptor';
import { createBlueskyMediaLibrary } from './media';
import { createBlueskyPublisher } from './publish';
import { createBlueskyRecords } from './records';
import { createBlueskyVideo } from './video';

export {
  BLUESKY_APP_URL, BLUESKY_SERVICE, BLUESKY_VIDEO_BASE, BLUESKY_VIDEO_SERVICE_DID, mapBlueskyFailure, type BlueskyOutcome,
} from './client';
export { blueskyDescriptor } from './descriptor';
export { blueskyCredentialFields, blueskySettings, parseAltTexts, parsePostRef, parseThreadgate, type PostRef } from './settings';

const DEFAULT_VIDEO_POLL_MS = 2_000;
const DEFAULT_VIDEO_MAX_PROCESSING_MS = 30 * 60_000;

export interface BlueskyPlatformOptions extends CommonOptions {
  /** Where sessions are created (default https://bsky.social); later calls go to the PDS its DID document names. */
  apiBase?: string;
  /** The video service (default https://video.bsky.app). */
  videoBase?: string;
  /** The video service's DID, the audience of its service-auth tokens (default did:web:video.bsky.app). */
  videoServiceDid?: string;
  /** The web app that post URLs point to (default https://bsky.app). */
  appUrl?: string;
  /** Byte uploads (images, video). Default 5 min. */
  uploadTimeoutMs?: number;
  /** Delay between video processing polls. Default 2 s. */
  videoPollMs?: number;
  /** A video still processing after this long fails as transient. Default 30 min. */
  videoMaxProcessingMs?: number;
}

export function createBlueskyPlatform(opts: BlueskyPlatformOptions = {}): PlatformAdapter {
  const client = createBlueskyClient({
    timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    uploadTimeoutMs: opts.uploadTimeoutMs ?? DEFAULT_UPLOAD_TIMEOUT_MS,
    fetch: opts.fetch ?? fetch,
    now: opts.now ?? systemNow,
  });
  const { credentials, refresher } = createBlueskyConnect(client, { apiBase: opts.apiBase ?? BLUESKY_SERVICE });
  const records = createBlueskyRecords(client, { appUrl: trimBase(opts.appUrl ?? BLUESKY_APP_URL) });
  const video = createBlueskyVideo(client, records, {
    videoBase: trimBase(opts.videoBase ?? BLUESKY_VIDEO_BASE),
    videoServiceDid: opts.videoServiceDid ?? BLUESKY_VIDEO_SERVICE_DID,
    videoPollMs: opts.videoPollMs ?? DEFAULT_VIDEO_POLL_MS,
    videoMaxProcessingMs: opts.videoMaxProcessingMs ?? DEFAULT_VIDEO_MAX_PROCESSING_MS,
  });
  return {
    descriptor: blueskyDescriptor,
    credentials,
    refresher,
    publisher: createBlueskyPublisher(client, records, video),
    comments: createBlueskyComments(records, client),
    mediaLibrary: createBlueskyMediaLibrary(client, { appUrl: trimBase(opts.appUrl ?? BLUESKY_APP_URL) }),
    postEditor: createBlueskyPostEditor(client),
    analytics: createBlueskyAnalytics(client),
  };
}

export const bluesky = defineNetwork<'bluesky', BlueskyPlatformOptions>({
  id: 'bluesky',
  descriptor: blueskyDescriptor,
  env: {
    apiBase: ['BLUESKY_API_BASE', httpUrl, { meaning: 'Bluesky PDS (XRPC) host that sessions are created on.', default: '`https://bsky.social`' }],
    videoBase: ['BLUESKY_VIDEO_BASE', httpUrl, { meaning: 'Bluesky video service for uploads.', default: '`https://video.bsky.app`' }],
    videoServiceDid: ['BLUESKY_VIDEO_SERVICE_DID', matching(/^did:[a-z]+:\S+$/, 'a DID such as did:web:video.bsky.app'), { meaning: 'DID of the video service the upload token is issued for.', default: '`did:web:video.bsky.app`' }],
    appUrl: ['BLUESKY_APP_URL', httpUrl, { meaning: 'Where Bluesky post links point.', default: '`https://bsky.app`' }],
    videoPollMs: ['BLUESKY_POLL_MS', millis, { meaning: 'Delay between video processing polls (a durable wait each).', default: '2000 (2 s)' }],
  },
  pollOptions: ['videoPollMs'],
  create: createBlueskyPlatform,
});
