/** Instagram's numbers (Content Publishing docs and the spec's media limits), shared by the descriptor, its settings and the publisher. */
import { codePointLength } from '../../../core/ports/platform';

export const MAX_CAROUSEL = 10;
export const MAX_CAPTION = 2200;
export const MAX_HASHTAGS = 30;
export const MAX_MENTIONS = 20;
export const MAX_ALT_TEXT = 1000;
export const MAX_IMAGE_BYTES = 8 * 1024 * 1024;
export const MAX_VIDEO_BYTES = 300 * 1024 * 1024;
export const REELS_MAX_SECONDS = 90;
/** Meta's limits for story and carousel videos (not in the spec's table). */
export const STORY_OR_CAROUSEL_VIDEO_MAX_SECONDS = 60;
export const VIDEO_MIN_SECONDS = 3;
export const MP4_CONTAINER = 'mov,mp4,m4a,3gp,3g2,mj2';
export const PHOTO_TYPES = ['image/jpeg', 'image/png'];
/** Captions and comments are counted in code points, by intake and by the adapter. */
export const captionLength = codePointLength;
