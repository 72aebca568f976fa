/**
 * Publishing to a Page: text to /{page}/feed, photos to /{page}/photos (several: unpublished photos
 * attached to one /feed post), photo stories, and videos (file_url or the Resumable Upload API;
 * stories and reels through upload sessions) whose processing is polled with `wait` steps.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { MediaRef, PublishContext, PublishOutcome, Publisher, PublishPost, PublishStep } from '../../../core/ports/platform';
import { codePointLength } from '../../../core/ports/platform';
import { isObject, str, type Json } from '../kit/http';
import { invalid, type FacebookClient } from './client';
import { facebookDescriptor } from './descriptor';
import { choosePage, type FacebookPage } from './pages';
import { readSettings, type FacebookSettings } from './settings';

const WEB = 'https://www.facebook.com';
/** Above this Facebook's own fetch of `file_url` is not relied on: the Resumable Upload API is used. */
const DEFAULT_RESUMABLE_THRESHOLD = 1024 ** 3;
const DEFAULT_POLL_MS = 10_000;
/** Give up polling (and report the video as still processing) after this long. */
const DEFAULT_PROCESSING_TIMEOUT_MS = 60 * 60_000;
/** Consecutive failed status reads tolerated while polling before the publish fails. */
const MAX_POLL_FAILURES = 5;
const STORY_VIDEO_SECONDS = { min: 3, max: 60 };
const REEL_VIDEO_SECONDS = { min: 3, max: 90 };

/** State of a video publish between steps (plain JSON). */
interface VideoState {
  phase: 'video_processing';
  page_id: string;
  video_id: string;
  /** The story's post id (stories); videos and reels are identified by the video id. */
  post_id?: string;
  media_type: FacebookSettings['mediaType'];
  published: boolean;
  started_at: number;
  poll_failures: number;
  warnings: string[];
}

export function createFacebookPublisher(client: FacebookClient): Publisher {
  const { opts, graph, uploadBytes, apiBase, videoApiBase, proof, fail } = client;
  const resumableThreshold = opts.resumableThresholdBytes ?? DEFAULT_RESUMABLE_THRESHOLD;
  const pollMs = opts.pollIntervalMs ?? DEFAULT_POLL_MS;
  const processingTimeoutMs = opts.processingTimeoutMs ?? DEFAULT_PROCESSING_TIMEOUT_MS;
  const limits = facebookDescriptor.limits;

  const permalink = (raw: unknown): string | undefined => {
    const link = str(raw);
    return link?.startsWith('/') ? `${WEB}${link}` : link;
  };

  /** Reads the post's link; the post exists already, so a failure is only a warning. */
  async function postUrl(id: string, page: FacebookPage, signal: AbortSignal | undefined, warnings: string[]): Promise<string | undefined> {
    try {
      return permalink((await graph('GET', `/${id}`, { fields: 'permalink_url' }, { token: page.token, signal })).permalink_url);
    } catch (err) {
      warnings.push(`The post was published but its link could not be read: ${(err as Error).message}`);
      return undefined;
    }
  }

  function checkText(text: string, what: string) {
    const length = codePointLength(text);
    if (length > limits.textMaxChars!) {
      throw invalid('text_too_long', `Facebook ${what} is limited to ${limits.textMaxChars} characters; this one has ${length}.`);
    }
  }

  async function publishText(ctx: PublishContext, post: PublishPost, s: FacebookSettings, page: FacebookPage, singlePage: boolean): Promise<PublishOutcome> {
    const message = s.title ?? post.title;
    if (!message.trim() && !s.link) throw invalid('text_empty', 'Facebook cannot publish an empty post: send a title or facebook_link.');
    checkText(message, 'post text');
    const warnings: string[] = [];
    if (post.media.length) warnings.push('Media sent with a text post were ignored.');
    const created = await graph('POST', `/${page.id}/feed`, { message: message || undefined, link: s.link },
      { token: page.token, signal: ctx.signal, singlePage, expect: 'id' });
    const postId = String(created.id);
    const url = await postUrl(postId, page, ctx.signal, warnings);
    return { postId, ...(url ? { url } : {}), warnings, extra: { page_id: page.id, page_name: page.name } };
  }

  function checkPhotos(media: MediaRef[]) {
    if (!media.length) throw invalid('media_missing', 'A Facebook photo post needs at least one photo.');
    media.forEach((m, i) => {
      if (m.kind !== 'image') throw invalid('unsupported_media', `Facebook rejects videos on the photo endpoint (item ${i + 1}).`);
      if (!limits.photo!.contentTypes!.includes(m.contentType)) {
        throw invalid('unsupported_media', `Facebook photos must be ${limits.photo!.contentTypes!.join(', ')}; item ${i + 1} is ${m.contentType}.`);
      }
      if (m.size > limits.photo!.maxBytes!) {
        throw invalid('media_too_large', `Facebook photos are limited to ${limits.photo!.maxBytes} bytes; item ${i + 1} has ${m.size}.`);
      }
    });
  }

  async function publishPhotos(ctx: PublishContext, post: PublishPost, s: FacebookSettings, page: FacebookPage, singlePage: boolean): Promise<PublishOutcome> {
    checkPhotos(post.media);
    const call = { token: page.token, signal: ctx.signal, singlePage };
    const warnings: string[] = [];
    const caption = [s.title ?? post.title, post.description ?? ''].filter((t) => t.trim() !== '').join('\n\n');
    const json = (v: Json | undefined) => (v ? JSON.stringify(v) : undefined);
    const extra = { page_id: page.id, page_name: page.name, media_type: s.mediaType };

    if (s.mediaType === 'STORIES') {
      if (post.media.length !== 1) throw invalid('too_many_media', 'A Facebook photo story takes exactly one photo.');
      if (caption) warnings.push('facebook_title and description are ignored for Facebook stories.');
      const ignored = [s.altText.length && 'facebook_alt_text', s.placeId && 'facebook_place_id', s.targeting && 'facebook_targeting',
        s.feedTargeting && 'facebook_feed_targeting', s.noStory && 'facebook_no_story'].filter(Boolean);
      if (ignored.length) warnings.push(`${ignored.join(', ')} ${ignored.length > 1 ? 'are' : 'is'} ignored for Facebook stories.`);
      const photo = await graph('POST', `/${page.id}/photos`, { url: ctx.media.publicUrl(post.media[0]!.id), published: 'false' }, { ...call, expect: 'id' });
      const story = await graph('POST', `/${page.id}/photo_stories`, { photo_id: String(photo.id) }, { ...call, expect: 'post_id' });
      return { postId: String(story.post_id), warnings, extra };
    }

    checkText(caption, 'captions');
    const published = !s.secret;
    const common = { place: s.placeId, targeting: json(s.targeting), feed_targeting: json(s.feedTargeting) };
    const photoParams = (i: number, m: MediaRef) => ({ url: ctx.media.publicUrl(m.id), alt_text_custom: s.altText[i] });

    if (post.media.length === 1) {
      const photo = await graph('POST', `/${page.id}/photos`, {
        ...photoParams(0, post.media[0]!), ...common, caption: caption || undefined, published: String(published),
        no_story: s.noStory ? 'true' : undefined,
      }, { ...call, expect: 'id' });
      const postId = str(photo.post_id) ?? String(photo.id);
      const url = published && !s.noStory ? await postUrl(postId, page, ctx.signal, warnings) : undefined;
      return { postId, ...(url ? { url } : {}), warnings, extra: { ...extra, photo_ids: [String(photo.id)], ...(published ? {} : { published: false }) } };
    }

    // Several photos: unpublished uploads attached to one /feed post, which carries the caption.
    if (s.noStory) warnings.push('facebook_no_story applies to single photos; it was ignored for a multi-photo post.');
    const photoIds: string[] = [];
    for (const [i, m] of post.media.entries()) {
      photoIds.push(String((await graph('POST', `/${page.id}/photos`, { ...photoParams(i, m), published: 'false' }, { ...call, expect: 'id' })).id));
    }
    const attached = Object.fromEntries(photoIds.map((id, i) => [`attached_media[${i}]`, JSON.stringify({ media_fbid: id })]));
    const created = await graph('POST', `/${page.id}/feed`, {
      message: caption || undefined, ...attached, ...common, published: published ? undefined : 'false',
    }, { ...call, expect: 'id' });
    const postId = String(created.id);
    const url = published ? await postUrl(postId, page, ctx.signal, warnings) : undefined;
    return { postId, ...(url ? { url } : {}), warnings, extra: { ...extra, photo_ids: photoIds, ...(published ? {} : { published: false }) } };
  }

  function checkVideo(media: MediaRef[], s: FacebookSettings): MediaRef {
    if (media.length !== 1) throw invalid(media.length ? 'too_many_media' : 'media_missing', `A Facebook video post takes exactly one video; ${media.length} were sent.`);
    const video = media[0]!;
    if (video.kind !== 'video') throw invalid('unsupported_media', `Facebook video posts need a video; got ${video.contentType}.`);
    const v = limits.video!;
    if (video.size > v.maxBytes!) throw invalid('media_too_large', `Facebook videos are limited to ${v.maxBytes} bytes; this one has ${video.size}.`);
    const seconds = video.info?.durationSeconds;
    const range = s.mediaType === 'STORIES' ? STORY_VIDEO_SECONDS : s.mediaType === 'REELS' ? REEL_VIDEO_SECONDS : { min: 0, max: v.maxSeconds! };
    if (typeof seconds === 'number' && (seconds < range.min || seconds > range.max)) {
      const what = s.mediaType === 'POSTS' ? 'videos' : s.mediaType.toLowerCase();
      throw invalid('video_duration', `Facebook ${what} must last ${range.min ? `${range.min} to ` : 'up to '}${range.max} seconds; this video lasts ${seconds}.`);
    }
    if (s.mediaType === 'STORIES' && s.draft) throw invalid('invalid_setting', 'video_state DRAFT cannot be combined with facebook_media_type STORIES.');
    return video;
  }

  /** Stories and reels: start → bytes to the upload URL → finish (page-stories-api, reels-publishing). */
  async function uploadSession(ctx: PublishContext, video: MediaRef, edge: 'video_stories' | 'video_reels', page: FacebookPage,
    singlePage: boolean, finish: Record<string, string | undefined>): Promise<{ videoId: string; body: Json }> {
    const call = { token: page.token, signal: ctx.signal, singlePage };
    const start = await graph('POST', `/${page.id}/${edge}`, { upload_phase: 'start' }, { ...call, expect: 'video_id' });
    const videoId = String(start.video_id);
    const uploadUrl = str(start.upload_url);
    if (!uploadUrl) throw fail({ kind: 'malformed', status: 200, what: '"upload_url"' }, { singlePage });
    await uploadBytes(uploadUrl, {
      authorization: `OAuth ${page.token}`, offset: '0', file_size: String(video.size), 'content-type': 'application/octet-stream',
    }, ctx, video, { singlePage, expect: 'success' });
    const body = await graph('POST', `/${page.id}/${edge}`, { upload_phase: 'finish', video_id: videoId, ...finish }, { ...call, expect: 'success' });
    return { videoId, body };
  }

  async function publishVideo(ctx: PublishContext, post: PublishPost, s: FacebookSettings, page: FacebookPage, singlePage: boolean): Promise<PublishStep> {
    const video = checkVideo(post.media, s);
    const title = s.title ?? str(post.title);
    const description = s.description ?? str(post.description);
    const warnings: string[] = [];
    const call = { token: page.token, signal: ctx.signal, singlePage };
    const state: VideoState = {
      phase: 'video_processing', page_id: page.id, video_id: '', media_type: s.mediaType, published: !s.draft,
      started_at: client.now().getTime(), poll_failures: 0, warnings,
    };

    if (s.mediaType === 'STORIES') {
      if (title || description) warnings.push('facebook_title and facebook_description are ignored for Facebook stories.');
      const { videoId, body } = await uploadSession(ctx, video, 'video_stories', page, singlePage, {});
      Object.assign(state, { video_id: videoId, post_id: str(body.post_id) });
    } else if (s.mediaType === 'REELS') {
      const { videoId } = await uploadSession(ctx, video, 'video_reels', page, singlePage, {
        video_state: s.draft ? 'DRAFT' : 'PUBLISHED', title, description,
      });
      state.video_id = videoId;
    } else {
      const meta = { title, description, published: String(!s.draft) };
      let source: Record<string, string>;
      if (video.size <= resumableThreshold) {
        // Facebook fetches the file itself: nothing passes through Herald.
        source = { file_url: ctx.media.publicUrl(video.id) };
      } else {
        const userToken = ctx.credentials.user_access_token;
        if (video.contentType !== 'video/mp4') {
          throw invalid('unsupported_video_format', `Facebook's Resumable Upload API takes video/mp4 only; this video is ${video.contentType}.`);
        }
        if (!userToken) throw new PlatformError('facebook', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Facebook login has no user token; reconnect the account.');
        const session = await graph('POST', `/${encodeURIComponent(opts.clientId)}/uploads`, {
          file_name: video.filename ?? `${video.id}.mp4`, file_length: String(video.size), file_type: video.contentType,
        }, { token: userToken, signal: ctx.signal, singlePage, expect: 'id' });
        const uploaded = await uploadBytes(`${apiBase}/${String(session.id)}?appsecret_proof=${proof(userToken)}`, {
          authorization: `OAuth ${userToken}`, file_offset: '0', 'content-type': 'application/octet-stream',
        }, ctx, video, { singlePage, expect: 'h' });
        source = { fbuploader_video_file_chunk: String(uploaded.h) };
      }
      const created = await graph('POST', `/${page.id}/videos`, { ...source, ...meta }, { ...call, base: videoApiBase, expect: 'id' });
      state.video_id = String(created.id);
    }
    return { kind: 'wait', afterMs: pollMs, state: { ...state } };
  }

  /** One status read of a processing video: done, failed, or another wait. */
  async function pollVideo(ctx: PublishContext, raw: Record<string, unknown>): Promise<PublishStep> {
    const state = raw as unknown as VideoState;
    if (state.phase !== 'video_processing' || !str(state.video_id)) throw new Error('facebook: unknown publish state');
    const { page, singlePage } = choosePage(ctx.credentials, state.page_id);
    const warnings = [...(state.warnings ?? [])];
    let res: Json;
    try {
      res = await graph('GET', `/${state.video_id}`, { fields: 'status,permalink_url' }, { token: page.token, signal: ctx.signal, singlePage });
    } catch (err) {
      // The video exists already: a failed status read must not make the workflow upload it again.
      const passing = err instanceof PlatformError && (err.failure.kind === 'transient' || err.failure.kind === 'rate_limited');
      if (!passing || state.poll_failures + 1 >= MAX_POLL_FAILURES) throw err;
      const afterMs = err.failure.kind === 'rate_limited' ? Math.max(pollMs, err.failure.retryAfterMs) : pollMs;
      return { kind: 'wait', afterMs, state: { ...state, poll_failures: state.poll_failures + 1 } };
    }
    const status = isObject(res.status) ? res.status : {};
    const videoStatus = str(status.video_status);
    if (videoStatus === 'error' || videoStatus === 'expired') {
      const phase = isObject(status.processing_phase) ? status.processing_phase : {};
      const first = Array.isArray(phase.errors) && isObject(phase.errors[0]) ? str(phase.errors[0].message) : undefined;
      throw fail({ kind: 'video_failed', videoId: state.video_id, detail: first ?? videoStatus }, { singlePage });
    }
    const postId = state.post_id ?? state.video_id;
    const extra = { page_id: page.id, page_name: page.name, media_type: state.media_type, ...(state.published ? {} : { published: false }) };
    if (videoStatus !== 'ready') {
      if (client.now().getTime() - state.started_at < processingTimeoutMs) return { kind: 'wait', afterMs: pollMs, state: { ...state, poll_failures: 0 } };
      warnings.push(`Facebook was still processing the video after ${Math.round(processingTimeoutMs / 60_000)} minutes; it appears on the Page when processing ends.`);
      return { kind: 'done', outcome: { postId, warnings, extra } };
    }
    const url = state.media_type === 'STORIES' ? undefined : permalink(res.permalink_url);
    return { kind: 'done', outcome: { postId, ...(url ? { url } : {}), warnings, extra } };
  }

  return {
    async publish(ctx, post) {
      const s = readSettings(post.settings);
      const { page, singlePage } = choosePage(ctx.credentials, s.pageId);
      switch (post.kind) {
        case 'text': return { kind: 'done', outcome: await publishText(ctx, post, s, page, singlePage) };
        case 'photo': return { kind: 'done', outcome: await publishPhotos(ctx, post, s, page, singlePage) };
        case 'video': return publishVideo(ctx, post, s, page, singlePage);
        default: throw new PlatformError('facebook', { kind: 'unsupported' }, `Facebook takes no ${post.kind} posts.`);
      }
    },
    resume: (ctx, _post, state) => pollVideo(ctx, state),
  };
}
