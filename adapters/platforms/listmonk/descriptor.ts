import type { PlatformDescriptor } from '../../../core/ports/platform';
import { listmonkCredentialFields, listmonkSettings } from './settings';

/** Herald's bound on the subject (or the body, when there is no description); listmonk documents none. */
export const TEXT_MAX_CHARS = 100_000;

/** Images one campaign embeds (Herald's bound; listmonk sets none). */
export const LISTMONK_MAX_PHOTOS = 10;
/** Herald's bound per image: a campaign is e-mailed, where large images are a burden; listmonk's own limit is the instance's upload setting. */
export const LISTMONK_PHOTO_MAX_BYTES = 10 * 1024 * 1024;

export const listmonkDescriptor: PlatformDescriptor = {
  id: 'listmonk',
  displayName: 'listmonk',
  connect: 'credentials',
  // The spec lists listmonk for text only; photo is Herald's documented extension (issue 14): the images
  // go to listmonk's media library (POST /api/media) and the campaign body embeds them. No video: listmonk sends e-mail.
  endpoints: ['text', 'photo'],
  limits: {
    textMaxChars: TEXT_MAX_CHARS,
    photo: { maxCount: LISTMONK_MAX_PHOTOS, maxBytes: LISTMONK_PHOTO_MAX_BYTES, contentTypes: ['image/jpeg', 'image/png', 'image/gif'] },
  },
  settings: listmonkSettings,
  credentialFields: listmonkCredentialFields,
};
