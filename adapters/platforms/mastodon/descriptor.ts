import type { PlatformDescriptor } from '../../../core/ports/platform';
import { mastodonCredentialFields, mastodonSettings } from './settings';

/** A default instance's limits (configuration.statuses and configuration.media_attachments of /api/v2/instance). */
export const TEXT_MAX_CHARS = 500;
export const MEDIA_MAX_COUNT = 4;
/** Every URL counts as 23 characters, whatever its length. */
const URL_WEIGHT = 23;
const URL = /https?:\/\/[^\s<>"]+/g;
/** A remote mention counts its local part only: @user@example.social counts as @user. */
const REMOTE_MENTION = /(^|[^\w@])@(\w+)@[\w.-]+\.\w+/g;

/** The length of a status as Mastodon counts it: code points, URLs as 23, remote mentions without their domain. */
export const mastodonLength = (text: string): number =>
  [...text.replace(URL, 'x'.repeat(URL_WEIGHT)).replace(REMOTE_MENTION, '$1@$2')].length;

export const mastodonDescriptor: PlatformDescriptor = {
  id: 'mastodon',
  displayName: 'Mastodon',
  connect: 'credentials',
  endpoints: ['text', 'photo', 'video'],
  limits: {
    textMaxChars: TEXT_MAX_CHARS,
    textLength: mastodonLength,
    photo: { maxBytes: 16 * 1024 * 1024, maxCount: MEDIA_MAX_COUNT, contentTypes: ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/heic', 'image/avif'] },
    video: { maxBytes: 99 * 1024 * 1024, containers: ['mov,mp4,m4a,3gp,3g2,mj2', 'matroska,webm'] },
  },
  settings: mastodonSettings,
  credentialFields: mastodonCredentialFields,
  posts: { notes: { edit: 'the text and mastodon_ fields' }, edit: { prefix: 'mastodon_' } },
};
