/**
 * Publishing Pins:
 * - photo: POST /v5/pins with `media_source.source_type` `image_url` (one photo) or
 *   `multiple_image_urls` (carousel of 2-5); Pinterest fetches the images from the media store's
 *   public URLs itself.
 * - video: POST /v5/media `{media_type:"video"}` → multipart POST of every `upload_parameters`
 *   field plus `file` to `upload_url` (an S3 form upload) → GET /v5/media/{id} until `succeeded`
 *   (wait steps) → POST /v5/pins with `source_type:"video_id"`.
 * Pinterest takes no idempotency key, so `ctx.idempotencyKey` is unused.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { MediaRef } from '../../../core/domain/media';
import { codePointLength, textLengthOf, type PublishContext, type Publisher, type PublishOutcome, type PublishPost, type PublishStep } from '../../../core/ports/platform';
import { callDeadline, collectAll, isObject, str, strList, type Json } from '../kit/http';
import { PINTEREST_VIDEO_NOT_READY_CODE, type PinterestClient, type PinterestOutcome } from './client';
import { pinterestDescriptor } from './descriptor';
import { ALT_TEXT_MAX, CAROUSEL_MAX, CAROUSEL_MIN, checkPinterestSettings, DESCRIPTION_MAX, isHttpUrl, TITLE_MAX } from './settings';

/** The spec: a transient save refusal is retried twice, after 15 s and then 30 s, before failing. */
export const PINTEREST_SAVE_RETRY_DELAYS_MS: readonly number[] = [15_000, 30_000];
/** Media status polling: 2 s doubling to 30 s; about 40 minutes in all before giving up. */
const FIRST_POLL_MS = 2_000;
const MAX_POLL_MS = 30_000;
const MAX_POLLS = 85;

const invalid = (code: string, message: string) => new PlatformError('pinterest', { kind: 'invalid_content', code }, message);

/** Where a video publish stands between steps; plain JSON, resumed with the same post. */
type VideoState =
  | { stage: 'processing'; mediaId: string; polls: number }
  | { stage: 'save'; mediaId: string; saveAttempts: number };

function readState(state: Record<string, unknown>): VideoState {
  const { stage, mediaId } = state;
  if (typeof mediaId === 'string' && mediaId) {
    if (stage === 'processing' && typeof state.polls === 'number') return { stage, mediaId, polls: state.polls };
    if (stage === 'save' && typeof state.saveAttempts === 'number') return { stage, mediaId, saveAttempts: state.saveAttempts };
  }
  throw new PlatformError('pinterest', { kind: 'rejected', code: 'invalid_state' }, 'The Pinterest publish state is not one this adapter wrote; publish again.');
}

export function createPinterestPublisher(client: PinterestClient): Publisher {
  const { limits } = pinterestDescriptor;

  // ----- validation before anything is sent

  /** The Pin fields common to every kind, checked and mapped from the settings. */
  function pinFields(post: PublishPost): Json {
    const settings = post.settings;
    const violations = checkPinterestSettings(settings, { endpoint: post.kind, mediaCount: post.media.length });
    if (violations.length) throw invalid('invalid_settings', violations.map((v) => v.message).join(' '));
    const title = post.title.trim();
    if (textLengthOf(pinterestDescriptor, title) > TITLE_MAX) {
      throw invalid('title_too_long', `The Pinterest title (pinterest_title or title) is at most ${TITLE_MAX} characters; this one has ${textLengthOf(pinterestDescriptor, title)}.`);
    }
    const description = str(settings.pinterest_description) ?? title;
    if (codePointLength(description) > DESCRIPTION_MAX) {
      throw invalid('description_too_long', `pinterest_description is at most ${DESCRIPTION_MAX} characters; this one has ${codePointLength(description)}.`);
    }
    const altText = str(settings.pinterest_alt_text);
    if (altText !== undefined && codePointLength(altText) > ALT_TEXT_MAX) {
      throw invalid('alt_text_too_long', `pinterest_alt_text is at most ${ALT_TEXT_MAX} characters.`);
    }
    const link = str(settings.pinterest_link);
    if (link !== undefined && !isHttpUrl(link)) throw invalid('invalid_link', 'pinterest_link must be an http(s) URL.');
    const note = post.description?.trim();
    return {
      board_id: settings.pinterest_board_id as string,
      ...(title ? { title } : {}),
      ...(description ? { description } : {}),
      ...(link ? { link } : {}),
      ...(altText ? { alt_text: altText } : {}),
      // The common `description` field is the Pin's private note (spec: "Pinterest notes").
      ...(note ? { note } : {}),
    };
  }

  function checkPhotos(media: MediaRef[]): void {
    const photo = limits.photo!;
    if (media.length === 0) throw invalid('media_missing', 'A Pinterest photo Pin needs a photo.');
    if (media.length > photo.maxCount!) throw invalid('too_many_photos', `Pinterest takes one photo or a carousel of ${CAROUSEL_MIN} to ${CAROUSEL_MAX}; this post has ${media.length}.`);
    for (const m of media) {
      if (m.kind !== 'image') throw invalid('video_not_allowed', 'Pinterest does not take videos on the photo endpoint; use the video endpoint.');
      if (!photo.contentTypes!.includes(m.contentType)) throw invalid('unsupported_image_type', `Pinterest does not take ${m.contentType} images.`);
      if (m.size > photo.maxBytes!) throw invalid('image_too_large', `Pinterest images are at most ${photo.maxBytes! / 1024 ** 2} MB.`);
    }
  }

  function checkVideo(media: MediaRef[]): MediaRef {
    const video = limits.video!;
    if (media.length !== 1 || media[0]!.kind !== 'video') throw invalid('media_invalid', 'A Pinterest video Pin takes exactly one video.');
    const m = media[0]!;
    if (m.size > video.maxBytes!) throw invalid('video_too_large', 'Pinterest videos are at most 2 GB.');
    const seconds = m.info?.durationSeconds;
    if (typeof seconds === 'number' && (seconds < video.minSeconds! || seconds > video.maxSeconds!)) {
      throw invalid(seconds < video.minSeconds! ? 'video_too_short' : 'video_too_long',
        `Pinterest videos last ${video.minSeconds} s to ${video.maxSeconds! / 60} minutes; this one lasts ${seconds.toFixed(1)} s.`);
    }
    const container = m.info?.container;
    if (container && !video.containers!.includes(container)) throw invalid('unsupported_video_format', `Pinterest takes MP4, MOV or M4V videos, not ${container}.`);
    return m;
  }

  // ----- publishing

  async function createPin(ctx: PublishContext, pin: Json): Promise<Json & { id: string }> {
    return await client.call('POST', '/pins', { token: client.accessToken(ctx.credentials) }, { json: pin },
      { what: 'the created Pin', has: (b) => typeof b.id === 'string' && b.id !== '' }, ctx.signal) as Json & { id: string };
  }

  const outcomeOf = (pin: Json & { id: string }, extra: Record<string, unknown>, warnings: string[]): PublishOutcome => ({
    postId: pin.id,
    url: `https://www.pinterest.com/pin/${pin.id}/`,
    warnings,
    extra: { ...extra, ...(str(pin.board_section_id) ? { board_section_id: pin.board_section_id } : {}) },
  });

  async function publishPhotos(ctx: PublishContext, post: PublishPost): Promise<PublishOutcome> {
    checkPhotos(post.media);
    const pin = pinFields(post);
    const s = post.settings;
    const sectionId = str(s.pinterest_board_section_id);
    const disclosures = strList(s.pinterest_ai_disclosures);
    const urls = post.media.map((m) => ctx.media.publicUrl(m.id));
    let mediaSource: Json;
    if (urls.length === 1) {
      mediaSource = { source_type: 'image_url', url: urls[0] };
    } else {
      const titles = strList(s.pinterest_carousel_titles);
      const descriptions = strList(s.pinterest_carousel_descriptions);
      const links = strList(s.pinterest_carousel_links);
      mediaSource = {
        source_type: 'multiple_image_urls',
        items: urls.map((url, i) => ({
          url,
          ...(titles[i] ? { title: titles[i] } : {}),
          ...(descriptions[i] ? { description: descriptions[i] } : {}),
          ...(links[i] ? { link: links[i] } : {}),
        })),
        ...(typeof s.pinterest_carousel_index === 'number' ? { index: s.pinterest_carousel_index } : {}),
      };
    }
    const created = await createPin(ctx, {
      ...pin,
      ...(sectionId ? { board_section_id: sectionId } : {}),
      ...(disclosures.length ? { ai_disclosures: { values: [...new Set(disclosures)] } } : {}),
      media_source: mediaSource,
    });
    return outcomeOf(created, { board_id: pin.board_id, pin_type: urls.length === 1 ? 'image' : 'carousel' }, []);
  }

  /** POST /v5/media, then the multipart form upload of the bytes to the returned upload_url. */
  async function uploadVideo(ctx: PublishContext, video: MediaRef): Promise<string> {
    const token = client.accessToken(ctx.credentials);
    const registered = await client.call('POST', '/media', { token }, { json: { media_type: 'video' } }, {
      what: 'an upload registration',
      has: (b) => typeof b.media_id === 'string' && typeof b.upload_url === 'string' && isHttpUrl(b.upload_url) && isObject(b.upload_parameters),
    }, ctx.signal);
    const mediaId = registered.media_id as string;

    const form = new FormData();
    for (const [name, value] of Object.entries(registered.upload_parameters as Json)) form.append(name, String(value));
    // S3 ignores form fields after the file, so `file` goes last.
    const bytes = await collectAll(ctx.media.read(video.id));
    form.append('file', new Blob([bytes], { type: video.contentType }), video.filename ?? 'video.mp4');

    const deadline = callDeadline(client.uploadTimeoutMs, ctx.signal);
    let outcome: PinterestOutcome;
    try {
      const res = await client.fetch(registered.upload_url as string, { method: 'POST', body: form, signal: deadline.signal });
      outcome = { kind: 'upload_response', status: res.status, text: await res.text() };
    } catch {
      outcome = { kind: 'no_response', reason: deadline.timedOut ? 'timeout' : ctx.signal?.aborted ? 'aborted' : 'network' };
    } finally {
      deadline.done();
    }
    if (outcome.kind === 'no_response' || outcome.status < 200 || outcome.status >= 300) {
      throw client.failure(outcome, 'upload', client.uploadTimeoutMs);
    }
    return mediaId;
  }

  /** The video Pin's media_source: one cover source, a key frame at 0 s when none is given. */
  function videoSource(mediaId: string, settings: Record<string, unknown>, warnings: string[]): Json {
    const source: Json = { source_type: 'video_id', media_id: mediaId };
    const url = str(settings.pinterest_cover_image_url);
    const data = str(settings.pinterest_cover_image_data);
    if (url) return { ...source, cover_image_url: url };
    if (data) return { ...source, cover_image_content_type: settings.pinterest_cover_image_content_type, cover_image_data: data };
    const ms = typeof settings.pinterest_cover_image_key_frame_time === 'number' ? settings.pinterest_cover_image_key_frame_time : 0;
    const seconds = Math.floor(ms / 1000);
    if (ms % 1000 !== 0) warnings.push(`pinterest_cover_image_key_frame_time ${ms} ms was rounded down to ${seconds} s: Pinterest takes whole seconds.`);
    return { ...source, cover_image_key_frame_time: seconds };
  }

  /** Saves the video Pin; the "not ready" refusal is retried twice, 15 s then 30 s later. */
  async function saveVideoPin(ctx: PublishContext, post: PublishPost, mediaId: string, saveAttempts: number): Promise<PublishStep> {
    const warnings: string[] = [];
    const pin = pinFields(post);
    try {
      const created = await createPin(ctx, { ...pin, media_source: videoSource(mediaId, post.settings, warnings) });
      return { kind: 'done', outcome: outcomeOf(created, { board_id: pin.board_id, pin_type: 'video', media_id: mediaId }, warnings) };
    } catch (err) {
      const notReady = err instanceof PlatformError && err.upstream.code === PINTEREST_VIDEO_NOT_READY_CODE;
      if (!notReady) throw err;
      const delay = PINTEREST_SAVE_RETRY_DELAYS_MS[saveAttempts];
      if (delay === undefined) {
        throw new PlatformError('pinterest', err.failure,
          `${err.message} (still refused after ${PINTEREST_SAVE_RETRY_DELAYS_MS.length} retries).`, err.upstream);
      }
      return { kind: 'wait', afterMs: delay, state: { stage: 'save', mediaId, saveAttempts: saveAttempts + 1 } };
    }
  }

  async function pollVideo(ctx: PublishContext, post: PublishPost, mediaId: string, polls: number): Promise<PublishStep> {
    const media = await client.call('GET', `/media/${encodeURIComponent(mediaId)}`, { token: client.accessToken(ctx.credentials) }, undefined,
      { what: 'the media status', has: (b) => typeof b.status === 'string' }, ctx.signal);
    if (media.status === 'succeeded') return saveVideoPin(ctx, post, mediaId, 0);
    if (media.status === 'failed') throw client.failure({ kind: 'media_failed', mediaId });
    if (polls + 1 >= MAX_POLLS) {
      throw new PlatformError('pinterest', { kind: 'transient' }, `Pinterest is still processing the video (media ${mediaId}, status ${String(media.status)}) after ${polls + 1} checks.`);
    }
    return { kind: 'wait', afterMs: Math.min(FIRST_POLL_MS * 2 ** (polls + 1), MAX_POLL_MS), state: { stage: 'processing', mediaId, polls: polls + 1 } };
  }

  return {
    async publish(ctx, post) {
      if (post.kind === 'photo') return { kind: 'done', outcome: await publishPhotos(ctx, post) };
      if (post.kind !== 'video') throw new PlatformError('pinterest', { kind: 'unsupported' }, 'Pinterest takes photo and video Pins, not text posts.');
      const video = checkVideo(post.media);
      pinFields(post);
      const mediaId = await uploadVideo(ctx, video);
      return { kind: 'wait', afterMs: FIRST_POLL_MS, state: { stage: 'processing', mediaId, polls: 0 } };
    },
    async resume(ctx, post, raw) {
      const state = readState(raw);
      return state.stage === 'processing' ? pollVideo(ctx, post, state.mediaId, state.polls) : saveVideoPin(ctx, post, state.mediaId, state.saveAttempts);
    },
  };
}
