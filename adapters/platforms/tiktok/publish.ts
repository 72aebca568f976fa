/**
 * Publishing (Content Posting API v2). Video: creator_info/query → video/init (direct post) or
 * inbox/video/init (draft) → PUT the bytes to `upload_url` in ordered chunks (or PULL_FROM_URL) →
 * status/fetch, polled with `wait` steps. Photos: creator_info/query → content/init with the public
 * URL of each image → status/fetch. The outcome carries TikTok's `publish_id` in `extra`.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { MediaRef } from '../../../core/domain/media';
import type { PublishContext, Publisher, PublishOutcome, PublishPost, PublishStep } from '../../../core/ports/platform';
import { collectAll, exchangeJson, type Json } from '../kit/http';
import { fail, type TikTokClient } from './client';
import { capabilitiesOf } from './connect';
import { MB } from './descriptor';
import { planPost } from './plan';
import { invalid, validatePhotos, validateVideo } from './validate';

const TIKTOK_WEB = 'https://www.tiktok.com';
// Media transfer guide: chunks of 5–64 MB, the last one up to 128 MB; a file under 5 MB goes whole.
const MIN_CHUNK = 5 * MB;
const MAX_CHUNK = 64 * MB;
const DEFAULT_CHUNK = 10 * MB;
const MAX_CHUNKS = 1000;

export interface TikTokPublishOptions {
  videoSource: 'FILE_UPLOAD' | 'PULL_FROM_URL';
  chunkSizeBytes?: number;
  pollIntervalMs: number;
  maxStatusPolls: number;
  postIdPollIntervalMs: number;
  postIdPolls: number;
}

/** Chunking per the media transfer guide: total = floor(size / chunk); the last chunk takes the rest. */
function tiktokChunks(size: number, preferred = DEFAULT_CHUNK): { chunkSize: number; count: number } {
  if (size < MIN_CHUNK) return { chunkSize: size, count: 1 };
  let chunkSize = Math.min(Math.max(preferred, MIN_CHUNK), MAX_CHUNK);
  // Grow chunks for very large files so there are at most 1000 of them.
  chunkSize = Math.max(chunkSize, Math.min(MAX_CHUNK, Math.ceil(size / MAX_CHUNKS)));
  if (size <= chunkSize) return { chunkSize: size, count: 1 };
  return { chunkSize, count: Math.floor(size / chunkSize) };
}

interface PollState {
  publishId: string;
  kind: 'video' | 'photo';
  fallback: boolean;
  handle: string;
  warnings: string[];
  polls: number;
  idPolls: number;
}

function readPollState(state: Record<string, unknown>): PollState {
  const ok = typeof state.publishId === 'string' && (state.kind === 'video' || state.kind === 'photo')
    && typeof state.polls === 'number' && typeof state.idPolls === 'number' && Array.isArray(state.warnings);
  if (!ok) throw fail({ kind: 'rejected', code: 'invalid_state' }, 'The saved TikTok publishing state is unreadable; check the account before retrying.');
  return {
    publishId: state.publishId as string,
    kind: state.kind as 'video' | 'photo',
    fallback: state.fallback === true,
    handle: typeof state.handle === 'string' ? state.handle : '',
    warnings: (state.warnings as unknown[]).filter((w): w is string => typeof w === 'string'),
    polls: state.polls as number,
    idPolls: state.idPolls as number,
  };
}

interface CreatorInfo {
  creator_username?: string;
  privacy_level_options: string[];
  comment_disabled?: boolean;
  duet_disabled?: boolean;
  stitch_disabled?: boolean;
  max_video_post_duration_sec?: number;
}

export function createTikTokPublisher(client: TikTokClient, opts: TikTokPublishOptions): Publisher {
  const { pollIntervalMs: pollMs, maxStatusPolls: maxPolls, postIdPollIntervalMs: postIdPollMs, postIdPolls } = opts;

  async function creatorInfo(ctx: PublishContext): Promise<CreatorInfo> {
    const data = await client.api(client.tokenOf(ctx), 'POST', '/v2/post/publish/creator_info/query/', {}, ctx.signal);
    if (!Array.isArray(data.privacy_level_options)) throw client.failure({ kind: 'malformed', status: 200, what: 'privacy_level_options' });
    return data as unknown as CreatorInfo;
  }

  /** PUTs the video in order, one chunk at a time, with `Content-Range: bytes a-b/total`. */
  async function uploadVideo(ctx: PublishContext, uploadUrl: string, video: MediaRef, chunks: { chunkSize: number; count: number }) {
    for (let i = 0; i < chunks.count; i += 1) {
      const start = i * chunks.chunkSize;
      const end = i === chunks.count - 1 ? video.size : start + chunks.chunkSize;
      const bytes = await collectAll(ctx.media.read(video.id, { start, end }));
      const outcome = await exchangeJson(uploadUrl, {
        method: 'PUT',
        headers: { 'content-type': video.contentType, 'content-range': `bytes ${start}-${end - 1}/${video.size}` },
        body: bytes,
      }, { fetch: client.fetch, timeoutMs: client.uploadTimeoutMs, signal: ctx.signal });
      if (outcome.kind === 'no_response') throw client.failure(outcome, client.uploadTimeoutMs);
      if (outcome.status !== 201 && outcome.status !== 206 && outcome.status !== 200) throw client.failure(outcome);
    }
  }

  async function init(ctx: PublishContext, path: string, payload: Json): Promise<Json & { publish_id: string }> {
    const data = await client.api(client.tokenOf(ctx), 'POST', path, payload, ctx.signal);
    if (typeof data.publish_id !== 'string') throw client.failure({ kind: 'malformed', status: 200, what: 'a publish_id' });
    return data as Json & { publish_id: string };
  }

  /** A direct-post init; null when the active-user cap is hit and the post may go to the inbox instead. */
  async function initDirect(ctx: PublishContext, path: string, payload: Json, mayFallBack: boolean) {
    try {
      return await init(ctx, path, payload);
    } catch (err) {
      const capped = err instanceof PlatformError && err.failure.kind === 'rejected' && err.failure.code === 'reached_active_user_cap';
      if (capped && mayFallBack) return null;
      throw err;
    }
  }

  function checkPrivacy(requested: string | undefined, creator: CreatorInfo): string {
    const options = creator.privacy_level_options;
    const level = requested ?? (options.includes('PUBLIC_TO_EVERYONE') ? 'PUBLIC_TO_EVERYONE' : options[0]);
    if (!level || !options.includes(level)) {
      throw invalid('tiktok_privacy_unavailable',
        `privacy_level ${level ?? '(none)'} is not available for this TikTok account; available: ${options.join(', ') || 'none'}.`);
    }
    return level;
  }

  /** At intake: a privacy level the account does not offer answers 400 before anything is sent. */
  async function precheck(ctx: PublishContext, post: PublishPost): Promise<void> {
    if (post.kind === 'text') return;
    const plan = planPost(post, capabilitiesOf(ctx.credentials), ctx.media);
    if (plan.draft) return;
    checkPrivacy(plan.privacy, await creatorInfo(ctx));
  }

  async function publishVideo(ctx: PublishContext, post: PublishPost): Promise<PublishStep> {
    const video = validateVideo(post);
    const caps = capabilitiesOf(ctx.credentials);
    const plan = planPost(post, caps, ctx.media);
    const warnings = [...plan.warnings];
    const source = opts.videoSource;
    const chunks = tiktokChunks(video.size, opts.chunkSizeBytes);
    const sourceInfo: Json = source === 'FILE_UPLOAD'
      ? { source, video_size: video.size, chunk_size: chunks.chunkSize, total_chunk_count: chunks.count }
      : { source, video_url: ctx.media.publicUrl(video.id) };

    let handle = ctx.credentials.handle ?? '';
    let data: (Json & { publish_id: string }) | null = null;
    let fallback = false;
    if (!plan.draft) {
      const creator = await creatorInfo(ctx);
      handle = creator.creator_username || handle;
      const maxSeconds = creator.max_video_post_duration_sec;
      const seconds = video.info?.durationSeconds;
      if (typeof maxSeconds === 'number' && seconds != null && seconds > maxSeconds) {
        throw invalid('video_duration', `This TikTok account posts videos of at most ${maxSeconds} s; this one lasts ${seconds} s.`);
      }
      const postInfo: Json = {
        title: post.title,
        privacy_level: checkPrivacy(plan.privacy, creator),
        ...plan.postInfo,
      };
      // Interactions the creator turned off in TikTok stay off whatever the post asks.
      if (creator.comment_disabled) postInfo.disable_comment = true;
      if (creator.duet_disabled) postInfo.disable_duet = true;
      if (creator.stitch_disabled) postInfo.disable_stitch = true;
      data = await initDirect(ctx, '/v2/post/publish/video/init/', { post_info: postInfo, source_info: sourceInfo }, canFallBack(post, caps));
      fallback = data === null;
    }
    data ??= await init(ctx, '/v2/post/publish/inbox/video/init/', { source_info: sourceInfo });
    if (fallback) warnings.push("TikTok's daily active-user cap was reached: the video went to the account's inbox as a draft instead.");

    if (source === 'FILE_UPLOAD') {
      if (typeof data.upload_url !== 'string') throw client.failure({ kind: 'malformed', status: 200, what: 'an upload_url' });
      await uploadVideo(ctx, data.upload_url, video, chunks);
    }
    return waitFor({ publishId: data.publish_id, kind: 'video', fallback, handle, warnings, polls: 0, idPolls: 0 }, pollMs);
  }

  async function publishPhotos(ctx: PublishContext, post: PublishPost): Promise<PublishStep> {
    const description = typeof post.settings.tiktok_description === 'string' ? post.settings.tiktok_description : post.description;
    const photos = validatePhotos(post, description);
    const caps = capabilitiesOf(ctx.credentials);
    const plan = planPost(post, caps, ctx.media);
    const warnings = [...plan.warnings];
    const sourceInfo: Json = {
      source: 'PULL_FROM_URL',
      photo_cover_index: typeof post.settings.photo_cover_index === 'number' ? post.settings.photo_cover_index : 0,
      photo_images: photos.map((p) => ctx.media.publicUrl(p.id)),
    };
    const text: Json = { title: post.title, ...(description !== undefined ? { description } : {}) };
    const draftPayload = { media_type: 'PHOTO', post_mode: 'MEDIA_UPLOAD', post_info: { ...text, auto_add_music: post.settings.auto_add_music === true }, source_info: sourceInfo };

    let handle = ctx.credentials.handle ?? '';
    let data: (Json & { publish_id: string }) | null = null;
    let fallback = false;
    if (!plan.draft) {
      const creator = await creatorInfo(ctx);
      handle = creator.creator_username || handle;
      // The spec sends PUBLIC_TO_EVERYONE when omitted, so a private account must name its level.
      const requested = plan.privacy ?? 'PUBLIC_TO_EVERYONE';
      const postInfo: Json = { ...text, privacy_level: checkPrivacy(requested, creator), ...plan.postInfo };
      if (creator.comment_disabled) postInfo.disable_comment = true;
      data = await initDirect(ctx, '/v2/post/publish/content/init/',
        { media_type: 'PHOTO', post_mode: 'DIRECT_POST', post_info: postInfo, source_info: sourceInfo }, canFallBack(post, caps));
      fallback = data === null;
    }
    data ??= await init(ctx, '/v2/post/publish/content/init/', draftPayload);
    if (fallback) warnings.push("TikTok's daily active-user cap was reached: the photos went to the account's inbox as a draft instead.");
    return waitFor({ publishId: data.publish_id, kind: 'photo', fallback, handle, warnings, polls: 0, idPolls: 0 }, pollMs);
  }

  /** Inbox fallback is the connection's (capability `inbox_fallback`) unless the post opts out. */
  function canFallBack(post: PublishPost, caps: ReadonlySet<string>): boolean {
    return caps.has('inbox_fallback') && post.settings.disable_inbox_fallback !== true;
  }

  function waitFor(state: PollState, afterMs: number): PublishStep {
    return { kind: 'wait', afterMs, state: { ...state } };
  }

  function finished(state: PollState, postId: string | undefined, extraWarnings: string[] = []): PublishStep {
    const outcome: PublishOutcome = {
      postId: postId ?? state.publishId,
      warnings: [...state.warnings, ...extraWarnings],
      extra: { publish_id: state.publishId, fallback_to_inbox: state.fallback },
    };
    if (postId && state.handle) outcome.url = `${TIKTOK_WEB}/@${state.handle}/${state.kind === 'video' ? 'video' : 'photo'}/${postId}`;
    return { kind: 'done', outcome };
  }

  async function poll(ctx: PublishContext, state: PollState): Promise<PublishStep> {
    const data = await client.api(client.tokenOf(ctx), 'POST', '/v2/post/publish/status/fetch/', { publish_id: state.publishId }, ctx.signal, client.bigIdFetch);
    const status = typeof data.status === 'string' ? data.status : '';
    if (status === 'FAILED') {
      throw client.failure({ kind: 'publish_failed', failReason: typeof data.fail_reason === 'string' && data.fail_reason ? data.fail_reason : 'unknown' });
    }
    if (status === 'SEND_TO_USER_INBOX') {
      return finished(state, undefined, [
        'Sent to the TikTok inbox as a draft: the user completes the post in the TikTok app, so there is no post id or URL yet.',
      ]);
    }
    if (status === 'PUBLISH_COMPLETE') {
      const ids = Array.isArray(data.publicaly_available_post_id) ? data.publicaly_available_post_id : [];
      const id = ids.length ? String(ids[0]) : undefined;
      if (id) return finished(state, id);
      // Public posts get their id after moderation, usually within a minute, sometimes hours.
      if (state.idPolls < postIdPolls) return waitFor({ ...state, idPolls: state.idPolls + 1 }, postIdPollMs);
      return finished(state, undefined, [
        `TikTok published the post but had not released its id after ${state.idPolls} checks (moderation can take hours); post_id is the publish id and there is no URL yet.`,
      ]);
    }
    // PROCESSING_UPLOAD, PROCESSING_DOWNLOAD and any newer in-between state: keep polling.
    if (state.polls + 1 >= maxPolls) throw client.failure({ kind: 'processing_timeout', publishId: state.publishId, polls: state.polls + 1 });
    return waitFor({ ...state, polls: state.polls + 1 }, pollMs);
  }

  return {
    precheck,
    async publish(ctx, post) {
      if (post.kind === 'video') return publishVideo(ctx, post);
      if (post.kind === 'photo') return publishPhotos(ctx, post);
      throw fail({ kind: 'unsupported' }, 'TikTok takes videos and photos only, not text posts.');
    },
    async resume(ctx, _post, state) {
      return poll(ctx, readPollState(state));
    },
  };
}
