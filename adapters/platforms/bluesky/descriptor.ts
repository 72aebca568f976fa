import type { PlatformDescriptor } from '../../../core/ports/platform';
import { blueskyCredentialFields, blueskySettings, GALLERY_MAX_IMAGES } from './settings';
import { graphemeCount } from './text';

/** app.bsky.feed.post: 300 graphemes (and 3000 UTF-8 bytes, checked by the publisher). */
export const TEXT_MAX_GRAPHEMES = 300;
/** app.bsky.embed.images: at most 1,000,000 bytes per image. */
export const IMAGE_MAX_BYTES = 1_000_000;

export const blueskyDescriptor: PlatformDescriptor = {
  id: 'bluesky',
  displayName: 'Bluesky',
  connect: 'credentials',
  endpoints: ['text', 'photo', 'video'],
  limits: {
    // Bluesky counts graphemes (a grapheme may be several code points); the publisher checks with this same function.
    textMaxChars: TEXT_MAX_GRAPHEMES,
    textLength: graphemeCount,
    video: {
      maxBytes: 300_000_000,
      maxSeconds: 600,
      containers: ['mov,mp4,m4a,3gp,3g2,mj2', 'matroska,webm', 'mpeg'],
    },
    photo: {
      maxBytes: IMAGE_MAX_BYTES,
      // 4 per post; more are dropped with a warning (spec), up to 20 with bluesky_gallery.
      maxCount: GALLERY_MAX_IMAGES,
      contentTypes: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'],
    },
  },
  settings: blueskySettings,
  credentialFields: blueskyCredentialFields,
  rules: { dailyCap: 50 },
  comments: { operations: ['list', 'create', 'delete'], create: 'any_target', actions: [], actionsNeedingPost: [], notes: { delete: 'its own replies' } },
  mediaLibrary: {},
};
