/** What Herald knows about Instagram without calling it: limits and rules, read by intake and the adapter alike. */
import type { PlatformDescriptor } from '../../../core/ports/platform';
import {
  captionLength, MAX_CAPTION, MAX_CAROUSEL, MAX_IMAGE_BYTES, MAX_VIDEO_BYTES, MP4_CONTAINER, PHOTO_TYPES, REELS_MAX_SECONDS, VIDEO_MIN_SECONDS,
} from './limits';
import { instagramSettings } from './settings';
import { ALL_BUT_REPLY } from '../../../core/domain/comments';

export const instagramDescriptor: PlatformDescriptor = {
  id: 'instagram',
  displayName: 'Instagram',
  connect: 'oauth',
  endpoints: ['video', 'photo'],
  limits: {
    textMaxChars: MAX_CAPTION,
    textLength: captionLength,
    video: { maxBytes: MAX_VIDEO_BYTES, minSeconds: VIDEO_MIN_SECONDS, maxSeconds: REELS_MAX_SECONDS, containers: [MP4_CONTAINER] },
    // The spec takes JPG and PNG; the publishing API takes JPEG only ("Format: JPEG"), so a PNG is
    // published as its JPEG rendition.
    photo: { maxBytes: MAX_IMAGE_BYTES, maxCount: MAX_CAROUSEL, contentTypes: PHOTO_TYPES, minAspectRatio: 0.8, maxAspectRatio: 1.91 },
  },
  settings: instagramSettings,
  rules: { dailyCap: 50, videoInPhotos: true },
  comments: {
    operations: [...ALL_BUT_REPLY, 'reply', 'public_reply'], create: 'reply_only',
    actions: ['hide', 'unhide', 'enable_comments', 'disable_comments'],
    actionsNeedingPost: ['enable_comments', 'disable_comments'], postActions: ['enable_comments', 'disable_comments'],
  },
  analytics: { livePostMetrics: true, impressionsMetrics: ['reach'] },
  mediaLibrary: {},
};
