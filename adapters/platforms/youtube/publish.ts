/**
 * Publishing a video: the resumable upload protocol (guides/using_resumable_upload_protocol). A
 * POST opens a session with the video resource, the bytes follow in PUT chunks (multiples of
 * 256 KiB, 308 + Range until the last, then the created video). The session URI lives in the step
 * state, so an interrupted upload asks the session how far it got (`Content-Range: bytes *\/total`)
 * and goes on from there instead of starting over. Then, best effort and never failing the
 * publish: the thumbnail, playlists and captions; then videos.list is polled until processing ends.
 *
 * Once YouTube has the video, nothing here throws a retryable failure: the engine answers a
 * retry by publishing again from the start, which would upload the video a second time.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { MediaRef } from '../../../core/domain/media';
import { textLengthOf, type PublishContext, type Publisher, type PublishPost, type PublishStep } from '../../../core/ports/platform';
import { callDeadline, collectAll, collectBytes, exchangeJson, isObject, str, type HttpExchange, type Json } from '../kit/http';
import type { Range, YoutubeClient } from './client';
import { youtubeDescriptor } from './descriptor';
import {
  DESCRIPTION_MAX_BYTES, hasAngleBrackets, THUMBNAIL_MAX_BYTES, THUMBNAIL_TYPES, TITLE_MAX_CHARS, YOUTUBE_SUBTITLE_SLOTS,
} from './settings';

/** Resumable chunks must be multiples of this, except the last one. */
export const YOUTUBE_CHUNK_UNIT = 256 * 1024;
/** Consecutive unanswered chunk PUTs before the upload gives up (then restarts on a new session). */
const MAX_CHUNK_ATTEMPTS = 5;
const SHORT_MAX_SECONDS = 180;

export interface YoutubePublishOptions {
  chunkSizeBytes: number;
  maxBytesPerStep: number;
  pollIntervalMs: number;
  maxProcessingMs: number;
}

/** What a step hands to the next one; plain JSON. */
type PublishState =
  | { phase: 'upload'; session: string; total: number; contentType: string; offset: number | null; attempts: number; warnings: string[]; extra: Json }
  | { phase: 'extras'; videoId: string; warnings: string[]; extra: Json }
  | { phase: 'processing'; videoId: string; deadline: string; warnings: string[]; extra: Json };

const isShort = (video: MediaRef) => {
  const { durationSeconds, width, height } = video.info ?? {};
  return typeof durationSeconds === 'number' && durationSeconds <= SHORT_MAX_SECONDS && !!width && !!height && height >= width;
};

export function createYoutubePublisher(client: YoutubeClient, opts: YoutubePublishOptions): Publisher {
  const { apiBase, timeoutMs, uploadTimeoutMs, now } = client;
  const { pollIntervalMs, maxProcessingMs } = opts;
  const chunkSize = opts.chunkSizeBytes;
  const bytesPerStep = Math.max(opts.maxBytesPerStep, chunkSize);
  if (!Number.isInteger(chunkSize) || chunkSize <= 0 || chunkSize % YOUTUBE_CHUNK_UNIT !== 0) {
    throw new Error(`chunkSizeBytes must be a positive multiple of ${YOUTUBE_CHUNK_UNIT} (256 KiB); got ${chunkSize}.`);
  }

  const readRange = (ctx: PublishContext, id: string, start: number, end: number) => collectAll(ctx.media.read(id, { start, end }));

  // ---- publish: validation and the video resource

  function textsOf(post: PublishPost) {
    const title = str(post.settings.youtube_title) ?? post.title;
    const description = str(post.settings.youtube_description) ?? post.description ?? title;
    return { title, description };
  }

  /** Everything that must fail is refused here, before anything is sent. */
  function validate(post: PublishPost): MediaRef {
    const invalid = (code: string, message: string) => new PlatformError('youtube', { kind: 'invalid_content', code }, message);
    if (post.kind !== 'video') throw new PlatformError('youtube', { kind: 'unsupported' }, 'YouTube takes videos only.');
    const video = post.media[0];
    if (post.media.length !== 1 || video?.kind !== 'video') throw invalid('media_invalid', 'YouTube takes exactly one video per upload.');
    const limits = youtubeDescriptor.limits.video!;
    if (video.size > limits.maxBytes!) throw invalid('video_too_large', 'YouTube takes videos up to 256 GB.');
    const seconds = video.info?.durationSeconds;
    if (typeof seconds === 'number' && seconds > limits.maxSeconds!) throw invalid('video_too_long', 'YouTube takes videos up to 12 hours.');
    const { title, description } = textsOf(post);
    if (title.trim() === '') throw invalid('title_required', 'YouTube needs a title: send title or youtube_title.');
    // The descriptor's own count, so intake refuses before the 202 exactly what this refuses.
    const length = textLengthOf(youtubeDescriptor, title);
    if (length > TITLE_MAX_CHARS) throw invalid('title_too_long', `YouTube titles are at most ${TITLE_MAX_CHARS} characters; this one has ${length}.`);
    if (hasAngleBrackets(title)) throw invalid('invalid_title', 'YouTube titles cannot contain < or >.');
    if (Buffer.byteLength(description) > DESCRIPTION_MAX_BYTES) {
      throw invalid('description_too_long', `YouTube descriptions are at most ${DESCRIPTION_MAX_BYTES} bytes; this one has ${Buffer.byteLength(description)}.`);
    }
    if (hasAngleBrackets(description)) throw invalid('invalid_description', 'YouTube descriptions cannot contain < or >.');
    return video;
  }

  /** The settings, field by field, onto the video resource and the parts it fills. */
  function videoResource(post: PublishPost, warnings: string[]): { resource: Json; parts: string[] } {
    const s = post.settings;
    const { title, description } = textsOf(post);
    const tags = Array.isArray(s.tags) ? (s.tags as string[]) : undefined;
    const publishAt = str(s.publishAt);
    let privacyStatus = str(s.privacyStatus) ?? 'public';
    if (publishAt && privacyStatus !== 'private') {
      // YouTube schedules only private videos: they turn public at publishAt.
      warnings.push(`privacyStatus ${privacyStatus} was sent as private because publishAt is set: YouTube makes the video public at ${publishAt}.`);
      privacyStatus = 'private';
    }
    const snippet: Json = { title, description, categoryId: str(s.categoryId) ?? '22' };
    if (tags?.length) snippet.tags = tags;
    if (str(s.defaultLanguage)) snippet.defaultLanguage = s.defaultLanguage;
    if (str(s.defaultAudioLanguage)) snippet.defaultAudioLanguage = s.defaultAudioLanguage;
    const status: Json = {
      privacyStatus,
      embeddable: s.embeddable ?? true,
      license: str(s.license) ?? 'youtube',
      publicStatsViewable: s.publicStatsViewable ?? true,
      selfDeclaredMadeForKids: s.selfDeclaredMadeForKids ?? false,
      containsSyntheticMedia: s.containsSyntheticMedia ?? false,
    };
    if (publishAt) status.publishAt = new Date(publishAt).toISOString();
    const resource: Json = { snippet, status, paidProductPlacementDetails: { hasPaidProductPlacement: s.hasPaidProductPlacement ?? false } };
    const parts = ['snippet', 'status', 'paidProductPlacementDetails'];
    const recordingDate = str(s.recordingDate);
    if (recordingDate) {
      resource.recordingDetails = { recordingDate: new Date(recordingDate).toISOString() };
      parts.push('recordingDetails');
    }
    return { resource, parts };
  }

  // ---- publish: the steps

  async function startUpload(ctx: PublishContext, post: PublishPost): Promise<PublishStep> {
    const video = validate(post);
    const warnings: string[] = [];
    const { resource, parts } = videoResource(post, warnings);
    const notify = post.settings.notifySubscribers ?? true;
    // YouTube takes no idempotency key: ctx.idempotencyKey cannot be forwarded.
    const contentType = video.contentType.startsWith('video/') ? video.contentType : 'application/octet-stream';
    const session = await client.openSession(ctx,
      `/upload/youtube/v3/videos?uploadType=resumable&part=${parts.join(',')}&notifySubscribers=${notify ? 'true' : 'false'}`,
      resource, video.size, contentType);
    const extra: Json = { short: isShort(video) };
    return uploadChunks(ctx, post, { phase: 'upload', session, total: video.size, contentType, offset: 0, attempts: 0, warnings, extra });
  }

  async function uploadChunks(ctx: PublishContext, post: PublishPost, state: Extract<PublishState, { phase: 'upload' }>): Promise<PublishStep> {
    const video = post.media[0]!;
    const retryLater = (outcome: HttpExchange): PublishStep => {
      // A chunk that got no answer (or a 5xx) may or may not have landed: ask the session next time.
      if (state.attempts + 1 >= MAX_CHUNK_ATTEMPTS) throw client.failure(outcome, uploadTimeoutMs);
      return { kind: 'wait', afterMs: Math.min(1000 * 2 ** state.attempts, 30_000), state: { ...state, offset: null, attempts: state.attempts + 1 } };
    };
    const settle = (range: Range): number | PublishStep => {
      if (range.kind === 'complete') {
        const id = str(range.body.id);
        if (!id) throw client.failure({ kind: 'malformed', status: 200, what: 'the id of the uploaded video' });
        return { kind: 'wait', afterMs: 0, state: { phase: 'extras', videoId: id, warnings: state.warnings, extra: state.extra } };
      }
      if (range.kind === 'incomplete') return range.received;
      const { outcome } = range;
      if (outcome.kind === 'no_response' || outcome.status >= 500) return retryLater(outcome);
      if (outcome.status === 404 || outcome.status === 410) {
        // Sessions live about a week: a fresh publish opens a new one (no video exists yet).
        throw new PlatformError('youtube', { kind: 'transient' }, 'The YouTube upload session expired; the upload starts again.', { status: outcome.status });
      }
      throw client.failure(outcome);
    };

    let offset = state.offset;
    let sent = 0;
    while (sent < bytesPerStep) {
      if (offset === null || offset >= state.total) {
        const settled = settle(await client.sendRange(ctx, state.session, state.total, state.contentType));
        if (typeof settled !== 'number') return settled;
        if (settled >= state.total) throw client.failure({ kind: 'malformed', status: 308, what: 'the video, though it holds every byte' });
        offset = settled;
      }
      const end = Math.min(offset + chunkSize, state.total);
      const bytes = await readRange(ctx, video.id, offset, end);
      const settled = settle(await client.sendRange(ctx, state.session, state.total, state.contentType, { start: offset, bytes }));
      if (typeof settled !== 'number') return settled;
      sent += bytes.length;
      offset = settled;
      state = { ...state, offset, attempts: 0 };
    }
    return { kind: 'wait', afterMs: 0, state };
  }

  /** Thumbnail, playlists and captions: each reported, none failing the publish. */
  async function addExtras(ctx: PublishContext, post: PublishPost, state: Extract<PublishState, { phase: 'extras' }>): Promise<PublishStep> {
    const warnings = [...state.warnings];
    const extra: Json = { ...state.extra };
    const reason = (err: unknown) => (err instanceof Error ? err.message : String(err));

    const thumbnail = post.settings.thumbnail as MediaRef | undefined;
    const thumbnailUrl = str(post.settings.thumbnail_url);
    if (thumbnail || thumbnailUrl) {
      if (extra.short === true) {
        warnings.push('The thumbnail was not set: YouTube does not take custom thumbnails for Shorts.');
      } else {
        try {
          await setThumbnail(ctx, state.videoId, thumbnail, thumbnailUrl);
        } catch (err) {
          extra.thumbnail_error = reason(err);
          warnings.push(`The thumbnail was not set: ${reason(err)}`);
        }
      }
    }

    const playlists = Array.isArray(post.settings.youtube_playlist_id) ? (post.settings.youtube_playlist_id as string[]) : [];
    if (playlists.length) {
      const results: Json[] = [];
      for (const playlistId of playlists) {
        try {
          await client.api(client.tokenOf(ctx), 'POST', '/youtube/v3/playlistItems?part=snippet',
            { snippet: { playlistId, resourceId: { kind: 'youtube#video', videoId: state.videoId } } }, ctx.signal);
          results.push({ playlist_id: playlistId, success: true });
        } catch (err) {
          results.push({ playlist_id: playlistId, success: false, error: reason(err) });
          warnings.push(`The video was not added to playlist ${playlistId}: ${reason(err)}`);
        }
      }
      extra.playlists = results;
    }

    const captions: Json[] = [];
    for (const slot of YOUTUBE_SUBTITLE_SLOTS) {
      const file = post.settings[`youtube_subtitle_file${slot}`] as MediaRef | undefined;
      const language = str(post.settings[`youtube_subtitle_language${slot}`]);
      if (!file || !language) continue;
      const name = str(post.settings[`youtube_subtitle_name${slot}`]) ?? language;
      try {
        const caption = await uploadCaption(ctx, state.videoId, file, language, name);
        captions.push({ language, name, success: true, caption_id: caption });
      } catch (err) {
        captions.push({ language, name, success: false, error: reason(err) });
        warnings.push(`The ${language} captions were not added: ${reason(err)}`);
      }
    }
    if (captions.length) extra.captions = captions;

    const deadline = new Date(now().getTime() + maxProcessingMs).toISOString();
    return { kind: 'wait', afterMs: pollIntervalMs, state: { phase: 'processing', videoId: state.videoId, deadline, warnings, extra } };
  }

  async function setThumbnail(ctx: PublishContext, videoId: string, file: MediaRef | undefined, url: string | undefined): Promise<void> {
    let bytes: Buffer;
    let type: string;
    if (file) {
      bytes = await collectAll(ctx.media.read(file.id));
      type = file.contentType;
    } else {
      ({ bytes, type } = await fetchImage(url!, ctx.signal));
    }
    if (!THUMBNAIL_TYPES.includes(type)) throw new Error(`thumbnail_url is ${type || 'of no content type'}, not a JPG, PNG, GIF or BMP image.`);
    if (bytes.length > THUMBNAIL_MAX_BYTES) throw new Error('the thumbnail is larger than 2 MB.');
    // thumbnails.set names image/jpeg and image/png; GIF and BMP go as octet-stream.
    const contentType = type === 'image/jpeg' || type === 'image/png' ? type : 'application/octet-stream';
    const outcome = await exchangeJson(`${apiBase}/upload/youtube/v3/thumbnails/set?videoId=${encodeURIComponent(videoId)}&uploadType=media`, {
      method: 'POST',
      headers: { authorization: `Bearer ${client.tokenOf(ctx)}`, 'content-type': contentType },
      body: bytes,
    }, { fetch: client.fetch, timeoutMs: uploadTimeoutMs, signal: ctx.signal });
    if (outcome.kind === 'no_response' || outcome.status !== 200) throw client.failure(outcome, uploadTimeoutMs);
  }

  /** thumbnails.set takes bytes, not a URL: Herald fetches thumbnail_url itself. */
  async function fetchImage(url: string, signal?: AbortSignal): Promise<{ bytes: Buffer; type: string }> {
    // The deadline covers the body too (read below), as the timeout signal always has.
    const deadline = callDeadline(timeoutMs, signal);
    try {
      let res: Response;
      try {
        res = await client.fetch(url, { signal: deadline.signal });
      } catch {
        throw new Error(`thumbnail_url could not be fetched (no answer within ${timeoutMs} ms).`);
      }
      if (!res.ok || !res.body) throw new Error(`thumbnail_url answered HTTP ${res.status}.`);
      const bytes = await collectBytes(res.body, THUMBNAIL_MAX_BYTES);
      if (!bytes) {
        await res.body.cancel().catch(() => undefined);
        throw new Error('the thumbnail is larger than 2 MB.');
      }
      const type = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      return { bytes, type: type === 'image/jpg' ? 'image/jpeg' : type };
    } finally {
      deadline.done();
    }
  }

  /** captions.insert through its own resumable session: the snippet first, then the file. */
  async function uploadCaption(ctx: PublishContext, videoId: string, file: MediaRef, language: string, name: string): Promise<string> {
    const bytes = await collectAll(ctx.media.read(file.id));
    // captions.insert takes any type; octet-stream keeps YouTube detecting the format from the content.
    const session = await client.openSession(ctx, '/upload/youtube/v3/captions?uploadType=resumable&part=snippet',
      { snippet: { videoId, language, name, isDraft: false } }, bytes.length, 'application/octet-stream');
    const range = await client.sendRange(ctx, session, bytes.length, 'application/octet-stream', { start: 0, bytes });
    if (range.kind === 'failed') throw client.failure(range.outcome, uploadTimeoutMs);
    if (range.kind === 'incomplete') throw new Error(`YouTube kept ${range.received} of ${bytes.length} caption bytes.`);
    const id = str(range.body.id);
    if (!id) throw client.failure({ kind: 'malformed', status: 200, what: 'the id of the caption track' });
    return id;
  }

  async function pollProcessing(ctx: PublishContext, state: Extract<PublishState, { phase: 'processing' }>): Promise<PublishStep> {
    const warnings = [...state.warnings];
    const done = (processing: string, note?: string): PublishStep => {
      if (note) warnings.push(note);
      const short = state.extra.short === true;
      return {
        kind: 'done',
        outcome: {
          postId: state.videoId,
          url: short ? `https://www.youtube.com/shorts/${state.videoId}` : `https://www.youtube.com/watch?v=${state.videoId}`,
          warnings,
          extra: { ...state.extra, processing_status: processing },
        },
      };
    };
    const pastDeadline = now().getTime() >= Date.parse(state.deadline);
    const again = (): PublishStep => (pastDeadline
      ? done('processing', 'YouTube is still processing the video; it plays at its URL once processing ends.')
      : { kind: 'wait', afterMs: pollIntervalMs, state });

    let video: Json | undefined;
    try {
      const list = await client.api(client.tokenOf(ctx), 'GET', `/youtube/v3/videos?part=status,processingDetails&id=${encodeURIComponent(state.videoId)}`, undefined, ctx.signal);
      video = Array.isArray(list.items) && isObject(list.items[0]) ? list.items[0] : undefined;
    } catch (err) {
      // auth_expired is safe to throw: the engine refreshes the token and resumes this same step.
      if (err instanceof PlatformError && err.failure.kind === 'auth_expired') throw err;
      if (err instanceof PlatformError && (err.failure.kind === 'transient' || err.failure.kind === 'rate_limited')) return again();
      return done('unknown', `The processing status of the video could not be read: ${(err as Error).message}`);
    }
    // A video just uploaded can take a moment to be listed.
    if (!video) return again();
    const status = isObject(video.status) ? video.status : {};
    const details = isObject(video.processingDetails) ? video.processingDetails : {};
    const uploadStatus = str(status.uploadStatus);
    if (uploadStatus === 'failed' || uploadStatus === 'rejected' || uploadStatus === 'deleted') {
      throw client.failure({ kind: 'processing', uploadStatus, reason: str(status.failureReason) ?? str(status.rejectionReason) });
    }
    const processing = str(details.processingStatus);
    if (processing === 'failed' || processing === 'terminated') throw client.failure({ kind: 'processing', uploadStatus: 'failed', reason: str(details.processingFailureReason) });
    if (uploadStatus === 'processed' || processing === 'succeeded') return done('succeeded');
    return again();
  }

  return {
    publish: (ctx, post) => startUpload(ctx, post),
    async resume(ctx, post, raw) {
      const state = raw as PublishState;
      switch (state.phase) {
        case 'upload': return uploadChunks(ctx, post, state);
        case 'extras': return addExtras(ctx, post, state);
        case 'processing': return pollProcessing(ctx, state);
        default: throw new Error(`unknown YouTube publish state ${JSON.stringify(raw).slice(0, 80)}`);
      }
    },
  };
}
