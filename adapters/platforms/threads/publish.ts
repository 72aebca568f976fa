/**
 * Posts are containers: POST /{uid}/threads (Meta pulls media from public URLs) → GET
 * /{container}?fields=status → POST /{uid}/threads_publish → GET /{id}?fields=permalink. More than
 * 20 files, or an explicit threads_thread_media_layout, become a thread: each post a reply to the
 * one before. Processing is waited for with `wait` steps, never a sleep.
 */
import type { MediaRef, PublishContext, Publisher, PublishPost, PublishStep } from '../../../core/ports/platform';
import { isObject } from '../kit/http';
import { metaWaitStep, readMetaPermalink } from '../kit/meta-graph';
import { invalid, type ThreadsClient } from './client';
import { MAX_CAROUSEL, MAX_IMAGE_BYTES, MAX_TEXT, MAX_VIDEO_BYTES, MAX_VIDEO_SECONDS, PHOTO_TYPES, threadsTextLength } from './limits';
import { layoutOf } from './settings';

/** Meta recommends about 30 s before publishing a media container; text containers are ready at once. */
const DEFAULT_POLL_MS = 30_000;
const DEFAULT_MAX_PROCESSING_MS = 10 * 60_000;

type ThreadsMediaType = 'TEXT' | 'IMAGE' | 'VIDEO' | 'CAROUSEL';

/** One post of the thread: its container parameters and, for a carousel, its children's. */
interface PostPlan { mediaType: ThreadsMediaType; params: Record<string, string>; children: Record<string, string>[]; video: boolean }

/** What resume needs, kept as plain JSON across the workflow's timers. */
interface PublishState {
  posts: PostPlan[];
  index: number;
  phase: 'start' | 'children' | 'container';
  children: string[];
  container?: string;
  /** Ids of the posts published so far, in thread order. */
  published: string[];
  pollMs: number;
  startedAt: number;
  warnings: string[];
}

export function createThreadsPublisher(client: ThreadsClient): Publisher {
  const { opts, graphCall, fail } = client;
  const { idOf } = client.meta;
  const account = client.account;
  const maxProcessingMs = opts.maxProcessingMs ?? DEFAULT_MAX_PROCESSING_MS;

  function checkMedia(m: MediaRef, i: number): void {
    const which = `file ${i + 1}`;
    if (m.kind === 'image') {
      if (!PHOTO_TYPES.includes(m.contentType)) throw invalid(`Threads takes JPEG or PNG images; ${which} is ${m.contentType}.`, 'unsupported_media_type');
      if (m.size > MAX_IMAGE_BYTES) throw invalid(`Threads images are limited to 8 MB; ${which} has ${m.size} bytes.`, 'media_too_large');
      return;
    }
    if (m.size > MAX_VIDEO_BYTES) throw invalid(`Threads videos are limited to 1 GB; ${which} has ${m.size} bytes.`, 'media_too_large');
    const container = m.info?.container;
    if (container && !container.split(',').some((c) => c === 'mp4' || c === 'mov')) throw invalid(`Threads takes MP4 or MOV videos; ${which} is ${container}.`, 'unsupported_media_type');
    const seconds = m.info?.durationSeconds;
    if (seconds != null && seconds > MAX_VIDEO_SECONDS) throw invalid(`Threads videos last at most 5 minutes; ${which} lasts ${Math.round(seconds)} s.`, 'invalid_duration');
  }

  /** Everything checked before anything is sent, and the posts of the thread. */
  function plan(ctx: PublishContext, post: PublishPost): { posts: PostPlan[]; warnings: string[] } {
    const s = post.settings;
    const media = post.media;
    const text = post.title ?? '';
    const length = threadsTextLength(text);
    if (length > MAX_TEXT) throw invalid(`Threads posts are limited to ${MAX_TEXT} characters (emojis count as their UTF-8 bytes); this one has ${length}.`, 'text_too_long');
    if (post.kind === 'text' && (media.length || !text.trim())) throw invalid('A Threads text post needs text and no media.', media.length ? 'media_invalid' : 'text_empty');
    if (post.kind === 'video' && (media.length !== 1 || media[0]!.kind !== 'video')) throw invalid('The video endpoint publishes exactly one video to Threads.', 'media_invalid');
    if (post.kind === 'photo' && !media.length) throw invalid('A Threads photo post needs at least one file.', 'media_required');
    media.forEach(checkMedia);

    const layout = layoutOf(s, media.length);
    if (layout.reduce((a, b) => a + b, 0) !== media.length || layout.slice(1).includes(0) || layout.some((n) => n > MAX_CAROUSEL)) {
      throw invalid('threads_thread_media_layout does not fit the files sent.', 'invalid_layout');
    }
    if (layout[0] === 0 && !text.trim()) throw invalid('The first post of this thread is text-only, but there is no text.', 'text_empty');

    const warnings: string[] = [];
    const alt = (s.threads_alt_text as string[] | undefined) ?? [];
    const url = (m: MediaRef) => ctx.media.publicUrl(m.id);
    const item = (m: MediaRef, i: number): Record<string, string> => ({
      ...(m.kind === 'image' ? { media_type: 'IMAGE', image_url: url(m) } : { media_type: 'VIDEO', video_url: url(m) }),
      ...(alt[i] ? { alt_text: alt[i]! } : {}),
    });

    // Root-only fields: the topic, the reply audience, and what the thread replies to or quotes.
    const root: Record<string, string> = {};
    if (text) root.text = text;
    if (typeof s.threads_topic_tag === 'string') root.topic_tag = s.threads_topic_tag;
    if (typeof s.threads_reply_control === 'string') root.reply_control = s.threads_reply_control === 'followers' ? 'followers_only' : s.threads_reply_control;
    if (typeof s.threads_reply_to_id === 'string' && s.threads_reply_to_id) root.reply_to_id = s.threads_reply_to_id;
    if (typeof s.threads_quote_post_id === 'string' && s.threads_quote_post_id) root.quote_post_id = s.threads_quote_post_id;

    let next = 0;
    const posts = layout.map((count, p): PostPlan => {
      const files = media.slice(next, next + count).map((m, k) => ({ m, i: next + k }));
      next += count;
      const own = p === 0 ? root : {};
      if (count === 0) return { mediaType: 'TEXT', params: { media_type: 'TEXT', ...own }, children: [], video: false };
      if (count === 1) return { mediaType: files[0]!.m.kind === 'video' ? 'VIDEO' : 'IMAGE', params: { ...item(files[0]!.m, files[0]!.i), ...own }, children: [], video: files[0]!.m.kind === 'video' };
      return {
        mediaType: 'CAROUSEL',
        params: { media_type: 'CAROUSEL', ...own },
        children: files.map(({ m, i }) => ({ ...item(m, i), is_carousel_item: 'true' })),
        video: files.some(({ m }) => m.kind === 'video'),
      };
    });
    if (posts.length > 1) warnings.push(`Threads received ${media.length} files as a thread of ${posts.length} posts, each a reply to the one before.`);
    return { posts, warnings };
  }

  async function advance(ctx: PublishContext, state: PublishState): Promise<PublishStep> {
    const { token, userId } = account(ctx.credentials);
    const create = async (params: Record<string, string>) =>
      idOf(await graphCall('POST', `/${encodeURIComponent(userId)}/threads`, params, token, 'a container id', ctx.signal), 'a container id');
    const statusOf = async (id: string) => {
      const body = await graphCall('GET', `/${encodeURIComponent(id)}`, { fields: 'status,error_message' }, token, 'a container status', ctx.signal);
      const status = typeof body.status === 'string' ? body.status : '';
      if (status === 'ERROR' || status === 'EXPIRED') {
        throw fail({ kind: 'container_failed', status, errorMessage: typeof body.error_message === 'string' ? body.error_message : undefined });
      }
      return status;
    };
    const wait = (next: PublishState): PublishStep =>
      metaWaitStep(next, maxProcessingMs, (waitedMs) => fail({ kind: 'processing_timeout', waitedMs }), client.now());

    let st = state;
    for (;;) {
      const post = st.posts[st.index]!;
      // Posts after the first reply to the one before: that is what makes them a thread.
      const replyTo: Record<string, string> = st.index > 0 ? { reply_to_id: st.published[st.index - 1]! } : {};
      if (st.phase === 'start') {
        if (post.mediaType === 'CAROUSEL') {
          const children: string[] = [];
          for (const child of post.children) children.push(await create(child));
          return wait({ ...st, phase: 'children', children, startedAt: client.now().getTime() });
        }
        const container = await create({ ...post.params, ...replyTo });
        st = { ...st, phase: 'container', container, startedAt: client.now().getTime() };
        // Media needs processing time; text is usually ready at once.
        if (post.mediaType !== 'TEXT') return wait(st);
      }
      if (st.phase === 'children') {
        for (const id of st.children) if ((await statusOf(id)) !== 'FINISHED') return wait(st);
        const container = await create({ ...post.params, ...replyTo, children: st.children.join(',') });
        return wait({ ...st, phase: 'container', container });
      }
      if ((await statusOf(st.container!)) !== 'FINISHED') return wait(st);
      // Threads takes no idempotency key: this is the call that must not be repeated blindly.
      const published = idOf(await graphCall('POST', `/${encodeURIComponent(userId)}/threads_publish`, { creation_id: st.container! }, token, 'the published post id', ctx.signal), 'the published post id');
      st = { ...st, published: [...st.published, published] };
      if (st.index + 1 < st.posts.length) {
        st = { ...st, index: st.index + 1, phase: 'start', children: [], container: undefined };
        continue;
      }
      return { kind: 'done', outcome: await outcomeOf(ctx, st) };
    }
  }

  async function outcomeOf(ctx: PublishContext, st: PublishState) {
    const { token } = account(ctx.credentials);
    const postId = st.published[0]!;
    const warnings = [...st.warnings];
    const url = await readMetaPermalink(() => graphCall('GET', `/${encodeURIComponent(postId)}`, { fields: 'permalink' }, token, 'the permalink', ctx.signal), warnings);
    return { postId, ...(url ? { url } : {}), warnings, ...(st.published.length > 1 ? { extra: { thread_post_ids: st.published } } : {}) };
  }

  async function publish(ctx: PublishContext, post: PublishPost): Promise<PublishStep> {
    const { token, userId } = account(ctx.credentials);
    const planned = plan(ctx, post);

    // Replies have their own quota; the root is a reply too when threads_reply_to_id is set.
    const rootIsReply = planned.posts[0]!.params.reply_to_id !== undefined;
    const need = { posts: rootIsReply ? 0 : 1, replies: planned.posts.length - 1 + (rootIsReply ? 1 : 0) };
    const limit = await graphCall('GET', `/${encodeURIComponent(userId)}/threads_publishing_limit`,
      { fields: 'quota_usage,config,reply_quota_usage,reply_config' }, token, 'the publishing limit', ctx.signal);
    const usage = Array.isArray(limit.data) && isObject(limit.data[0]) ? limit.data[0] : {};
    const check = (what: 'posts' | 'replies', used: unknown, config: unknown) => {
      const n = Number(used);
      const total = Number(isObject(config) ? config.quota_total : NaN);
      if (need[what] && Number.isFinite(n) && Number.isFinite(total) && n + need[what] > total) {
        throw fail({ kind: 'quota_exhausted', what, usage: n, total });
      }
    };
    check('posts', usage.quota_usage, usage.config);
    check('replies', usage.reply_quota_usage, usage.reply_config);

    const pollMs = opts.pollIntervalMs ?? DEFAULT_POLL_MS;
    return advance(ctx, { posts: planned.posts, index: 0, phase: 'start', children: [], published: [], pollMs, startedAt: client.now().getTime(), warnings: planned.warnings });
  }

  return {
    publish,
    resume: (ctx, _post, state) => advance(ctx, state as unknown as PublishState),
  };
}
