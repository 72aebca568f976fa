/** A post checked against Bluesky's limits and settings before anything is sent. */
import { PlatformError } from '../../../core/domain/errors';
import { textLengthOf, type MediaRef, type PublishPost } from '../../../core/ports/platform';
import { blueskyDescriptor, IMAGE_MAX_BYTES, TEXT_MAX_GRAPHEMES } from './descriptor';
import {
  disablesQuotes, GALLERY_MAX_IMAGES, IMAGES_PER_POST, parseAltTexts, parsePostRef, parseThreadgate, type PostRef, type ThreadgateRule,
} from './settings';
import { utf8Length } from './text';

/** app.bsky.feed.post: at most 3000 UTF-8 bytes besides the 300 graphemes. */
const TEXT_MAX_BYTES = 3000;

export const VIDEO_TYPES: Record<string, string> = { 'video/mp4': 'mp4', 'video/quicktime': 'mov', 'video/webm': 'webm', 'video/mpeg': 'mpeg' };

export interface PostPlan {
  text: string;
  images: MediaRef[];
  video?: MediaRef;
  alts: string[];
  langs: string[];
  labels: string[];
  allow?: ThreadgateRule[];
  disableQuotes: boolean;
  quote?: PostRef;
  gallery: boolean;
  warnings: string[];
}

export const invalid = (code: string, message: string) => new PlatformError('bluesky', { kind: 'invalid_content', code }, message);

export function checkText(text: string, allowEmpty: boolean): void {
  if (!allowEmpty && !text.trim()) throw invalid('text_empty', 'Bluesky cannot post an empty text.');
  const count = textLengthOf(blueskyDescriptor, text);
  if (count > TEXT_MAX_GRAPHEMES) throw invalid('text_too_long', `Bluesky posts are limited to ${TEXT_MAX_GRAPHEMES} characters; this text has ${count}.`);
  if (utf8Length(text) > TEXT_MAX_BYTES) throw invalid('text_too_long', `Bluesky posts are limited to ${TEXT_MAX_BYTES} bytes of UTF-8; this text has ${utf8Length(text)}.`);
}

/** Validates the post against Bluesky's limits; throws invalid_content before anything is sent. */
export function planPost(post: PublishPost): PostPlan {
  const s = post.settings;
  const warnings: string[] = [];
  const alts = parseAltTexts(s.bluesky_alt_text);
  if ('error' in alts) throw invalid('invalid_setting', alts.error);
  const gate = parseThreadgate((s.bluesky_threadgate as string[] | undefined) ?? []);
  if ('error' in gate) throw invalid('invalid_setting', gate.error);
  const quote = typeof s.bluesky_quote_uri === 'string' && s.bluesky_quote_uri ? parsePostRef(s.bluesky_quote_uri) : undefined;
  if (typeof s.bluesky_quote_uri === 'string' && s.bluesky_quote_uri && !quote) throw invalid('invalid_setting', 'bluesky_quote_uri is not a Bluesky post URL or at:// URI.');
  const base = {
    text: post.title,
    alts,
    langs: (s.bluesky_langs as string[] | undefined) ?? [],
    labels: (s.bluesky_labels as string[] | undefined) ?? [],
    ...(gate.allow ? { allow: gate.allow } : {}),
    disableQuotes: disablesQuotes(s.bluesky_postgate),
    ...(quote ? { quote } : {}),
    gallery: s.bluesky_gallery === true,
    warnings,
  };

  if (post.kind === 'text') {
    checkText(post.title, false);
    if (post.media.length) warnings.push(`Bluesky text posts carry no media; ${post.media.length} file(s) were ignored.`);
    return { ...base, images: [] };
  }

  if (post.kind === 'video') {
    checkText(post.title, true);
    const [video, ...rest] = post.media;
    if (!video || video.kind !== 'video') throw invalid('media_missing', 'A Bluesky video post needs one video file.');
    if (rest.length) warnings.push(`Bluesky posts take one video; ${rest.length} more file(s) were dropped.`);
    const limits = blueskyDescriptor.limits.video!;
    if (!VIDEO_TYPES[video.contentType]) throw invalid('media_type_unsupported', `Bluesky takes MP4, MOV, WebM or MPEG videos, not ${video.contentType}.`);
    if (video.size > limits.maxBytes!) {
      throw invalid('media_too_large', `Bluesky videos are limited to ${limits.maxBytes! / 1_000_000} MB; this one has ${(video.size / 1_000_000).toFixed(1)} MB.`);
    }
    const seconds = video.info?.durationSeconds;
    if (seconds != null && seconds > limits.maxSeconds!) {
      throw invalid('video_too_long', `Bluesky videos are limited to ${limits.maxSeconds! / 60} minutes; this one lasts ${Math.ceil(seconds)} s.`);
    }
    const container = video.info?.container;
    if (container && !limits.containers!.includes(container)) throw invalid('media_type_unsupported', `Bluesky does not take ${container} videos.`);
    return { ...base, images: [], video };
  }

  checkText(post.title, true);
  if (!post.media.length) throw invalid('media_missing', 'A Bluesky photo post needs at least one image.');
  const cap = base.gallery ? GALLERY_MAX_IMAGES : IMAGES_PER_POST;
  const images = post.media.slice(0, cap);
  if (post.media.length > cap) {
    warnings.push(`Bluesky takes ${cap} images${base.gallery ? ' in a gallery' : ' per post (send bluesky_gallery=true for up to 20)'}; `
      + `the last ${post.media.length - cap} were dropped.`);
  }
  const { contentTypes } = blueskyDescriptor.limits.photo!;
  images.forEach((image, i) => {
    if (image.kind !== 'image' || !contentTypes!.includes(image.contentType)) {
      throw invalid('media_type_unsupported', `Bluesky photo posts take JPEG, PNG, WebP or GIF images; photo ${i + 1} is ${image.contentType}.`);
    }
    if (image.size > IMAGE_MAX_BYTES) {
      throw invalid('media_too_large', `Bluesky images are limited to 1 MB (${IMAGE_MAX_BYTES} bytes); photo ${i + 1} has ${image.size} bytes.`);
    }
  });
  if (alts.length > images.length) warnings.push(`bluesky_alt_text has ${alts.length} texts for ${images.length} images; the extra texts were ignored.`);
  return { ...base, images };
}
