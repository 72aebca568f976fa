import { codePointLength, type PlatformDescriptor } from '../../../core/ports/platform';
import { lemmyCredentialFields, lemmySettings } from './settings';

/** Lemmy's longest post body (MAX_BODY_LENGTH in lemmy_utils). */
export const LEMMY_BODY_MAX_CHARS = 10_000;

export const lemmyDescriptor: PlatformDescriptor = {
  id: 'lemmy',
  displayName: 'Lemmy',
  connect: 'credentials',
  endpoints: ['text', 'photo'],
  // The post's name: Lemmy refuses titles over 200 characters (invalid_post_title).
  limits: {
    textMaxChars: 200,
    textLength: codePointLength,
    // One image per post (the post's URL); pict-rs' default cap is 40 MB, instances often set less.
    photo: { maxCount: 1, maxBytes: 40 * 1024 * 1024, contentTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'] },
  },
  settings: lemmySettings,
  credentialFields: lemmyCredentialFields,
  posts: { edit: { title: ['lemmy_title', 'title'], prefix: 'lemmy_' } },
};
