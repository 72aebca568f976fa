/** What Herald knows about Threads without calling it: limits and rules, read by intake and the adapter alike. */
import type { PlatformDescriptor } from '../../../core/ports/platform';
import { MAX_IMAGE_BYTES, MAX_TEXT, MAX_VIDEO_BYTES, MAX_VIDEO_SECONDS, PHOTO_TYPES, threadsTextLength } from './limits';
import { threadsSettings } from './settings';

export const threadsDescriptor: PlatformDescriptor = {
  id: 'threads',
  displayName: 'Threads',
  connect: 'oauth',
  endpoints: ['video', 'photo', 'text'],
  limits: {
    textMaxChars: MAX_TEXT,
    textLength: threadsTextLength,
    video: { maxBytes: MAX_VIDEO_BYTES, maxSeconds: MAX_VIDEO_SECONDS, containers: ['mov,mp4,m4a,3gp,3g2,mj2'] },
    // No maxCount: beyond 20 files the post becomes a thread of carousels.
    photo: { maxBytes: MAX_IMAGE_BYTES, contentTypes: PHOTO_TYPES },
  },
  settings: threadsSettings,
  rules: { dailyCap: 50, videoInPhotos: true },
  comments: { operations: ['list', 'create', 'action'], create: 'any_target', actions: ['hide', 'unhide', 'approve', 'ignore'], actionsNeedingPost: [] },
  analytics: { livePostMetrics: true, impressionsMetrics: ['views', 'impressions'] },
  mediaLibrary: {},
};
