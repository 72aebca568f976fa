/** A post as the tweets of a thread: media checks, image grouping, text splitting, and each tweet's body. */
import { PlatformError } from '../../../core/domain/errors';
import type { MediaRef } from '../../../core/domain/media';
import type { PublishPost } from '../../../core/ports/platform';
import type { Json } from '../kit/http';
import { GIF_MAX_BYTES, xDescriptor } from './descriptor';
import { checkXSettings, isGif } from './settings';
import { LONG_POST_MAX_WEIGHT, splitIntoThread, stripLinks, xWeightedLength } from './text';

const IMAGES_PER_TWEET = 4;
const STILL_IMAGE_MAX_BYTES = 5 * 1024 * 1024;

export interface PlannedTweet {
  text: string;
  /** Indexes into post.media. */
  media: number[];
}

/** The JSON that crosses the workflow between steps. */
export interface XPublishState {
  v: 1;
  tweets: PlannedTweet[];
  /** X media id per post.media index. */
  mediaIds: string[];
  /** post.media indexes X is still processing. */
  processing: number[];
  /** Tweet ids posted so far, in thread order. */
  posted: string[];
  /** Failed attempts on the next tweet once the thread is partly live. */
  attempts: number;
  warnings: string[];
}

export function isPublishState(value: Record<string, unknown>): value is Record<string, unknown> & XPublishState {
  return value.v === 1 && Array.isArray(value.tweets) && Array.isArray(value.mediaIds) && Array.isArray(value.processing)
    && Array.isArray(value.posted) && typeof value.attempts === 'number' && Array.isArray(value.warnings);
}

export const invalid = (code: string, message: string) => new PlatformError('x', { kind: 'invalid_content', code }, message);

function checkMedia(post: PublishPost): void {
  const { kind, media } = post;
  if (kind === 'text') {
    if (media.length) throw invalid('unsupported_media', 'An X text post carries no media.');
    return;
  }
  if (kind === 'video') {
    const [video] = media;
    if (media.length !== 1 || video?.kind !== 'video') throw invalid('unsupported_media', 'An X video post carries exactly one video.');
    const limits = xDescriptor.limits.video!;
    const info = video.info;
    if (!['video/mp4', 'video/quicktime'].includes(video.contentType)) throw invalid('video_format', `X takes MP4 or MOV videos, not ${video.contentType}.`);
    if (video.size > limits.maxBytes!) throw invalid('video_too_large', `X videos are at most 8 GB; this one has ${video.size} bytes.`);
    if (info?.container && !limits.containers!.includes(info.container)) throw invalid('video_format', `X takes MP4 or MOV videos; this one is ${info.container}.`);
    if (info?.durationSeconds != null && info.durationSeconds > limits.maxSeconds!) {
      throw invalid('video_too_long', `X videos are at most ${limits.maxSeconds! / 60} minutes; this one lasts ${Math.round(info.durationSeconds)} s.`);
    }
    if (info?.durationSeconds != null && info.durationSeconds < limits.minSeconds!) throw invalid('video_too_short', 'X videos last at least 0.5 s.');
    if (info?.frameRate != null && info.frameRate > limits.maxFps!) throw invalid('video_format', `X videos are at most 60 fps; this one has ${info.frameRate}.`);
    return;
  }
  if (!media.length) throw invalid('media_missing', 'An X photo post needs at least one image.');
  const types = xDescriptor.limits.photo!.contentTypes!;
  media.forEach((image, i) => {
    if (image.kind !== 'image') throw invalid('unsupported_media', 'X does not take videos on the photo endpoint; publish the video on its own.');
    if (!types.includes(image.contentType)) throw invalid('photo_format', `Image ${i + 1} is ${image.contentType}; X takes ${types.join(', ')}.`);
    const max = isGif(image) ? GIF_MAX_BYTES : STILL_IMAGE_MAX_BYTES;
    if (image.size > max) throw invalid('photo_too_large', `Image ${i + 1} has ${image.size} bytes; X takes at most ${max / 1024 / 1024} MB.`);
  });
}

/** Which images go in which tweet: the layout setting, else groups of 4 with every GIF on its own. */
function imageGroups(media: MediaRef[], layout: unknown): number[][] {
  if (Array.isArray(layout)) {
    let next = 0;
    const groups = layout.map((n) => Array.from({ length: Number(n) }, () => next++));
    const badGroup = groups.findIndex((g) => g.length > 1 && g.some((i) => isGif(media[i]!)));
    if (badGroup >= 0) throw invalid('photo_layout', `x_thread_image_layout puts a GIF together with other images in tweet ${badGroup + 1}; X shows a GIF alone.`);
    return groups;
  }
  const groups: number[][] = [];
  let current: number[] = [];
  media.forEach((image, i) => {
    if (isGif(image)) {
      if (current.length) groups.push(current);
      groups.push([i]);
      current = [];
      return;
    }
    current.push(i);
    if (current.length === IMAGES_PER_TWEET) {
      groups.push(current);
      current = [];
    }
  });
  if (current.length) groups.push(current);
  return groups;
}

/** Turns the post into the tweets of the thread; throws invalid_content for what X would refuse. */
export function planThread(post: PublishPost, keepLinks: boolean): { tweets: PlannedTweet[]; warnings: string[] } {
  const violations = checkXSettings(post.settings, { mediaCount: post.media.length });
  if (violations.length) throw invalid('invalid_settings', violations.map((v) => v.message).join('; '));
  checkMedia(post);

  const warnings: string[] = [];
  let text = post.title.trim();
  if (!keepLinks) {
    const stripped = stripLinks(text);
    if (stripped.removed) warnings.push(`${stripped.removed} link(s) were removed from the X post text: X shows links only on accounts with the link add-on.`);
    text = stripped.text;
  }
  let parts: string[];
  // The descriptor's limit holds for a thread too: beyond it, nothing is sent (a 90-tweet thread is no answer).
  const weight = xWeightedLength(text);
  if (weight > LONG_POST_MAX_WEIGHT) {
    throw invalid('text_too_long', `X takes at most ${LONG_POST_MAX_WEIGHT} characters of text (as one long post with x_long_text_as_post, or as a thread); this text counts ${weight}.`);
  }
  if (post.settings.x_long_text_as_post === true) {
    parts = text ? [text] : [];
  } else {
    parts = splitIntoThread(text);
  }

  const groups = post.kind === 'photo' ? imageGroups(post.media, post.settings.x_thread_image_layout) : post.kind === 'video' ? [[0]] : [];
  const count = Math.max(parts.length, groups.length);
  if (count === 0) throw invalid('text_empty', post.title.trim() ? 'The X post text is empty once its links are removed.' : 'The X post has no text.');
  const tweets = Array.from({ length: count }, (_, i) => ({ text: parts[i] ?? '', media: groups[i] ?? [] }));
  const empty = tweets.findIndex((t) => !t.text && !t.media.length);
  if (empty >= 0) throw invalid('photo_layout', `Tweet ${empty + 1} of the thread would have neither text nor images: x_thread_image_layout has more text-only tweets than the text has parts.`);
  return { tweets, warnings };
}

export const ids = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

/**
 * The POST /2/tweets body of tweet `index`. Conversation-level choices (reply target, quote,
 * community, place, DM link) go on the first tweet; labels and audience choices on every tweet,
 * so no part of a thread is less restricted or less labelled than its start.
 */
export function tweetBody(state: XPublishState, index: number, settings: Record<string, unknown>): Json {
  const tweet = state.tweets[index]!;
  const body: Json = {};
  if (tweet.text) body.text = tweet.text;
  if (tweet.media.length) {
    body.media = { media_ids: tweet.media.map((i) => state.mediaIds[i]!) };
    const tagged = ids(settings.tagged_user_ids);
    if (tagged.length) (body.media as Json).tagged_user_ids = tagged;
  }
  if (index > 0) {
    body.reply = { in_reply_to_tweet_id: state.posted[index - 1]! };
  } else {
    if (typeof settings.reply_to_id === 'string') {
      const exclude = ids(settings.exclude_reply_user_ids);
      body.reply = { in_reply_to_tweet_id: settings.reply_to_id, ...(exclude.length ? { exclude_reply_user_ids: exclude } : {}) };
    }
    if (typeof settings.quote_tweet_id === 'string') body.quote_tweet_id = settings.quote_tweet_id;
    if (typeof settings.community_id === 'string') body.community_id = settings.community_id;
    if (settings.share_with_followers === true) body.share_with_followers = true;
    if (typeof settings.geo_place_id === 'string') body.geo = { place_id: settings.geo_place_id };
    if (typeof settings.direct_message_deep_link === 'string') body.direct_message_deep_link = settings.direct_message_deep_link;
  }
  if (typeof settings.reply_settings === 'string') body.reply_settings = settings.reply_settings;
  if (settings.for_super_followers_only === true) body.for_super_followers_only = true;
  if (settings.nullcast === true) body.nullcast = true;
  if (settings.made_with_ai === true) body.made_with_ai = true;
  if (settings.x_paid_partnership === true) body.paid_partnership = true;
  return body;
}

