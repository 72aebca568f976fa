import { codePointLength, type PlatformDescriptor } from '../../../core/ports/platform';
import { tiktokSettings } from './settings';
import { ALL_BUT_REPLY } from '../../../core/domain/comments';

export const MB = 1024 * 1024;

export const tiktokDescriptor: PlatformDescriptor = {
  id: 'tiktok',
  displayName: 'TikTok',
  connect: 'oauth',
  endpoints: ['video', 'photo'],
  limits: {
    // A video's caption (title), counted in code points as the publisher counts it. Photo titles
    // have their own limit of 90, which the publisher checks.
    textMaxChars: 2200,
    textLength: codePointLength,
    // TikTok takes 4 GB; the service caps uploads at 3 GB.
    video: {
      maxBytes: 3 * 1024 * MB, minSeconds: 3, maxSeconds: 600,
      containers: ['mov,mp4,m4a,3gp,3g2,mj2', 'matroska,webm'], minShortSidePx: 360, minFps: 23, maxFps: 60,
    },
    // TikTok refuses PNG photos.
    photo: { maxBytes: 20 * MB, maxCount: 35, contentTypes: ['image/jpeg', 'image/webp'] },
  },
  settings: tiktokSettings,
  rules: { dailyCap: 15, perMinuteCap: 6, excludedPlans: ['free'] },
  comments: {
    operations: ALL_BUT_REPLY, create: 'post_required', actions: ['hide', 'unhide', 'like', 'unlike', 'pin', 'unpin'],
    actionsNeedingPost: ['hide', 'unhide', 'pin', 'unpin'], listReplies: true, capability: 'comments', createdAnswer: 'result',
    notes: { delete: 'its own comments only' },
  },
  analytics: { livePostMetrics: true, impressionsMetrics: ['views', 'impressions'] },
  mediaLibrary: {},
};

