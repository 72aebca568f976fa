/** Threads' numbers (Threads Posts docs and the spec), shared by the descriptor, its settings and the publisher. */
export const MAX_TEXT = 500;
export const MAX_CAROUSEL = 20;
export const MAX_ALT_TEXT = 1000;
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
export const MAX_VIDEO_BYTES = 1024 * 1024 * 1024;
export const MAX_VIDEO_SECONDS = 300;
/** Threads takes JPEG and PNG images as they are (no rendition needed). */
export const PHOTO_TYPES = ['image/jpeg', 'image/png'];

/** Threads counts characters, except that emojis count as their UTF-8 bytes (Threads Posts, Limitations). */
export function threadsTextLength(text: string): number {
  let n = 0;
  for (const ch of text) n += /[\p{Extended_Pictographic}\p{Emoji_Modifier}\u200d\ufe0f]/u.test(ch) ? Buffer.byteLength(ch) : 1;
  return n;
}

