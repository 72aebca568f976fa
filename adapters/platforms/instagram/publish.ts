/**
 * The content-publishing container flow on graph.instagram.com: POST /{ig-id}/media (Meta pulls the
 * media from a public URL) → poll GET /{container}?fields=status_code → POST /{ig-id}/media_publish →
 * GET /{media}?fields=permalink. Containers take a while to process, so publishing is a sequence of
 * `wait` steps, never a sleep.
 */
import type { MediaRef, PublishContext, Publisher, PublishPost, PublishStep } from '../../../core/ports/platform';
import { isObject, type Json } from '../kit/http';
import { metaWaitStep, readMetaPermalink } from '../kit/meta-graph';
import { invalid, type InstagramClient } from './client';
import {
  captionLength, MAX_CAPTION, MAX_CAROUSEL, MAX_HASHTAGS, MAX_IMAGE_BYTES, MAX_MENTIONS, MAX_VIDEO_BYTES, PHOTO_TYPES, REELS_MAX_SECONDS,
  STORY_OR_CAROUSEL_VIDEO_MAX_SECONDS, VIDEO_MIN_SECONDS,
} from './limits';
import { parseUserTags } from './settings';

/** Meta asks for container status about once a minute for video; images are ready within seconds. */
const DEFAULT_IMAGE_POLL_MS = 5_000;
const DEFAULT_VIDEO_POLL_MS = 30_000;
const DEFAULT_MAX_PROCESSING_MS = 15 * 60_000;
/** share_mode → trial_params.graduation_strategy of a trial reel. */
const TRIAL_GRADUATION: Record<string, string> = {
  TRIAL_REELS_SHARE_TO_FOLLOWERS_IF_LIKED: 'SS_PERFORMANCE',
  TRIAL_REELS_DONT_SHARE_TO_FOLLOWERS: 'MANUAL',
};

/** One container to create: a single post, a carousel child, or (later) the carousel parent. */
interface ContainerPlan { params: Record<string, string>; video: boolean }

/** What resume needs, kept as plain JSON across the workflow's timers. */
interface PublishState {
  phase: 'children' | 'container';
  mediaType: string;
  children: string[];
  parent?: Record<string, string>;
  container?: string;
  pollMs: number;
  startedAt: number;
  warnings: string[];
}

export function createInstagramPublisher(client: InstagramClient): Publisher {
  const { opts, meta, fail } = client;
  const { graphCall, idOf } = meta;
  const maxProcessingMs = opts.maxProcessingMs ?? DEFAULT_MAX_PROCESSING_MS;
  const account = client.account;

  /**
   * Everything checked before anything is sent, and the containers the post needs. Warnings name
   * each setting that does not apply to what is being published.
   */
  async function plan(ctx: PublishContext, post: PublishPost): Promise<{ mediaType: string; items: ContainerPlan[]; parent?: Record<string, string>; warnings: string[] }> {
    const warnings: string[] = [];
    const s = post.settings;
    const media = post.media;
    if (post.kind === 'text' || media.length === 0) throw invalid('Instagram posts need a photo or a video.', 'media_required');
    if (post.kind === 'video' && (media.length !== 1 || media[0]!.kind !== 'video')) {
      throw invalid('The video endpoint publishes exactly one video to Instagram.', 'media_invalid');
    }
    const mediaType = typeof s.media_type === 'string' ? s.media_type : post.kind === 'video' ? 'REELS' : 'IMAGE';
    const story = mediaType === 'STORIES';
    const carousel = !story && media.length > 1;
    if (story && media.length > 1) throw invalid('An Instagram story takes one file.', 'too_many_media');
    if (media.length > MAX_CAROUSEL) throw invalid(`An Instagram carousel takes at most ${MAX_CAROUSEL} items; this post has ${media.length}.`, 'too_many_media');
    if (post.kind === 'photo' && !story && media.length === 1 && media[0]!.kind === 'video') {
      throw invalid('On the photo endpoint Instagram takes videos only inside a carousel; publish a single video through the video endpoint.', 'media_invalid');
    }

    const caption = post.title ?? '';
    if (story && caption.trim()) warnings.push('Instagram stories have no caption; the title was not sent.');
    if (!story) {
      const length = captionLength(caption);
      if (length > MAX_CAPTION) throw invalid(`Instagram captions are limited to ${MAX_CAPTION} characters; this one has ${length}.`, 'text_too_long');
      const hashtags = caption.match(/#[\p{L}\p{N}_]+/gu)?.length ?? 0;
      if (hashtags > MAX_HASHTAGS) throw invalid(`Instagram captions take at most ${MAX_HASHTAGS} hashtags; this one has ${hashtags}.`, 'too_many_hashtags');
      const mentions = caption.match(/(^|[^\w])@[\w.]+/g)?.length ?? 0;
      if (mentions > MAX_MENTIONS) throw invalid(`Instagram captions take at most ${MAX_MENTIONS} @mentions; this one has ${mentions}.`, 'too_many_mentions');
    }

    media.forEach((m, i) => checkMedia(m, i, { story, carousel, reel: !story && !carousel && m.kind === 'video', thumbOffset: s.thumb_offset }));

    // Settings that apply to some kinds of post only.
    const ignored = (field: string, why: string) => warnings.push(`${field} was ignored: ${why}.`);
    const reel = post.kind === 'video' && !story;
    const shareMode = typeof s.share_mode === 'string' ? s.share_mode : 'CUSTOM';
    if (!reel) {
      for (const field of ['cover_url', 'cover_image', 'audio_name', 'thumb_offset'] as const) {
        if (s[field] !== undefined) ignored(field, 'it applies to reels only');
      }
      if (shareMode !== 'CUSTOM') ignored('share_mode', 'trial reels are reels, not stories');
    }
    const collaborators = Array.isArray(s.collaborators) ? (s.collaborators as string[]).map((c) => c.replace(/^@/, '')) : [];
    if (story && collaborators.length) ignored('collaborators', 'Instagram stories take no collaborators');
    let locationId = typeof s.location_id === 'string' ? s.location_id.trim() : '';
    if (locationId && story) { ignored('location_id', 'Instagram stories take no location'); locationId = ''; }
    if (locationId && !/^\d+$/.test(locationId)) { ignored('location_id', `"${locationId}" is not a numeric location id`); locationId = ''; }

    // Photos: only tags with coordinates are sent (spec: username-only tags are silently dropped).
    const tags = parseUserTags(s.user_tags, post.kind).tags;
    const imageTags = tags.filter((t) => t.x !== undefined && t.y !== undefined).map((t) => ({ username: t.username, x: t.x, y: t.y }));
    const videoTags = tags.map((t) => ({ username: t.username }));

    const alt = (s.instagram_alt_text as string[] | undefined) ?? [];
    alt.forEach((text, i) => {
      if (text && (media[i]?.kind !== 'image' || story)) warnings.push(`instagram_alt_text item ${i + 1} was ignored: Instagram takes alt text for feed images only.`);
    });

    const url = async (m: MediaRef) => ctx.media.publicUrl((await jpegOf(ctx, m)).id);
    const common: Record<string, string> = {};
    if (s.is_ai_generated === true) common.is_ai_generated = 'true';

    const reelParams = async (): Promise<Record<string, string>> => {
      const p: Record<string, string> = {};
      if (shareMode === 'CUSTOM') p.share_to_feed = s.share_to_feed === false ? 'false' : 'true';
      else p.trial_params = JSON.stringify({ graduation_strategy: TRIAL_GRADUATION[shareMode] });
      const cover = typeof s.cover_url === 'string' ? s.cover_url : undefined;
      const coverFile = isObject(s.cover_image) && typeof s.cover_image.id === 'string' ? (s.cover_image as unknown as MediaRef) : undefined;
      if (cover) p.cover_url = cover;
      else if (coverFile) p.cover_url = await url(coverFile);
      if (cover && coverFile) ignored('cover_image', 'cover_url wins when both are sent');
      if (typeof s.audio_name === 'string' && s.audio_name) p.audio_name = s.audio_name;
      if (typeof s.thumb_offset === 'number') p.thumb_offset = String(s.thumb_offset);
      return p;
    };

    const single = async (m: MediaRef, i: number): Promise<Record<string, string>> => {
      const p: Record<string, string> = m.kind === 'image' ? { image_url: await url(m) } : { video_url: await url(m) };
      if (m.kind === 'image' && !story && alt[i]) p.alt_text = alt[i]!;
      return p;
    };

    if (story) {
      const m = media[0]!;
      const p: Record<string, string> = { media_type: 'STORIES', ...(await single(m, 0)), ...common };
      if (tags.length) p.user_tags = JSON.stringify(m.kind === 'image' ? tags : videoTags);
      return { mediaType, items: [{ params: p, video: m.kind === 'video' }], warnings };
    }

    const shared: Record<string, string> = { ...common };
    if (caption) shared.caption = caption;
    if (collaborators.length) shared.collaborators = JSON.stringify(collaborators);
    if (locationId) shared.location_id = locationId;

    if (!carousel) {
      const m = media[0]!;
      const p: Record<string, string> = { ...(await single(m, 0)), ...shared };
      if (m.kind === 'video') {
        Object.assign(p, { media_type: 'REELS' }, await reelParams());
        if (videoTags.length) p.user_tags = JSON.stringify(videoTags);
      } else if (imageTags.length) p.user_tags = JSON.stringify(imageTags);
      return { mediaType, items: [{ params: p, video: m.kind === 'video' }], warnings };
    }

    // Carousel: children carry the media (and per-image tags and alt text); the parent the rest.
    const items: ContainerPlan[] = [];
    for (const [i, m] of media.entries()) {
      const p: Record<string, string> = { is_carousel_item: 'true', ...(await single(m, i)) };
      if (m.kind === 'video') p.media_type = 'VIDEO';
      else if (imageTags.length) p.user_tags = JSON.stringify(imageTags);
      items.push({ params: p, video: m.kind === 'video' });
    }
    return { mediaType: 'CAROUSEL', items, parent: { media_type: 'CAROUSEL', ...shared }, warnings };
  }

  /** Instagram fetches JPEG only: other images are sent as their JPEG rendition (made once, then reused). */
  async function jpegOf(ctx: PublishContext, m: MediaRef): Promise<MediaRef> {
    if (m.kind !== 'image' || m.contentType === 'image/jpeg') return m;
    try {
      return await ctx.media.rendition(m.id, 'image/jpeg');
    } catch (err) {
      throw invalid(`Instagram publishes JPEG only, and this ${m.contentType} image could not be converted: ${(err as Error).message}`, 'unsupported_media_type');
    }
  }

  function checkMedia(m: MediaRef, i: number, how: { story: boolean; carousel: boolean; reel: boolean; thumbOffset: unknown }): void {
    const which = `file ${i + 1}`;
    if (m.kind === 'image') {
      if (!PHOTO_TYPES.includes(m.contentType)) throw invalid(`Instagram takes JPEG or PNG images; ${which} is ${m.contentType}.`, 'unsupported_media_type');
      if (m.size > MAX_IMAGE_BYTES) throw invalid(`Instagram images are limited to 8 MB; ${which} has ${m.size} bytes.`, 'media_too_large');
      const w = m.info?.width;
      const h = m.info?.height;
      if (!how.story && w && h) {
        const ratio = w / h;
        if (ratio < 0.8 - 0.005 || ratio > 1.91 + 0.005) {
          throw invalid(`Instagram feed images need an aspect ratio from 4:5 to 1.91:1; ${which} is ${w}x${h}.`, 'invalid_aspect_ratio');
        }
      }
      return;
    }
    if (m.size > MAX_VIDEO_BYTES) throw invalid(`Instagram videos are limited to 300 MB; ${which} has ${m.size} bytes.`, 'media_too_large');
    const container = m.info?.container;
    if (container && !container.split(',').some((c) => c === 'mp4' || c === 'mov')) {
      throw invalid(`Instagram takes MP4 or MOV videos; ${which} is ${container}.`, 'unsupported_media_type');
    }
    const seconds = m.info?.durationSeconds;
    const max = how.reel ? REELS_MAX_SECONDS : STORY_OR_CAROUSEL_VIDEO_MAX_SECONDS;
    if (seconds != null && (seconds < VIDEO_MIN_SECONDS || seconds > max)) {
      const kind = how.reel ? 'Reels' : how.story ? 'Story videos' : 'Carousel videos';
      throw invalid(`${kind} on Instagram last ${VIDEO_MIN_SECONDS} to ${max} seconds; ${which} lasts ${seconds.toFixed(1)} s.`, 'invalid_duration');
    }
    if (how.reel && typeof how.thumbOffset === 'number' && seconds != null && how.thumbOffset >= seconds * 1000) {
      throw invalid(`thumb_offset must be less than the video's ${Math.round(seconds * 1000)} ms.`, 'invalid_thumb_offset');
    }
  }

  async function createContainer(token: string, igUserId: string, params: Record<string, string>, mediaType: string, signal?: AbortSignal): Promise<string> {
    const body = await graphCall('POST', `/${encodeURIComponent(igUserId)}/media`, params, token, 'a container id', { mediaType }, signal);
    return idOf(body, 'a container id');
  }

  /** Polls, creates the carousel parent, publishes and reads the permalink, as far as processing allows. */
  async function advance(ctx: PublishContext, state: PublishState): Promise<PublishStep> {
    const { token, igUserId } = account(ctx.credentials);
    const failCtx = { mediaType: state.mediaType };
    const statusOf = async (id: string) => {
      const body = await graphCall('GET', `/${encodeURIComponent(id)}`, { fields: 'status_code,status' }, token, 'a container status', failCtx, ctx.signal);
      return { code: typeof body.status_code === 'string' ? body.status_code : '', status: typeof body.status === 'string' ? body.status : undefined };
    };
    const waitOrGiveUp = (next: PublishState): PublishStep =>
      metaWaitStep(next, maxProcessingMs, (waitedMs) => fail({ kind: 'processing_timeout', waitedMs }, failCtx), client.now());
    const failed = (s: { code: string; status?: string }) => fail({ kind: 'container_failed', statusCode: s.code, status: s.status }, failCtx);

    if (state.phase === 'children') {
      for (const id of state.children) {
        const s = await statusOf(id);
        if (s.code === 'ERROR' || s.code === 'EXPIRED') throw failed(s);
        if (s.code !== 'FINISHED') return waitOrGiveUp(state);
      }
      const parent = { ...state.parent, children: state.children.join(',') };
      const container = await createContainer(token, igUserId, parent, state.mediaType, ctx.signal);
      return waitOrGiveUp({ ...state, phase: 'container', container });
    }

    const s = await statusOf(state.container!);
    if (s.code === 'ERROR' || s.code === 'EXPIRED') throw failed(s);
    if (s.code === 'PUBLISHED') {
      // A previous attempt published it and its answer was lost; the media id cannot be recovered from the container.
      throw fail({ kind: 'malformed', status: 200, what: 'the media id of an already published container' }, failCtx);
    }
    if (s.code !== 'FINISHED') return waitOrGiveUp(state);

    // Instagram takes no idempotency key: this is the one call that must not be repeated blindly.
    const published = await graphCall('POST', `/${encodeURIComponent(igUserId)}/media_publish`, { creation_id: state.container! },
      token, 'the published media id', failCtx, ctx.signal);
    const mediaId = idOf(published, 'the published media id');
    const warnings = [...state.warnings];
    const url = await readMetaPermalink(
      () => graphCall('GET', `/${encodeURIComponent(mediaId)}`, { fields: 'permalink' }, token, 'the permalink', failCtx, ctx.signal), warnings);
    return { kind: 'done', outcome: { postId: mediaId, ...(url ? { url } : {}), warnings } };
  }

  async function publish(ctx: PublishContext, post: PublishPost): Promise<PublishStep> {
    const { token, igUserId } = account(ctx.credentials);
    const planned = await plan(ctx, post);
    const failCtx = { mediaType: planned.mediaType };

    // Checked first so a used-up quota pauses the account instead of creating containers that cannot be published.
    const limit = await graphCall('GET', `/${encodeURIComponent(igUserId)}/content_publishing_limit`, { fields: 'quota_usage,config' },
      token, 'the publishing limit', failCtx, ctx.signal);
    const usage = Array.isArray(limit.data) && isObject(limit.data[0]) ? limit.data[0] : undefined;
    const used = Number(usage?.quota_usage);
    const total = Number(isObject(usage?.config) ? (usage.config as Json).quota_total : NaN);
    if (Number.isFinite(used) && Number.isFinite(total) && total > 0 && used >= total) {
      throw fail({ kind: 'quota_exhausted', usage: used, total }, failCtx);
    }

    const ids: string[] = [];
    for (const item of planned.items) ids.push(await createContainer(token, igUserId, item.params, planned.mediaType, ctx.signal));
    const video = planned.items.some((i) => i.video);
    const state: PublishState = {
      phase: planned.parent ? 'children' : 'container',
      mediaType: planned.mediaType,
      children: planned.parent ? ids : [],
      ...(planned.parent ? { parent: planned.parent } : { container: ids[0]! }),
      pollMs: opts.pollIntervalMs ?? (video ? DEFAULT_VIDEO_POLL_MS : DEFAULT_IMAGE_POLL_MS),
      startedAt: client.now().getTime(),
      warnings: planned.warnings,
    };
    return { kind: 'wait', afterMs: state.pollMs, state: state as unknown as Record<string, unknown> };
  }

  return {
    publish,
    resume: (ctx, _post, state) => advance(ctx, state as unknown as PublishState),
  };
}
