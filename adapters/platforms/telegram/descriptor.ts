import { codePointLength, type PlatformDescriptor } from '../../../core/ports/platform';
import { telegramCredentialFields, telegramSettings } from './settings';

/** One message's text (sendMessage). */
export const TELEGRAM_MESSAGE_MAX = 4096;
/** A photo's or video's caption. */
export const TELEGRAM_CAPTION_MAX = 1024;
/**
 * Longer text is split into several messages (with a warning): at most this many, so a post stays
 * a post and not a book. The descriptor's text limit is this many full messages.
 */
export const TELEGRAM_MAX_MESSAGES = 10;
/** Bot API uploads: photos 10 MB, other files 50 MB. */
export const TELEGRAM_PHOTO_MAX_BYTES = 10 * 1000 * 1000;
export const TELEGRAM_FILE_MAX_BYTES = 50 * 1000 * 1000;
/** Photos per album (sendMediaGroup takes 2-10 items). */
export const TELEGRAM_ALBUM_MAX = 10;

export const telegramDescriptor: PlatformDescriptor = {
  id: 'telegram',
  displayName: 'Telegram',
  connect: 'credentials',
  endpoints: ['text', 'photo', 'video'],
  // Counted in code points; the publisher checks with the same function.
  limits: {
    textMaxChars: TELEGRAM_MESSAGE_MAX * TELEGRAM_MAX_MESSAGES,
    textLength: codePointLength,
    // sendPhoto: at most 10 MB, width + height at most 10000, ratio at most 20.
    photo: {
      maxCount: TELEGRAM_ALBUM_MAX, maxBytes: TELEGRAM_PHOTO_MAX_BYTES, contentTypes: ['image/jpeg', 'image/png', 'image/webp'],
      minAspectRatio: 1 / 20, maxAspectRatio: 20,
    },
    // sendVideo plays MPEG-4 inline; bots upload up to 50 MB.
    video: { maxBytes: TELEGRAM_FILE_MAX_BYTES, containers: ['mov,mp4,m4a,3gp,3g2,mj2'] },
  },
  settings: telegramSettings,
  credentialFields: telegramCredentialFields,
  posts: { notes: { unpublish: 'every message of the post' } },
};
