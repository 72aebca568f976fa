/** What TikTok must refuse fails here, before anything is sent. */
import type { MediaRef } from '../../../core/domain/media';
import { textLengthOf, type PublishPost } from '../../../core/ports/platform';
import { fail } from './client';
import { MB, tiktokDescriptor } from './descriptor';
import { isMediaRef } from './plan';
import { PHOTO_DESCRIPTION_MAX } from './settings';

const PHOTO_TITLE_MAX = 90;
const COVER_IMAGE_MAX_BYTES = 20 * MB;
const COVER_IMAGE_TYPES = ['image/jpeg', 'image/webp', 'image/png'];

export const chars = (text: string) => textLengthOf(tiktokDescriptor, text);
export const invalid = (code: string, message: string) => fail({ kind: 'invalid_content', code }, message);

export function validateVideo(post: PublishPost): MediaRef {
  const limits = tiktokDescriptor.limits.video!;
  const [video, ...rest] = post.media;
  if (!video || rest.length || video.kind !== 'video') {
    throw invalid('media_count', 'A TikTok video post takes exactly one video.');
  }
  if (video.size > limits.maxBytes!) throw invalid('video_too_large', `TikTok videos are limited to ${limits.maxBytes! / 1024 / MB} GB here; this one has ${video.size} bytes.`);
  const info = video.info;
  if (info?.durationSeconds != null && (info.durationSeconds < limits.minSeconds! || info.durationSeconds > limits.maxSeconds!)) {
    throw invalid('video_duration', `TikTok videos last ${limits.minSeconds}-${limits.maxSeconds} s; this one lasts ${info.durationSeconds} s.`);
  }
  if (info?.container != null && !limits.containers!.includes(info.container)) {
    throw invalid('video_format', `TikTok takes MP4, MOV or WebM videos; this one is ${info.container}.`);
  }
  if (info?.width != null && info.height != null && Math.min(info.width, info.height) < limits.minShortSidePx!) {
    throw invalid('video_resolution', `TikTok needs at least ${limits.minShortSidePx} px on the short side; this video is ${info.width}x${info.height}.`);
  }
  if (info?.frameRate != null && (info.frameRate < limits.minFps! || info.frameRate > limits.maxFps!)) {
    throw invalid('video_frame_rate', `TikTok takes ${limits.minFps}-${limits.maxFps} fps; this video has ${info.frameRate}.`);
  }
  const max = tiktokDescriptor.limits.textMaxChars!;
  if (chars(post.title) > max) throw invalid('text_too_long', `TikTok video titles are limited to ${max} characters; this one has ${chars(post.title)}.`);
  const cover = post.settings.tiktok_cover_image;
  if (isMediaRef(cover) && (!COVER_IMAGE_TYPES.includes(cover.contentType) || cover.size > COVER_IMAGE_MAX_BYTES)) {
    throw invalid('cover_image_invalid', 'tiktok_cover_image must be a JPG, WebP or PNG image of at most 20 MB.');
  }
  const coverAt = post.settings.cover_timestamp;
  if (typeof coverAt === 'number' && info?.durationSeconds != null && coverAt > info.durationSeconds * 1000) {
    throw invalid('cover_timestamp_out_of_range', `cover_timestamp ${coverAt} ms is past the end of the video (${Math.round(info.durationSeconds * 1000)} ms).`);
  }
  return video;
}

export function validatePhotos(post: PublishPost, description: string | undefined): MediaRef[] {
  const limits = tiktokDescriptor.limits.photo!;
  if (!post.media.length || post.media.length > limits.maxCount!) {
    throw invalid('media_count', `A TikTok photo post takes 1-${limits.maxCount} photos; this one has ${post.media.length}.`);
  }
  post.media.forEach((photo, i) => {
    if (photo.kind !== 'image') throw invalid('media_kind', 'TikTok photo posts take images only.');
    if (!limits.contentTypes!.includes(photo.contentType)) {
      throw invalid('photo_format', `TikTok takes JPG or WebP photos; photo ${i + 1} is ${photo.contentType}.`);
    }
    if (photo.size > limits.maxBytes!) throw invalid('photo_too_large', `TikTok photos are limited to 20 MB; photo ${i + 1} has ${photo.size} bytes.`);
  });
  if (chars(post.title) > PHOTO_TITLE_MAX) {
    throw invalid('text_too_long', `TikTok photo titles are limited to ${PHOTO_TITLE_MAX} characters; this one has ${chars(post.title)}.`);
  }
  if (description !== undefined && chars(description) > PHOTO_DESCRIPTION_MAX) {
    throw invalid('text_too_long', `tiktok_description is limited to ${PHOTO_DESCRIPTION_MAX} characters; this one has ${chars(description)}.`);
  }
  const cover = post.settings.photo_cover_index;
  if (typeof cover === 'number' && cover >= post.media.length) {
    throw invalid('photo_cover_index', `photo_cover_index ${cover} is past the last of ${post.media.length} photos.`);
  }
  return post.media;
}


