/**
 * Threads through the Threads API (developers.facebook.com/docs/threads): OAuth at
 * threads.net/oauth/authorize → graph.threads.net/oauth/access_token → a 60-day token from
 * /access_token (th_exchange_token), renewed with /refresh_access_token (th_refresh_token). Posts are
 * containers: POST /{uid}/threads (Meta pulls media from public URLs) → GET /{container}?fields=status
 * → POST /{uid}/threads_publish → GET /{id}?fields=permalink. More than 20 files, or an explicit
 * threads_thread_media_layout, become a thread: each post a reply to the one before.
 */
import { PlatformError, type PlatformFailure } from '../../../core/domain/errors';
import type { MediaRef } from '../../../core/domain/media';
import type { MediaKind } from '../../../core/domain/platforms';
import type { SettingsSchema, SettingViolation } from '../../../core/domain/settings';
import type {
  PlatformAdapter, PlatformCredentials, PlatformDescriptor, PublishContext, PublishPost, PublishStep, VerifiedConnection,
} from '../../../core/ports/platform';
import { isObject, type HttpExchange } from '../kit/http';
import {
  createMetaGraphClient, META_RATE_LIMIT_CODES, metaAuthorizeUrl, META_TOKEN_SUBCODE_REASONS, metaNoResponseMessage, metaRetryAfterMs, metaTokenExpiresAt,
  metaWaitStep, readMetaAccount, readMetaGraphError, readMetaIdentity, readMetaPermalink,
} from '../kit/meta-graph';

export const THREADS_API_BASE = 'https://graph.threads.net';
export const THREADS_API_VERSION = 'v1.0';
export const THREADS_AUTHORIZE_URL = 'https://threads.net/oauth/authorize';
export const THREADS_SCOPES = ['threads_basic', 'threads_content_publish', 'threads_manage_replies'] as const;

const DEFAULT_TIMEOUT_MS = 20_000;
/** Meta recommends about 30 s before publishing a media container; text containers are ready at once. */
const DEFAULT_POLL_MS = 30_000;
const DEFAULT_MAX_PROCESSING_MS = 10 * 60_000;
const DEFAULT_RATE_LIMIT_MS = 60_000;
/** No reset time comes with the 24-hour publishing quota: try again in an hour. */
const QUOTA_RETRY_MS = 60 * 60_000;
const MAX_TEXT = 500;
const MAX_CAROUSEL = 20;
const MAX_ALT_TEXT = 1000;
const REPLY_CONTROLS = ['everyone', 'accounts_you_follow', 'mentioned_only', 'parent_post_author_only', 'followers_only', 'followers'] as const;
const ALL: readonly MediaKind[] = ['video', 'photo', 'text'];

export interface ThreadsPlatformOptions {
  clientId: string;
  clientSecret: string;
  /** graph.threads.net by default: the Graph API, the token exchange and the refresh. */
  apiBase?: string;
  apiVersion?: string;
  /** https://threads.net/oauth/authorize by default. */
  authorizeUrl?: string;
  timeoutMs?: number;
  /** Delay between container status checks (default 30 s). */
  pollIntervalMs?: number;
  /** A post's containers still processing after this long fail the attempt as transient (default 10 min). */
  maxProcessingMs?: number;
  fetch?: typeof fetch;
}

/** Threads counts characters, except that emojis count as their UTF-8 bytes (Threads Posts, Limitations). */
export function threadsTextLength(text: string): number {
  let n = 0;
  for (const ch of text) n += /[\p{Extended_Pictographic}\p{Emoji_Modifier}\u200d\ufe0f]/u.test(ch) ? Buffer.byteLength(ch) : 1;
  return n;
}

/** The number of files in each post of the thread, from the layout setting or in chunks of 20. */
function layoutOf(values: Record<string, unknown>, mediaCount: number): number[] {
  const raw = values.threads_thread_media_layout as string[] | undefined;
  if (raw?.length) return raw.map(Number);
  if (mediaCount === 0) return [0];
  const out: number[] = [];
  for (let left = mediaCount; left > 0; left -= MAX_CAROUSEL) out.push(Math.min(MAX_CAROUSEL, left));
  return out;
}

function checkSettings(values: Record<string, unknown>, ctx: { endpoint: MediaKind; mediaCount: number }): SettingViolation[] {
  const violations: SettingViolation[] = [];
  const tag = values.threads_topic_tag as string | undefined;
  if (tag !== undefined && (!tag.trim() || /[.&]/.test(tag))) {
    violations.push({ field: 'threads_topic_tag', message: 'threads_topic_tag is 1-50 characters without a period or an ampersand' });
  }
  const layout = values.threads_thread_media_layout as string[] | undefined;
  if (layout?.length) {
    const counts = layout.map(Number);
    if (counts.some((n) => !Number.isInteger(n) || n < 0 || n > MAX_CAROUSEL)) {
      violations.push({ field: 'threads_thread_media_layout', message: `threads_thread_media_layout takes whole numbers from 0 to ${MAX_CAROUSEL}` });
    } else if (counts.reduce((a, b) => a + b, 0) !== ctx.mediaCount) {
      violations.push({ field: 'threads_thread_media_layout', message: `threads_thread_media_layout adds up to ${counts.reduce((a, b) => a + b, 0)}, but ${ctx.mediaCount} files were sent` });
    } else if (counts.slice(1).includes(0)) {
      // A text-only post needs text, and only the first post of the thread carries the title.
      violations.push({ field: 'threads_thread_media_layout', message: 'only the first post of the thread can be text-only (0): it carries the title' });
    }
  }
  const alt = values.threads_alt_text as string[] | undefined;
  if (alt) {
    const long = alt.findIndex((a) => [...a].length > MAX_ALT_TEXT);
    if (long >= 0) violations.push({ field: 'threads_alt_text', message: `threads_alt_text item ${long + 1} is longer than ${MAX_ALT_TEXT} characters` });
    if (alt.length > ctx.mediaCount) violations.push({ field: 'threads_alt_text', message: `threads_alt_text has ${alt.length} items for ${ctx.mediaCount} files` });
  }
  return violations;
}

export const threadsSettings: SettingsSchema = {
  fields: [
    { name: 'threads_topic_tag', type: 'string', endpoints: ALL, maxLength: 50, description: 'One topic per post: 1-50 characters, no "." or "&".' },
    { name: 'threads_reply_control', type: 'string', endpoints: ALL, oneOf: REPLY_CONTROLS, description: 'Who can reply; "followers" means followers_only.' },
    { name: 'threads_reply_to_id', type: 'string', endpoints: ALL, description: 'Publish as a reply to this Threads post id.' },
    { name: 'threads_quote_post_id', type: 'string', endpoints: ALL, description: 'Quote this Threads post id.' },
    { name: 'threads_alt_text', type: 'string_list', endpoints: ['photo', 'video'], separator: '||',
      description: `Alt text per file, in order (JSON array or "||"-separated); max ${MAX_ALT_TEXT} characters each.` },
    { name: 'threads_thread_media_layout', type: 'string_list', endpoints: ['photo'],
      description: `Files per post of a thread, e.g. "0,3,2"; each 0-${MAX_CAROUSEL}, adding up to the number of files. Without it, more than ${MAX_CAROUSEL} files are split into posts of ${MAX_CAROUSEL}.` },
  ],
  check: checkSettings,
};

export const threadsDescriptor: PlatformDescriptor = {
  id: 'threads',
  displayName: 'Threads',
  connect: 'oauth',
  endpoints: ['video', 'photo', 'text'],
  limits: {
    textMaxChars: MAX_TEXT,
    textLength: threadsTextLength,
    video: { maxBytes: 1024 * 1024 * 1024, maxSeconds: 300, containers: ['mov,mp4,m4a,3gp,3g2,mj2'] },
    // No maxCount: beyond 20 files the post becomes a thread of carousels.
    photo: { maxBytes: 8 * 1024 * 1024, contentTypes: ['image/jpeg', 'image/png'] },
  },
  settings: threadsSettings,
  rules: { dailyCap: 50, videoInPhotos: true },
};

/** What came back from Threads, before it is given a meaning. */
export type ThreadsOutcome =
  | HttpExchange
  | { kind: 'malformed'; status: number; what: string }
  /** A container ended in ERROR (with Threads' error_message, e.g. FAILED_DOWNLOADING_VIDEO) or EXPIRED. */
  | { kind: 'container_failed'; status: string; errorMessage?: string }
  | { kind: 'processing_timeout'; waitedMs: number }
  /** threads_publishing_limit says the 24-hour quota of posts or replies is used up. */
  | { kind: 'quota_exhausted'; what: 'posts' | 'replies'; usage: number; total: number };

export interface ThreadsFailureContext {
  timeoutMs: number;
  /** The code exchange: a refused code, secret or redirect_uri is an OAuth refusal, whatever its code. */
  stage?: 'connect';
}

/** X-Business-Use-Case-Usage / X-App-Usage `estimated_time_to_regain_access` (minutes), else Retry-After. */
const USAGE_HEADERS = ['x-business-use-case-usage', 'x-app-usage'] as const;
const retryAfterMs = (headers: Headers): number => metaRetryAfterMs(headers, USAGE_HEADERS, DEFAULT_RATE_LIMIT_MS);

/**
 * The one place Threads' answers get a meaning in the core taxonomy. Threads answers in the Graph
 * shape `{error:{message,type,code,error_subcode,is_transient,fbtrace_id}}`: classified by
 * code/subcode, then HTTP status. Checkpoint is Graph's 190 with subcode 459 ("user checkpointed"),
 * tested before the other 190s. Messages never contain tokens.
 */
export function mapThreadsFailure(outcome: ThreadsOutcome, ctx: ThreadsFailureContext): PlatformError {
  const { timeoutMs } = ctx;
  const fail = (failure: PlatformFailure, message: string, upstream: { status?: number; code?: string | number } = {}) =>
    new PlatformError('threads', failure, message, upstream);

  switch (outcome.kind) {
    case 'no_response':
      return fail({ kind: 'transient' }, metaNoResponseMessage('Threads', outcome, timeoutMs));
    case 'malformed':
      return fail({ kind: 'rejected', code: 'unexpected_response' },
        `Threads answered HTTP ${outcome.status} without ${outcome.what}; check the profile before retrying.`, { status: outcome.status });
    case 'container_failed':
      if (outcome.status === 'EXPIRED') return fail({ kind: 'transient' }, 'Threads: the media container expired before it was published; a new attempt creates a new one.');
      return fail({ kind: 'invalid_content', code: (outcome.errorMessage ?? 'media_processing_failed').toLowerCase() },
        `Threads could not process the media: ${outcome.errorMessage ?? 'UNKNOWN'}`, { code: outcome.errorMessage });
    case 'processing_timeout':
      return fail({ kind: 'transient' }, `Threads was still processing the media after ${Math.round(outcome.waitedMs / 1000)} s.`);
    case 'quota_exhausted':
      return fail({ kind: 'rate_limited', retryAfterMs: QUOTA_RETRY_MS },
        `Threads: the profile used ${outcome.usage} of its ${outcome.total} API ${outcome.what} in the last 24 hours.`);
    case 'response':
      break;
  }

  const { status, headers } = outcome;
  const body = isObject(outcome.body) ? outcome.body : {};
  const graphError = readMetaGraphError(body, status, 'Threads');
  if (!graphError) {
    if (status === 429) return fail({ kind: 'rate_limited', retryAfterMs: retryAfterMs(headers) }, 'Threads: too many requests.', { status });
    if (status >= 500) return fail({ kind: 'transient' }, `Threads is failing (HTTP ${status}); try again later.`, { status });
    return fail({ kind: 'rejected' }, `Threads answered HTTP ${status}.`, { status });
  }
  const { error, code, subcode, detail, said, upstream } = graphError;

  if (code === 190 && subcode === 459) {
    return fail({ kind: 'checkpoint' }, `${said}. Sign in to Threads or Instagram and complete what it asks, then try again.`, upstream);
  }
  if (code === 190 || code === 102) {
    return fail({ kind: 'auth_expired', reason: META_TOKEN_SUBCODE_REASONS[subcode] ?? 'token_invalid' }, `${said}. Reconnect the Threads account.`, upstream);
  }
  // Code 9 is the 24-hour publishing limit: no reset time comes with it.
  if (code === 9) return fail({ kind: 'rate_limited', retryAfterMs: QUOTA_RETRY_MS }, said, upstream);
  if (META_RATE_LIMIT_CODES.has(code) || status === 429) return fail({ kind: 'rate_limited', retryAfterMs: retryAfterMs(headers) }, said, upstream);
  if (ctx.stage === 'connect' && status < 500) return fail({ kind: 'rejected', code: 'oauth_rejected' }, `Threads refused the authorization: ${detail}`, upstream);
  if (code === 10 || (code >= 200 && code <= 299)) {
    return fail({ kind: 'rejected', code: 'permission_denied' }, `${said}. The connection lacks a permission; reconnect the account.`, upstream);
  }
  // 9007: the container is not ready to publish yet.
  if (code === 1 || code === 2 || code === 9007 || error.is_transient === true || status >= 500) return fail({ kind: 'transient' }, said, upstream);
  if (code === 100 && subcode === 33) return fail({ kind: 'rejected', code: 'not_found' }, said, upstream);
  if (code === 100) return fail({ kind: 'invalid_content', code: 'invalid_parameter' }, said, upstream);
  return fail({ kind: 'rejected' }, said, upstream);
}

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

function invalid(message: string, code?: string): PlatformError {
  return new PlatformError('threads', { kind: 'invalid_content', ...(code ? { code } : {}) }, message);
}

export function createThreadsPlatform(opts: ThreadsPlatformOptions): PlatformAdapter {
  const apiBase = (opts.apiBase ?? THREADS_API_BASE).replace(/\/+$/, '');
  const authorizeUrl = opts.authorizeUrl ?? THREADS_AUTHORIZE_URL;
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxProcessingMs = opts.maxProcessingMs ?? DEFAULT_MAX_PROCESSING_MS;
  const meta = createMetaGraphClient<{ stage?: 'connect' }>({
    apiBase, apiVersion: opts.apiVersion ?? THREADS_API_VERSION, timeoutMs, fetch: opts.fetch ?? fetch, baseCtx: {},
    fail: (outcome, { stage }) => mapThreadsFailure(outcome, { timeoutMs, stage }),
  });
  const { idOf } = meta;
  const graphCall = (method: 'GET' | 'POST', path: string, params: Record<string, string>, token: string, what: string, signal?: AbortSignal) =>
    meta.graphCall(method, path, params, token, what, {}, signal);

  function account(credentials: PlatformCredentials): { token: string; userId: string } {
    return readMetaAccount(credentials, 'threads', 'Threads', 'threads_user_id');
  }

  async function exchangeCode(input: { code: string; redirectUri: string }): Promise<VerifiedConnection> {
    const short = await meta.postForm(`${apiBase}/oauth/access_token`, {
      client_id: opts.clientId, client_secret: opts.clientSecret, grant_type: 'authorization_code', redirect_uri: input.redirectUri, code: input.code.replace(/#_$/, ''),
    }, 'an access token', { stage: 'connect' });
    if (typeof short.access_token !== 'string') throw mapThreadsFailure({ kind: 'malformed', status: 200, what: 'an access token' }, { timeoutMs });
    const long = await meta.exchangeForLongLived('th_exchange_token', opts.clientSecret, short.access_token, { stage: 'connect' });

    const me = await graphCall('GET', '/me', { fields: 'id,username,name,threads_profile_picture_url' }, long.access_token, 'the profile');
    const identity = readMetaIdentity(me, 'id', 'threads_profile_picture_url');
    if (!identity) throw mapThreadsFailure({ kind: 'malformed', status: 200, what: 'the profile id and username' }, { timeoutMs });
    return {
      identity,
      credentials: { access_token: long.access_token, expires_at: metaTokenExpiresAt(long.expires_in), threads_user_id: identity.platformUserId },
    };
  }

  async function refresh(credentials: PlatformCredentials): Promise<PlatformCredentials> {
    const { token } = account(credentials);
    // The long-lived token is itself renewed (no separate refresh token): always keep the one that comes back.
    return meta.refreshLongLived('th_refresh_token', token, credentials);
  }

  function checkMedia(m: MediaRef, i: number): void {
    const which = `file ${i + 1}`;
    if (m.kind === 'image') {
      if (!['image/jpeg', 'image/png'].includes(m.contentType)) throw invalid(`Threads takes JPEG or PNG images; ${which} is ${m.contentType}.`, 'unsupported_media_type');
      if (m.size > 8 * 1024 * 1024) throw invalid(`Threads images are limited to 8 MB; ${which} has ${m.size} bytes.`, 'media_too_large');
      return;
    }
    if (m.size > 1024 * 1024 * 1024) throw invalid(`Threads videos are limited to 1 GB; ${which} has ${m.size} bytes.`, 'media_too_large');
    const container = m.info?.container;
    if (container && !container.split(',').some((c) => c === 'mp4' || c === 'mov')) throw invalid(`Threads takes MP4 or MOV videos; ${which} is ${container}.`, 'unsupported_media_type');
    const seconds = m.info?.durationSeconds;
    if (seconds != null && seconds > 300) throw invalid(`Threads videos last at most 5 minutes; ${which} lasts ${Math.round(seconds)} s.`, 'invalid_duration');
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
        throw mapThreadsFailure({ kind: 'container_failed', status, errorMessage: typeof body.error_message === 'string' ? body.error_message : undefined }, { timeoutMs });
      }
      return status;
    };
    const wait = (next: PublishState): PublishStep =>
      metaWaitStep(next, maxProcessingMs, (waitedMs) => mapThreadsFailure({ kind: 'processing_timeout', waitedMs }, { timeoutMs }));

    let st = state;
    for (;;) {
      const post = st.posts[st.index]!;
      // Posts after the first reply to the one before: that is what makes them a thread.
      const replyTo: Record<string, string> = st.index > 0 ? { reply_to_id: st.published[st.index - 1]! } : {};
      if (st.phase === 'start') {
        if (post.mediaType === 'CAROUSEL') {
          const children: string[] = [];
          for (const child of post.children) children.push(await create(child));
          return wait({ ...st, phase: 'children', children, startedAt: Date.now() });
        }
        const container = await create({ ...post.params, ...replyTo });
        st = { ...st, phase: 'container', container, startedAt: Date.now() };
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
        throw mapThreadsFailure({ kind: 'quota_exhausted', what, usage: n, total }, { timeoutMs });
      }
    };
    check('posts', usage.quota_usage, usage.config);
    check('replies', usage.reply_quota_usage, usage.reply_config);

    const pollMs = opts.pollIntervalMs ?? DEFAULT_POLL_MS;
    return advance(ctx, { posts: planned.posts, index: 0, phase: 'start', children: [], published: [], pollMs, startedAt: Date.now(), warnings: planned.warnings });
  }

  return {
    descriptor: threadsDescriptor,
    oauth: {
      pkce: false,
      authorizeUrl: ({ state, redirectUri }) => metaAuthorizeUrl(authorizeUrl, {
        client_id: opts.clientId, redirect_uri: redirectUri, scope: THREADS_SCOPES.join(','), response_type: 'code', state,
      }),
      exchangeCode,
    },
    refresher: { refresh },
    publisher: {
      publish,
      resume: (ctx, _post, state) => advance(ctx, state as unknown as PublishState),
    },
    probe: {
      // The profile read of the connect flow: a checkpointed user answers 190/459 to every call.
      async probe(ctx) {
        const { token } = account(ctx.credentials);
        await graphCall('GET', '/me', { fields: 'id' }, token, 'the profile', ctx.signal);
      },
    },
    comments: {
      /** A reply to the last post of the thread: create a TEXT container with reply_to_id, then publish it. */
      async create(ctx, { post, text }) {
        const ids = post.extra?.thread_post_ids;
        const last = Array.isArray(ids) && typeof ids[ids.length - 1] === 'string' ? (ids[ids.length - 1] as string) : post.id;
        if (!last) return { warnings: ['The first comment was skipped: the Threads post id is not known yet.'] };
        const length = threadsTextLength(text);
        if (!text.trim() || length > MAX_TEXT) throw invalid(`A Threads reply has 1 to ${MAX_TEXT} characters; this one has ${length}.`, 'text_too_long');
        const { token, userId } = account(ctx.credentials);
        const container = idOf(await graphCall('POST', `/${encodeURIComponent(userId)}/threads`,
          { media_type: 'TEXT', text, reply_to_id: last }, token, 'a container id', ctx.signal), 'a container id');
        const reply = await graphCall('POST', `/${encodeURIComponent(userId)}/threads_publish`, { creation_id: container }, token, 'the reply id', ctx.signal);
        return { comment: { id: idOf(reply, 'the reply id'), post } };
      },
    },
  };
}
