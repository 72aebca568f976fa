/**
 * Loopback simulator of the Threads API (developers.facebook.com/docs/threads): OAuth
 * (`/oauth/authorize` approve page, `/oauth/access_token`, `/access_token` th_exchange_token,
 * `/refresh_access_token` th_refresh_token) and the Graph API under `/v1.0`: containers
 * (TEXT, IMAGE, VIDEO, CAROUSEL) whose media Meta fetches from the URL itself, status with
 * error_message, threads_publish with the 250-post and 1000-reply quotas, permalinks and
 * threads_publishing_limit, with Graph's `{error:{message,type,code,error_subcode,fbtrace_id}}`.
 * One origin plays threads.net and graph.threads.net.
 */
import { listThreadsPosts } from './media';
import { seedInputOf, type SeedCommentInput } from '../kit/comments';
import { threadsCommentRoute, type ThreadsCommentDeps } from './comments';
import type { ServerResponse } from 'node:http';
import { createSeededSource, sendJson, sendText, startSimulatorHost, type RecordedRequest, type SimRequest } from '../kit/http';
import { clockControl, createAnalyticsModel } from '../kit/metrics';
import { createThreadsAnalytics, type ThreadsAnalytics } from './analytics';
import {
  answerConsent, approvePage, createCheckpointedAccounts, fetchMedia, graphParamsOf, META_SIM_COMMON_ERRORS, META_SIM_COMMON_FAILURE_MODES, sendGraphError, sniffMedia,
} from '../kit/meta-graph';

export const THREADS_FAILURE_MODES = [
  ...META_SIM_COMMON_FAILURE_MODES,
  /** Any API call, once per arming: 190/459, the user is checkpointed (checkpointAccount() makes it stick). */
  'checkpoint',
  /** The next threads_publish: code 9, the 24-hour publishing limit. */
  'publish_limit',
  /** The next media container created ends in ERROR (FAILED_PROCESSING_VIDEO) when processed. */
  'container_error',
] as const;
export type ThreadsFailureMode = (typeof THREADS_FAILURE_MODES)[number];

export const THREADS_SIM_REGAIN_MINUTES = 3;
export const THREADS_SIM_API_VERSION = 'v1.0';
export const THREADS_SIM_QUOTA = { posts: 250, replies: 1000 } as const;
const SCOPES = ['threads_basic', 'threads_content_publish', 'threads_manage_replies', 'threads_read_replies', 'threads_manage_insights'];
const REPLY_CONTROLS = ['everyone', 'accounts_you_follow', 'mentioned_only', 'parent_post_author_only', 'followers_only'];
const SHORT_TOKEN_SECONDS = 3600;
const LONG_TOKEN_SECONDS = 60 * 86400;
const MAX_TEXT = 500;

export interface ThreadsAccountFixture { id: string; username: string; name: string; profilePictureUrl: string; biography: string }

export interface ThreadsContainer {
  id: string;
  ownerId: string;
  mediaType: 'TEXT' | 'IMAGE' | 'VIDEO' | 'CAROUSEL';
  isCarouselItem: boolean;
  /** Every parameter the container was created with, as sent. */
  params: Record<string, string>;
  children: string[];
  status: 'IN_PROGRESS' | 'FINISHED' | 'ERROR' | 'EXPIRED' | 'PUBLISHED';
  errorMessage?: string;
  createdAt: Date;
}

export interface ThreadsPost {
  id: string;
  ownerId: string;
  containerId: string;
  media_type: 'TEXT_POST' | 'IMAGE' | 'VIDEO' | 'CAROUSEL_ALBUM';
  text?: string;
  permalink: string;
  shortcode: string;
  timestamp: string;
  /** The post this one replies to, if any. */
  replyToId?: string;
  quotePostId?: string;
  topicTag?: string;
  replyControl: string;
  children: ThreadsContainer[];
  params: Record<string, string>;
}

export interface ThreadsSimulatorOptions { port?: number; seed?: string; processingMs?: number }

export interface ThreadsSimulator {
  port: number;
  origin: string;
  /** The adapter's `apiBase`: the Graph API lives under `${apiBase}/${apiVersion}`, tokens at its root. */
  apiBase: string;
  apiVersion: string;
  authorizeUrl: string;
  createApp(input?: { clientId?: string; clientSecret?: string; redirectUris?: string[] }): { clientId: string; clientSecret: string };
  createAccount(input: { username: string; name?: string; profilePictureUrl?: string }): ThreadsAccountFixture;
  issueAuthCode(accountId: string, opts: { clientId: string; redirectUri: string; scopes?: string[] }): string;
  issueToken(accountId: string, opts: { clientId: string; scopes?: string[] }): { accessToken: string; expiresAt: Date };
  expireAccessTokens(accountId?: string): void;
  revokeTokens(accountId?: string): void;
  tokenInfo(token: string): { accountId: string; kind: 'short' | 'long'; expiresAt: Date; revoked: boolean; scopes: string[] } | undefined;
  /** Counts extra posts and replies against the account's 24-hour quotas. */
  usePublishingQuota(accountId: string, use: { posts?: number; replies?: number }): void;
  containers(): ThreadsContainer[];
  posts(accountId?: string): ThreadsPost[];
  /** Published replies to a post (the first comment lands here). */
  replies(postId: string): ThreadsPost[];
  /** A reply by another Threads user (also `POST /__sim/comment {post_id, text, author_name?, parent_id?}`). */
  seedComment(input: SeedCommentInput): ThreadsPost;
  /** A reply's moderation state: hidden, and published / pending / ignored. */
  replyState(id: string): { hidden: boolean; moderation: string };
  fail(mode: ThreadsFailureMode, times?: number): void;
  /** Every Graph API call with the account's tokens answers 190/459 until completeCheckpoint() (`POST /__sim/checkpoint`). */
  checkpointAccount(accountId: string): void;
  /** The user completed the checkpoint in the app: the account's calls work again. */
  completeCheckpoint(accountId: string): void;
  setLatency(ms: number): void;
  readonly requests: RecordedRequest[];
  /** The insights model (tests compare an adapter's numbers with these). */
  readonly analytics: ThreadsAnalytics;
  state(): Record<string, unknown>;
  /** Clears containers, posts, quota use, checkpoints, failures, latency and requests; apps, accounts, codes and tokens stay. */
  reset(): void;
  close(): Promise<void>;
}

interface SimToken { token: string; accountId: string; clientId: string; kind: 'short' | 'long'; scopes: string[]; expiresAt: number; revoked: boolean }
interface ContainerState extends ThreadsContainer { readyAt: number; done: boolean; failure?: string }
type RequestKind = 'authorize' | 'token' | 'container' | 'publish' | 'graph';

function appliesTo(mode: ThreadsFailureMode, kind: RequestKind): boolean {
  if (mode === 'container_error') return kind === 'container';
  if (mode === 'publish_limit') return kind === 'publish';
  return kind !== 'authorize';
}

/** Characters, with emojis counted as their UTF-8 bytes, as Threads counts them. */
const textLength = (text: string) => [...text].reduce((n, ch) => n + (/[\p{Extended_Pictographic}\p{Emoji_Modifier}\u200d\ufe0f]/u.test(ch) ? Buffer.byteLength(ch) : 1), 0);

export async function startThreadsSimulator(opts: ThreadsSimulatorOptions = {}): Promise<ThreadsSimulator> {
  const seeded = createSeededSource(opts.seed);
  const processingMs = opts.processingMs ?? 50;
  const apps = new Map<string, { clientId: string; clientSecret: string; redirectUris: string[] }>();
  const accounts = new Map<string, ThreadsAccountFixture>();
  const codes = new Map<string, { accountId: string; clientId: string; redirectUri: string; scopes: string[]; used: boolean; expiresAt: number }>();
  const tokens = new Map<string, SimToken>();
  const containers = new Map<string, ContainerState>();
  const posts = new Map<string, ThreadsPost>();
  const extra = new Map<string, { posts: number; replies: number }>();
  const hiddenReplies = new Set<string>();
  const pendingReplies = new Map<string, 'pending' | 'ignored'>();
  const armed: ThreadsFailureMode[] = [];
  const checkpointed = createCheckpointedAccounts((id) => accounts.has(id));
  let nextId = 1;
  const analytics = createThreadsAnalytics({
    model: createAnalyticsModel(opts.seed), posts: () => posts.values(),
    paramError: (res, message) => paramError(res, message), permissionDenied: (res) => failWith(res, 'permission_denied'),
  });

  const digits = (kind: string, n: number) => (seeded(kind).readBigUInt64BE(0) % 10n ** BigInt(n)).toString().padStart(n, '0');
  const secret = (kind: string, len: number) => seeded(kind).toString('base64url').slice(0, len);
  const liveId = (prefix: string) => `${prefix}${String(nextId++).padStart(17 - prefix.length, '0')}`;

  const graphError = (res: ServerResponse, status: number, error: Record<string, unknown>, headers: Record<string, string> = {}) =>
    sendGraphError(res, status, error, secret('trace', 11), headers);
  const paramError = (res: ServerResponse, message: string, subcode?: number) =>
    graphError(res, 400, { message, type: 'THApiException', code: 100, ...(subcode ? { error_subcode: subcode } : {}) });
  const notReady = (res: ServerResponse) => graphError(res, 400, { message: 'Media Not Ready: the media is still being processed.', type: 'THApiException', code: 9007 });

  function failWith(res: ServerResponse, mode: ThreadsFailureMode, ownerId = '0'): void {
    switch (mode) {
      case 'token_expired': case 'token_revoked': case 'server_error': case 'permission_denied':
        return graphError(res, META_SIM_COMMON_ERRORS[mode].status, META_SIM_COMMON_ERRORS[mode].error);
      case 'checkpoint': return graphError(res, 400, { message: 'Error validating access token: The user is checkpointed.', code: 190, error_subcode: 459 });
      case 'rate_limited':
        return graphError(res, 400, { message: '(#4) Application request limit reached', code: 4, is_transient: true }, {
          'x-business-use-case-usage': JSON.stringify({ [ownerId]: [{ type: 'threads', call_count: 100, total_cputime: 30, total_time: 40, estimated_time_to_regain_access: THREADS_SIM_REGAIN_MINUTES }] }),
        });
      case 'publish_limit': return graphError(res, 400, { message: 'The user has reached the 24-hour publishing limit.', type: 'THApiException', code: 9 });
      case 'container_error': return;
    }
  }

  const paramsOf = graphParamsOf;

  const newToken = (accountId: string, clientId: string, kind: 'short' | 'long', scopes: string[]): SimToken => {
    const t: SimToken = { token: `THAA${secret('token', 120)}`, accountId, clientId, kind, scopes,
      expiresAt: Date.now() + (kind === 'short' ? SHORT_TOKEN_SECONDS : LONG_TOKEN_SECONDS) * 1000, revoked: false };
    tokens.set(t.token, t);
    return t;
  };

  function authenticate(req: SimRequest, p: Record<string, string>, res: ServerResponse): SimToken | undefined {
    const raw = /^(?:Bearer|OAuth)\s+(.+)$/i.exec(String(req.headers.authorization ?? ''))?.[1] ?? p.access_token;
    const t = raw ? tokens.get(raw) : undefined;
    if (!raw) graphError(res, 400, { message: 'An active access token must be used to query information about the current user.', code: 2500 });
    else if (!t) graphError(res, 400, { message: 'Invalid OAuth access token - Cannot parse access token', code: 190 });
    else if (t.revoked) failWith(res, 'token_revoked');
    else if (t.expiresAt <= Date.now()) failWith(res, 'token_expired');
    else return t;
    return undefined;
  }

  // ----- OAuth ---------------------------------------------------------------------------------

  const scopesOf = (raw: string | undefined) => (raw ?? '').split(/[,\s]+/).filter(Boolean);

  function issueCode(accountId: string, clientId: string, redirectUri: string, scopes: string[]): string {
    const code = `AQ${secret('code', 60)}`;
    codes.set(code, { accountId, clientId, redirectUri, scopes, used: false, expiresAt: Date.now() + 3600_000 });
    return code;
  }

  function authorize(req: SimRequest, res: ServerResponse) {
    if (req.method === 'GET') {
      const q = req.query;
      const app = apps.get(q.client_id ?? '');
      if (!app) return sendText(res, 400, 'Invalid Request: Invalid platform app');
      if (q.response_type !== 'code' || !/^https?:\/\//.test(q.redirect_uri ?? '')) return sendText(res, 400, 'Invalid Request: response_type=code and redirect_uri are required');
      if (app.redirectUris.length && !app.redirectUris.includes(q.redirect_uri!)) return sendText(res, 400, 'Invalid Request: redirect_uri is not registered');
      const scopes = scopesOf(q.scope);
      const unknown = scopes.filter((s) => !SCOPES.includes(s));
      if (unknown.length || !scopes.includes('threads_basic')) return sendText(res, 400, `Invalid Scopes: ${unknown.join(', ') || 'threads_basic is required'}`);
      return sendText(res, 200, approvePage({
        network: 'Threads', appName: app.clientId, action: '/oauth/authorize', scopes,
        hidden: { client_id: app.clientId, redirect_uri: q.redirect_uri!, scope: scopes.join(','), state: q.state ?? '' },
        accounts: [...accounts.values()],
      }), 'text/html; charset=utf-8');
    }
    const f = paramsOf(req);
    answerConsent(res, f, {
      appExists: (clientId) => apps.has(clientId), accountExists: (accountId) => accounts.has(accountId),
      issueCode: (accountId, clientId, redirectUri) => issueCode(accountId, clientId, redirectUri, scopesOf(f.scope)),
      deniedDescription: 'Permissions error',
    });
  }

  function tokenRoute(req: SimRequest, res: ServerResponse, failure: ThreadsFailureMode | undefined) {
    const p = paramsOf(req);
    if (failure) return failWith(res, failure);
    if (req.path === '/oauth/access_token') {
      if (req.method !== 'POST') return paramError(res, 'Unsupported method');
      const app = apps.get(p.client_id ?? '');
      if (!app) return paramError(res, 'Invalid platform app');
      if (app.clientSecret !== p.client_secret) return graphError(res, 400, { message: 'Error validating client secret.', code: 1 });
      if (p.grant_type !== 'authorization_code') return paramError(res, 'Unsupported grant_type');
      const code = codes.get((p.code ?? '').replace(/#_$/, ''));
      if (!code || code.clientId !== app.clientId || code.expiresAt <= Date.now()) return paramError(res, 'Invalid verification code format.', 36007);
      if (code.used) return paramError(res, 'This authorization code has been used.', 36009);
      if (code.redirectUri !== p.redirect_uri) return paramError(res, 'Error validating verification code. Please make sure your redirect_uri is identical to the one you used in the OAuth dialog request', 36008);
      code.used = true;
      const t = newToken(code.accountId, code.clientId, 'short', code.scopes);
      const text = `{"access_token":${JSON.stringify(t.token)},"user_id":${code.accountId}}`;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      return res.end(text);
    }
    const exchange = req.path === '/access_token';
    if (p.grant_type !== (exchange ? 'th_exchange_token' : 'th_refresh_token')) return paramError(res, `grant_type must be ${exchange ? 'th_exchange_token' : 'th_refresh_token'}`);
    const t = authenticate(req, p, res);
    if (!t) return;
    if (exchange && (t.kind !== 'short' || apps.get(t.clientId)?.clientSecret !== p.client_secret)) return paramError(res, 'Only a short-lived token of this app can be exchanged');
    if (!exchange) {
      if (t.kind !== 'long') return paramError(res, 'Only a long-lived token can be refreshed');
      t.revoked = true; // strict rotation: the adapter must keep the token that comes back
    }
    const fresh = newToken(t.accountId, t.clientId, 'long', t.scopes);
    sendJson(res, 200, { access_token: fresh.token, token_type: 'bearer', expires_in: LONG_TOKEN_SECONDS });
  }

  // ----- Publishing ----------------------------------------------------------------------------

  function refreshStatus(c: ContainerState) {
    if (c.status !== 'IN_PROGRESS' || Date.now() < c.readyAt || !c.done) return;
    if (c.failure) { c.status = 'ERROR'; c.errorMessage = c.failure; } else c.status = 'FINISHED';
  }

  /** Meta fetches the media after creation; problems end the container in ERROR with error_message. */
  async function processMedia(c: ContainerState): Promise<void> {
    const video = c.mediaType === 'VIDEO';
    const got = await fetchMedia(video ? c.params.video_url! : c.params.image_url!, video ? 1024 ** 3 : 8 * 1024 ** 2);
    if (!got.ok) { c.failure ??= video ? 'FAILED_DOWNLOADING_VIDEO' : 'UNKNOWN'; return; }
    const sniffed = sniffMedia(got.data);
    if (video && sniffed.kind !== 'mp4') c.failure ??= 'FAILED_PROCESSING_VIDEO';
    else if (video && (sniffed.durationSeconds ?? 0) > 300) c.failure ??= 'INVALID_DURATION';
    else if (!video && sniffed.kind !== 'jpeg' && sniffed.kind !== 'png') c.failure ??= 'UNKNOWN';
  }

  function quota(ownerId: string): { posts: number; replies: number } {
    const since = Date.now() - 86400_000;
    const recent = [...posts.values()].filter((p) => p.ownerId === ownerId && Date.parse(p.timestamp) >= since);
    const more = extra.get(ownerId) ?? { posts: 0, replies: 0 };
    return { posts: recent.filter((p) => !p.replyToId).length + more.posts, replies: recent.filter((p) => p.replyToId).length + more.replies };
  }

  function createContainer(res: ServerResponse, owner: ThreadsAccountFixture, t: SimToken, p: Record<string, string>, failure: ThreadsFailureMode | undefined) {
    if (!t.scopes.includes('threads_content_publish')) return failWith(res, 'permission_denied');
    const mediaType = p.media_type as ThreadsContainer['mediaType'];
    if (!['TEXT', 'IMAGE', 'VIDEO', 'CAROUSEL'].includes(mediaType)) return paramError(res, 'Param media_type must be one of {TEXT, IMAGE, VIDEO, CAROUSEL}');
    const isItem = p.is_carousel_item === 'true';
    const text = p.text ?? '';
    if (mediaType === 'TEXT' && !text.trim()) return paramError(res, 'Param text is required for TEXT posts');
    if (textLength(text) > MAX_TEXT) return paramError(res, `Param text must be at most ${MAX_TEXT} characters long`);
    if (mediaType === 'IMAGE' && !p.image_url) return paramError(res, 'Param image_url is required for IMAGE posts');
    if (mediaType === 'VIDEO' && !p.video_url) return paramError(res, 'Param video_url is required for VIDEO posts');
    if (isItem && (mediaType === 'TEXT' || mediaType === 'CAROUSEL')) return paramError(res, 'Only IMAGE and VIDEO can be carousel items');
    if (isItem && ['text', 'reply_to_id', 'quote_post_id', 'topic_tag', 'reply_control'].some((k) => p[k] !== undefined)) {
      return paramError(res, 'Carousel items take only media and alt_text');
    }
    if (p.topic_tag !== undefined && (!p.topic_tag.trim() || [...p.topic_tag].length > 50 || /[.&]/.test(p.topic_tag))) {
      return paramError(res, 'Param topic_tag must be 1-50 characters without periods or ampersands');
    }
    if (p.reply_control !== undefined && !REPLY_CONTROLS.includes(p.reply_control)) return paramError(res, `Param reply_control must be one of {${REPLY_CONTROLS.join(', ')}}`);
    if (p.alt_text !== undefined && (mediaType === 'TEXT' || mediaType === 'CAROUSEL' || [...p.alt_text].length > 1000)) {
      return paramError(res, 'Param alt_text is for IMAGE and VIDEO, at most 1000 characters');
    }
    if (p.reply_to_id !== undefined) {
      if (!t.scopes.includes('threads_manage_replies')) return failWith(res, 'permission_denied');
      if (!posts.has(p.reply_to_id)) return paramError(res, `Object with ID '${p.reply_to_id}' does not exist`, 33);
    }
    if (p.quote_post_id !== undefined && !posts.has(p.quote_post_id)) return paramError(res, `Object with ID '${p.quote_post_id}' does not exist`, 33);

    let children: string[] = [];
    if (mediaType === 'CAROUSEL') {
      children = (p.children ?? '').split(',').map((s) => s.trim()).filter(Boolean);
      if (children.length < 2 || children.length > 20) return paramError(res, 'A carousel takes 2 to 20 children');
      for (const id of children) {
        const child = containers.get(id);
        if (!child || child.ownerId !== owner.id || !child.isCarouselItem) return paramError(res, `Child ${id} is not a carousel item of this profile`);
        refreshStatus(child);
        if (child.status !== 'FINISHED') return notReady(res);
      }
    }
    const c: ContainerState = {
      id: liveId('179'), ownerId: owner.id, mediaType, isCarouselItem: isItem, params: p, children, status: 'IN_PROGRESS',
      createdAt: new Date(), readyAt: mediaType === 'TEXT' ? 0 : Date.now() + processingMs, done: mediaType === 'TEXT' || mediaType === 'CAROUSEL',
      ...(failure === 'container_error' ? { failure: 'FAILED_PROCESSING_VIDEO' } : {}),
    };
    delete c.params.access_token;
    if (!c.done) void processMedia(c).finally(() => { c.done = true; });
    containers.set(c.id, c);
    refreshStatus(c);
    sendJson(res, 200, { id: c.id });
  }

  function publish(res: ServerResponse, owner: ThreadsAccountFixture, p: Record<string, string>) {
    const c = containers.get(p.creation_id ?? '');
    if (!c || c.ownerId !== owner.id) return paramError(res, `Object with ID '${p.creation_id ?? ''}' does not exist`, 33);
    if (c.isCarouselItem) return paramError(res, 'A carousel item cannot be published on its own');
    refreshStatus(c);
    if (c.status === 'IN_PROGRESS') return notReady(res);
    if (c.status !== 'FINISHED') return paramError(res, `The container is ${c.status}${c.errorMessage ? ` (${c.errorMessage})` : ''}`);
    const used = quota(owner.id);
    if (c.params.reply_to_id ? used.replies >= THREADS_SIM_QUOTA.replies : used.posts >= THREADS_SIM_QUOTA.posts) return failWith(res, 'publish_limit');
    const shortcode = secret('shortcode', 11);
    const post: ThreadsPost = {
      id: liveId('181'), ownerId: owner.id, containerId: c.id,
      media_type: c.mediaType === 'TEXT' ? 'TEXT_POST' : c.mediaType === 'CAROUSEL' ? 'CAROUSEL_ALBUM' : c.mediaType,
      ...(c.params.text ? { text: c.params.text } : {}),
      permalink: `https://www.threads.net/@${owner.username}/post/${shortcode}`,
      shortcode,
      timestamp: new Date().toISOString(),
      ...(c.params.reply_to_id ? { replyToId: c.params.reply_to_id } : {}),
      ...(c.params.quote_post_id ? { quotePostId: c.params.quote_post_id } : {}),
      ...(c.params.topic_tag ? { topicTag: c.params.topic_tag } : {}),
      replyControl: c.params.reply_control ?? 'everyone',
      children: c.children.map((id) => publicContainer(containers.get(id)!)),
      params: c.params,
    };
    posts.set(post.id, post);
    c.status = 'PUBLISHED';
    sendJson(res, 200, { id: post.id });
  }

  function publicContainer(c: ContainerState): ThreadsContainer {
    const { readyAt: _r, done: _d, failure: _f, ...rest } = c;
    return structuredClone(rest);
  }

  const pick = (obj: Record<string, unknown>, fields: string | undefined) =>
    Object.fromEntries((fields ? fields.split(',') : ['id']).map((f) => f.trim()).filter((f) => obj[f] !== undefined).map((f) => [f, obj[f]]));

  function read(res: ServerResponse, owner: ThreadsAccountFixture, id: string, p: Record<string, string>) {
    if (id === 'me' || id === owner.id) {
      return sendJson(res, 200, pick({ id: owner.id, username: owner.username, name: owner.name, threads_profile_picture_url: owner.profilePictureUrl, threads_biography: owner.biography }, p.fields));
    }
    const c = containers.get(id);
    if (c && c.ownerId === owner.id) {
      refreshStatus(c);
      return sendJson(res, 200, pick({ id: c.id, status: c.status, error_message: c.errorMessage }, p.fields));
    }
    const post = posts.get(id);
    if (post) {
      return sendJson(res, 200, pick({
        id: post.id, media_type: post.media_type, text: post.text, permalink: post.permalink, shortcode: post.shortcode, timestamp: post.timestamp,
        username: accounts.get(post.ownerId)?.username, is_quote_post: !!post.quotePostId, topic_tag: post.topicTag,
        replied_to: post.replyToId ? { id: post.replyToId } : undefined, is_reply: !!post.replyToId,
      }, p.fields));
    }
    return paramError(res, `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`, 33);
  }

  async function graph(req: SimRequest, res: ServerResponse, failure: ThreadsFailureMode | undefined) {
    const route = /^(?:\/v\d+\.\d+)?\/([^/]+)(?:\/([a-z_]+))?\/?$/.exec(req.path);
    if (!route) return graphError(res, 404, { message: 'Unknown path components', code: 2500 });
    const p = paramsOf(req);
    const t = authenticate(req, p, res);
    if (!t) return;
    const owner = accounts.get(t.accountId)!;
    if (failure && failure !== 'container_error') return failWith(res, failure, owner.id);
    if (checkpointed.has(owner.id)) return failWith(res, 'checkpoint', owner.id);
    const [, node, edge] = route;
    const own = node === 'me' || node === owner.id;
    const commentDeps: ThreadsCommentDeps<ThreadsPost> = {
      posts, usernameOf: (id) => accounts.get(id)?.username ?? fans.get(id), hidden: hiddenReplies, pending: pendingReplies, paramError,
      permissionDenied: (r, scope) => graphError(r, 403, { message: `(#10) Application does not have permission for this action: ${scope}`, code: 10 }),
    };
    if (threadsCommentRoute(commentDeps, req, res, owner, t.scopes, node!, edge, p)) return;
    if (req.method === 'GET' && !edge) return read(res, owner, node!, p);
    if (req.method === 'GET' && edge && analytics.route(res, owner.id, t.scopes, node!, edge, p)) return;
    if (req.method === 'GET' && edge === 'threads_publishing_limit' && own) {
      const used = quota(owner.id);
      return sendJson(res, 200, { data: [pick({
        quota_usage: used.posts, config: { quota_total: THREADS_SIM_QUOTA.posts, quota_duration: 86400 },
        reply_quota_usage: used.replies, reply_config: { quota_total: THREADS_SIM_QUOTA.replies, quota_duration: 86400 },
      }, p.fields ?? 'quota_usage,config')] });
    }
    if (req.method === 'GET' && edge === 'threads' && own) {
      return listThreadsPosts(req, res, { owner, scopes: t.scopes, posts: posts.values(), params: p, origin: host.origin, paramError, denied: (r) => failWith(r, 'permission_denied') });
    }
    if (req.method === 'POST' && edge === 'threads' && own) return createContainer(res, owner, t, p, failure);
    if (req.method === 'POST' && edge === 'threads_publish' && own) return publish(res, owner, p);
    return paramError(res, `Unsupported ${req.method.toLowerCase()} request. Object with ID '${node}' does not exist, cannot be loaded due to missing permissions, or does not support this operation`, 33);
  }

  function requestKind(req: SimRequest): RequestKind {
    if (req.path === '/oauth/authorize') return 'authorize';
    if (['/oauth/access_token', '/access_token', '/refresh_access_token'].includes(req.path)) return 'token';
    if (req.method === 'POST' && /\/threads$/.test(req.path)) return 'container';
    if (req.method === 'POST' && /\/threads_publish$/.test(req.path)) return 'publish';
    return 'graph';
  }

  const fans = new Map<string, string>();
  /** A reply by another Threads user (`POST /__sim/comment`); `moderation: 'pending'` waits for approval. */
  function seedComment(input: SeedCommentInput): ThreadsPost {
    const parent = posts.get(input.parentId ?? input.postId);
    if (!parent) throw new Error(`no post ${input.parentId ?? input.postId}`);
    const authorId = input.authorId ?? `2${digits('threads-fan', 16)}`;
    fans.set(authorId, input.authorName ?? 'a_threads_fan');
    const id = liveId('181');
    const reply: ThreadsPost = {
      id, ownerId: authorId, containerId: '', media_type: 'TEXT_POST', text: input.text, permalink: `https://www.threads.net/post/${id}`, shortcode: id,
      timestamp: new Date(Date.now() - (input.ageMs ?? 0)).toISOString().replace(/\.\d{3}Z$/, '+0000'), replyToId: parent.id, replyControl: 'everyone', children: [], params: {},
    };
    posts.set(id, reply);
    if (input.moderation === 'pending') pendingReplies.set(id, 'pending');
    return structuredClone(reply);
  }

  const host = await startSimulatorHost<ThreadsFailureMode>({
    port: opts.port,
    maxBodyBytes: 1024 * 1024,
    failureModes: THREADS_FAILURE_MODES,
    state: () => ({ armedFailures: [...armed], checkpointed: checkpointed.list(), accounts: [...accounts.values()].map((a) => ({ id: a.id, username: a.username })), containers: containers.size, posts: posts.size }),
    reset: () => { containers.clear(); posts.clear(); extra.clear(); armed.length = 0; checkpointed.clear(); hiddenReplies.clear(); pendingReplies.clear(); },
    controls: { checkpoint: checkpointed.control, comment: (body) => { seedComment(seedInputOf(body)); }, analytics_clock: clockControl(analytics.model) },
    handle(req, res, queued) {
      const kind = requestKind(req);
      if (queued) armed.push(queued);
      const at = armed.findIndex((m) => appliesTo(m, kind));
      const failure = at >= 0 ? armed.splice(at, 1)[0] : undefined;
      if (kind === 'authorize') return authorize(req, res);
      if (kind === 'token') return tokenRoute(req, res, failure);
      void graph(req, res, failure).catch((err: unknown) => { if (!res.headersSent) sendJson(res, 500, { error: { message: String(err), code: 1 } }); });
    },
  });

  const origin = host.origin;
  const tokensOf = (accountId?: string) => [...tokens.values()].filter((t) => accountId === undefined || t.accountId === accountId);
  const known = (accountId: string, clientId: string) => { if (!accounts.has(accountId) || !apps.has(clientId)) throw new Error('unknown account or app'); };

  return {
    port: host.port,
    origin,
    apiBase: origin,
    apiVersion: THREADS_SIM_API_VERSION,
    authorizeUrl: `${origin}/oauth/authorize`,
    get requests() { return host.requests; },
    analytics,
    createApp(input = {}) {
      const app = { clientId: input.clientId ?? digits('app', 16), clientSecret: input.clientSecret ?? seeded('app-secret').toString('hex').slice(0, 32), redirectUris: input.redirectUris ?? [] };
      apps.set(app.clientId, app);
      return { clientId: app.clientId, clientSecret: app.clientSecret };
    },
    createAccount(input) {
      const account = {
        id: `2${digits('threads-user', 16)}`, username: input.username, name: input.name ?? input.username,
        profilePictureUrl: input.profilePictureUrl ?? `https://scontent.cdninstagram.com/v/t51/${input.username}.jpg`, biography: '',
      };
      accounts.set(account.id, account);
      return { ...account };
    },
    issueAuthCode(accountId, o) { known(accountId, o.clientId); return issueCode(accountId, o.clientId, o.redirectUri, o.scopes ?? SCOPES.slice(0, 3)); },
    issueToken(accountId, o) {
      known(accountId, o.clientId);
      const t = newToken(accountId, o.clientId, 'long', o.scopes ?? SCOPES.slice(0, 3));
      return { accessToken: t.token, expiresAt: new Date(t.expiresAt) };
    },
    expireAccessTokens(accountId) { for (const t of tokensOf(accountId)) t.expiresAt = Date.now() - 1000; },
    revokeTokens(accountId) { for (const t of tokensOf(accountId)) t.revoked = true; },
    tokenInfo(token) {
      const t = tokens.get(token);
      return t ? { accountId: t.accountId, kind: t.kind, expiresAt: new Date(t.expiresAt), revoked: t.revoked, scopes: [...t.scopes] } : undefined;
    },
    usePublishingQuota(accountId, use) {
      const cur = extra.get(accountId) ?? { posts: 0, replies: 0 };
      extra.set(accountId, { posts: cur.posts + (use.posts ?? 0), replies: cur.replies + (use.replies ?? 0) });
    },
    containers: () => [...containers.values()].map((c) => { refreshStatus(c); return publicContainer(c); }),
    posts: (accountId) => [...posts.values()].filter((p) => accountId === undefined || p.ownerId === accountId).map((p) => structuredClone(p)),
    replies: (postId) => [...posts.values()].filter((p) => p.replyToId === postId).map((p) => structuredClone(p)),
    seedComment,
    replyState: (id) => ({ hidden: hiddenReplies.has(id), moderation: pendingReplies.get(id) ?? 'published' }),
    fail: (mode, times) => host.fail(mode, times),
    checkpointAccount: (accountId) => checkpointed.set(accountId, true),
    completeCheckpoint: (accountId) => checkpointed.set(accountId, false),
    setLatency: (ms) => host.setLatency(ms),
    state: () => host.state(),
    reset: () => host.reset(),
    close: () => host.close(),
  };
}
