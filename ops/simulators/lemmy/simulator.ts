/**
 * Loopback simulator of a Lemmy instance (join-lemmy.org/api, HTTP API v3 as in Lemmy 0.19):
 * `POST /api/v3/user/login`, `GET /api/v3/site`, `GET /api/v3/community?name=`, `POST|PUT /api/v3/post`,
 * `POST /api/v3/post/delete` (JWT as `Authorization: Bearer`), and pict-rs uploads at
 * `POST /pictrs/image` (multipart `images[]`). Errors are `{error: "<code>"}` with Lemmy's statuses.
 * Post ap_ids use the instance's public address.
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { sendJson, sendText, startSimulatorHost, type RecordedRequest, type SimRequest } from '../kit/http';

export const LEMMY_FAILURE_MODES = ['not_logged_in', 'rate_limited', 'server_error', 'bad_gateway', 'banned_from_community', 'only_mods_can_post', 'malformed', 'image_too_large'] as const;
export type LemmyFailureMode = (typeof LEMMY_FAILURE_MODES)[number];
export const LEMMY_SIM_RETRY_AFTER_SECONDS = 4;
const MAX_NAME = 200;
const MAX_BODY = 10_000;
const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

export interface LemmyPost {
  id: number; name: string; body?: string; url?: string; nsfw: boolean; language_id: number; alt_text?: string;
  community_id: number; creator_id: number; ap_id: string; deleted: boolean; updated?: string;
}

export interface LemmySimulatorOptions {
  port?: number;
  seed?: string;
  /** The instance's public address used in ap_ids (default https://lemmy.herald-sandbox.example). */
  publicUrl?: string;
  maxImageBytes?: number;
}

export interface LemmySimulator {
  port: number;
  origin: string;
  /** What a user types as instance URL. */
  instanceUrl: string;
  publicUrl: string;
  createUser(input: { username: string; password: string; displayName?: string }): { id: number };
  createCommunity(input: { name: string; title?: string; postingRestrictedToMods?: boolean }): { id: number };
  /** Invalidates every JWT issued to a user (as a password change does). */
  expireTokens(username: string): void;
  posts(): LemmyPost[];
  images(): Array<{ file: string; size: number; contentType: string }>;
  fail(mode: LemmyFailureMode, times?: number): void;
  setLatency(ms: number): void;
  readonly requests: RecordedRequest[];
  state(): Record<string, unknown>;
  reset(): void;
  close(): Promise<void>;
}

interface User { id: number; username: string; password: string; displayName?: string }
interface Community { id: number; name: string; title: string; modsOnly: boolean }

class LemmyError {
  constructor(readonly status: number, readonly error: string, readonly headers: Record<string, string> = {}) {}
}

export async function startLemmySimulator(opts: LemmySimulatorOptions = {}): Promise<LemmySimulator> {
  const publicUrl = (opts.publicUrl ?? 'https://lemmy.herald-sandbox.example').replace(/\/+$/, '');
  const maxImage = opts.maxImageBytes ?? 10 * 1024 * 1024;
  const users = new Map<string, User>();
  const communities = new Map<string, Community>();
  const tokens = new Map<string, string>();
  const posts: LemmyPost[] = [];
  const images = new Map<string, { size: number; contentType: string }>();
  let nextPostId = 1000;

  const personView = (u: User) => ({
    id: u.id, name: u.username, display_name: u.displayName ?? null, avatar: null, banned: false, published: '2024-01-01T00:00:00Z',
    actor_id: `${publicUrl}/u/${u.username}`, local: true, deleted: false, bot_account: false, instance_id: 1,
  });
  const communityView = (c: Community) => ({
    id: c.id, name: c.name, title: c.title, removed: false, deleted: false, nsfw: false, actor_id: `${publicUrl}/c/${c.name}`, local: true,
    hidden: false, posting_restricted_to_mods: c.modsOnly, instance_id: 1, visibility: 'Public',
  });
  const postView = (p: LemmyPost) => ({
    post_view: {
      post: { ...p, published: new Date().toISOString(), removed: false, locked: false, local: true, featured_community: false, featured_local: false },
      creator: personView([...users.values()].find((u) => u.id === p.creator_id)!),
      community: communityView([...communities.values()].find((c) => c.id === p.community_id)!),
      counts: { post_id: p.id, comments: 0, score: 1, upvotes: 1, downvotes: 0 },
      subscribed: 'NotSubscribed', saved: false, read: true, creator_blocked: false, my_vote: 1, unread_comments: 0,
    },
  });

  function userOf(req: SimRequest): User {
    const header = req.headers.authorization;
    const cookie = typeof req.headers.cookie === 'string' ? /(?:^|;\s*)jwt=([^;]+)/.exec(req.headers.cookie)?.[1] : undefined;
    const jwt = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7) : cookie;
    const username = jwt ? tokens.get(jwt) : undefined;
    if (!username) throw new LemmyError(401, 'not_logged_in');
    return users.get(username)!;
  }

  const jsonBody = (req: SimRequest): Record<string, unknown> => {
    if (req.body.kind === 'json' && req.body.value && typeof req.body.value === 'object') return req.body.value as Record<string, unknown>;
    throw new LemmyError(400, 'invalid_json');
  };

  function checkPostFields(body: Record<string, unknown>, creating: boolean) {
    if (creating || body.name !== undefined) {
      if (typeof body.name !== 'string' || body.name.trim() === '' || [...body.name].length > MAX_NAME || /\n/.test(body.name)) throw new LemmyError(400, 'invalid_post_title');
    }
    if (body.body !== undefined && (typeof body.body !== 'string' || [...body.body].length > MAX_BODY)) throw new LemmyError(400, 'invalid_body_field');
    if (body.url !== undefined) {
      try {
        const u = new URL(String(body.url));
        if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('scheme');
      } catch {
        throw new LemmyError(400, 'invalid_url');
      }
    }
    if (body.language_id !== undefined && (!Number.isInteger(body.language_id) || (body.language_id as number) < 0 || (body.language_id as number) > 200)) throw new LemmyError(400, 'language_not_allowed');
  }

  function api(req: SimRequest): unknown {
    const path = req.path.slice('/api/v3'.length);
    if (path === '/user/login' && req.method === 'POST') {
      const body = jsonBody(req);
      const user = users.get(String(body.username_or_email ?? ''));
      if (!user || user.password !== body.password) throw new LemmyError(400, 'incorrect_login');
      const jwt = `eyJhbGciOiJIUzI1NiJ9.${Buffer.from(JSON.stringify({ sub: user.id, iss: new URL(publicUrl).host, iat: Math.floor(Date.now() / 1000) })).toString('base64url')}.${randomBytes(24).toString('base64url')}`;
      tokens.set(jwt, user.username);
      return { jwt, registration_created: false, verify_email_sent: false };
    }
    if (path === '/site' && req.method === 'GET') {
      const user = userOf(req);
      return {
        site_view: { site: { id: 1, name: 'Herald Sandbox', actor_id: `${publicUrl}/` }, local_site: { registration_mode: 'Open' } },
        admins: [], version: '0.19.5', all_languages: [{ id: 0, code: 'und', name: 'Undetermined' }, { id: 37, code: 'en', name: 'English' }],
        discussion_languages: [], taglines: [], custom_emojis: [], blocked_urls: [],
        my_user: { local_user_view: { local_user: { id: user.id, person_id: user.id, show_nsfw: false }, person: personView(user), counts: { person_id: user.id, post_count: 0, comment_count: 0 } }, follows: [], moderates: [], community_blocks: [], instance_blocks: [], person_blocks: [], discussion_languages: [] },
      };
    }
    if (path === '/community' && req.method === 'GET') {
      userOf(req);
      const name = req.query.name ?? '';
      const [local, host] = name.split('@');
      const community = host && host !== new URL(publicUrl).host && host !== new URL(req.url.origin).host ? undefined : communities.get(local ?? '');
      if (!community) throw new LemmyError(404, 'couldnt_find_community');
      return { community_view: { community: communityView(community), subscribed: 'NotSubscribed', blocked: false, counts: { community_id: community.id, subscribers: 1, posts: 0 } }, moderators: [], discussion_languages: [] };
    }
    if (path === '/post' && req.method === 'POST') {
      const user = userOf(req);
      const body = jsonBody(req);
      checkPostFields(body, true);
      const community = [...communities.values()].find((c) => c.id === body.community_id);
      if (!community) throw new LemmyError(404, 'couldnt_find_community');
      if (community.modsOnly) throw new LemmyError(400, 'only_mods_can_post_in_community');
      const id = ++nextPostId;
      const post: LemmyPost = {
        id, name: body.name as string, nsfw: body.nsfw === true, language_id: (body.language_id as number | undefined) ?? 0, community_id: community.id, creator_id: user.id,
        ap_id: `${publicUrl}/post/${id}`, deleted: false,
        ...(typeof body.body === 'string' ? { body: body.body } : {}), ...(typeof body.url === 'string' ? { url: body.url } : {}),
        ...(typeof body.alt_text === 'string' ? { alt_text: body.alt_text } : {}),
      };
      posts.push(post);
      return postView(post);
    }
    if (path === '/post' && req.method === 'PUT') {
      const user = userOf(req);
      const body = jsonBody(req);
      const post = posts.find((p) => p.id === body.post_id);
      if (!post || post.deleted) throw new LemmyError(404, 'couldnt_find_post');
      if (post.creator_id !== user.id) throw new LemmyError(400, 'no_post_edit_allowed');
      checkPostFields(body, false);
      if (typeof body.name === 'string') post.name = body.name;
      if (typeof body.body === 'string') post.body = body.body;
      if (typeof body.url === 'string') post.url = body.url;
      if (typeof body.nsfw === 'boolean') post.nsfw = body.nsfw;
      post.updated = new Date().toISOString();
      return postView(post);
    }
    if (path === '/post/delete' && req.method === 'POST') {
      const user = userOf(req);
      const body = jsonBody(req);
      const post = posts.find((p) => p.id === body.post_id);
      if (!post) throw new LemmyError(404, 'couldnt_find_post');
      if (post.creator_id !== user.id) throw new LemmyError(400, 'no_post_edit_allowed');
      if (post.deleted === body.deleted) throw new LemmyError(400, 'couldnt_update_post');
      post.deleted = body.deleted === true;
      return postView(post);
    }
    throw new LemmyError(404, 'not_found');
  }

  function pictrs(req: SimRequest, res: ServerResponse) {
    try {
      userOf(req);
    } catch {
      return sendJson(res, 401, { error: 'not_logged_in' });
    }
    if (req.body.kind === 'too_large') return sendJson(res, 413, { msg: 'Payload too large', files: null });
    if (req.body.kind !== 'multipart') return sendJson(res, 400, { msg: 'Invalid multipart form', files: null });
    const part = req.body.files.find((f) => f.name === 'images[]');
    if (!part) return sendJson(res, 400, { msg: 'No files present in upload', files: null });
    if (part.data.length > maxImage) return sendJson(res, 413, { msg: 'File too large', files: null });
    const type = part.contentType ?? '';
    if (!IMAGE_TYPES.has(type)) return sendJson(res, 400, { msg: 'Unsupported media type', files: null });
    const file = `${randomBytes(16).toString('hex')}.${type.split('/')[1] === 'jpeg' ? 'jpg' : type.split('/')[1]}`;
    images.set(file, { size: part.data.length, contentType: type });
    return sendJson(res, 201, { msg: 'ok', files: [{ file, delete_token: randomBytes(8).toString('hex') }] });
  }

  const host = await startSimulatorHost<LemmyFailureMode>({
    port: opts.port,
    maxBodyBytes: maxImage + 1024 * 1024,
    failureModes: LEMMY_FAILURE_MODES,
    state: () => ({ users: [...users.keys()], communities: [...communities.values()].map((c) => ({ id: c.id, name: c.name })), postCount: posts.length }),
    reset: () => { posts.length = 0; images.clear(); },
    handle(req, res, failure) {
      const isLogin = req.path === '/api/v3/user/login';
      switch (failure) {
        case 'not_logged_in': if (!isLogin) return sendJson(res, 401, { error: 'not_logged_in' }); return sendJson(res, 400, { error: 'incorrect_login' });
        case 'rate_limited': return sendJson(res, 429, { error: 'rate_limit_error' }, { 'retry-after': String(LEMMY_SIM_RETRY_AFTER_SECONDS) });
        case 'server_error': return sendJson(res, 500, { error: 'unknown', message: 'database error' });
        case 'bad_gateway': return sendText(res, 502, '<html><body>502 Bad Gateway</body></html>', 'text/html');
        case 'banned_from_community': return sendJson(res, 400, { error: 'banned_from_community' });
        case 'only_mods_can_post': return sendJson(res, 400, { error: 'only_mods_can_post_in_community' });
        case 'malformed': return sendJson(res, 200, {});
        case 'image_too_large': return sendJson(res, 413, { msg: 'File too large', files: null });
        case undefined: break;
      }
      if (req.path === '/pictrs/image' && req.method === 'POST') return pictrs(req, res);
      if (req.path.startsWith('/pictrs/image/') && req.method === 'GET') {
        const image = images.get(decodeURIComponent(req.path.slice('/pictrs/image/'.length)));
        return image ? sendText(res, 200, '', image.contentType) : sendJson(res, 404, { msg: 'not found' });
      }
      if (!req.path.startsWith('/api/v3/')) return sendText(res, 404, 'Not Found');
      try {
        return sendJson(res, 200, api(req));
      } catch (err) {
        if (err instanceof LemmyError) return sendJson(res, err.status, { error: err.error }, err.headers);
        throw err;
      }
    },
  });

  return {
    port: host.port,
    origin: host.origin,
    instanceUrl: host.origin,
    publicUrl,
    get requests() { return host.requests; },
    createUser(input) {
      const user: User = { id: 2 + users.size, username: input.username, password: input.password, displayName: input.displayName };
      users.set(input.username, user);
      return { id: user.id };
    },
    createCommunity(input) {
      const community: Community = { id: 10 + communities.size, name: input.name, title: input.title ?? input.name, modsOnly: input.postingRestrictedToMods === true };
      communities.set(input.name, community);
      return { id: community.id };
    },
    expireTokens(username) {
      for (const [jwt, owner] of tokens) if (owner === username) tokens.delete(jwt);
    },
    posts: () => posts.filter((p) => !p.deleted).map((p) => ({ ...p })),
    images: () => [...images.entries()].map(([file, i]) => ({ file, ...i })),
    fail: (mode, times) => host.fail(mode, times),
    setLatency: (ms) => host.setLatency(ms),
    state: () => host.state(),
    reset: () => host.reset(),
    close: () => host.close(),
  };
}
