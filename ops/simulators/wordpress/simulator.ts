/**
 * Loopback simulator of a WordPress site's REST API (developer.wordpress.org/rest-api): Basic auth
 * with application passwords, `GET /wp-json/wp/v2/users/me`, posts (create, update, trash) and
 * media uploads (raw bytes with Content-Disposition), with WordPress's `{code, message, data:{status}}`
 * errors. Links use the site's public home URL, as WordPress does.
 */
import type { ServerResponse } from 'node:http';
import { createSeededSource, sendJson, sendText, startSimulatorHost, type RecordedRequest, type SimRequest } from '../kit/http';

export const WORDPRESS_FAILURE_MODES = [
  'incorrect_password', 'rate_limited', 'server_error', 'bad_gateway', 'too_large', 'cannot_publish', 'malformed',
] as const;
export type WordPressFailureMode = (typeof WORDPRESS_FAILURE_MODES)[number];
export const WORDPRESS_SIM_RETRY_AFTER_SECONDS = 5;
const MEDIA_TYPES: Record<string, string> = {
  'image/jpeg': 'image', 'image/png': 'image', 'image/gif': 'image', 'image/webp': 'image', 'video/mp4': 'video', 'video/quicktime': 'video', 'video/webm': 'video',
};
const STATUSES = ['publish', 'draft', 'pending', 'private', 'future'];

export interface WordPressPost {
  id: number; author: number; title: string; content: string; excerpt: string; slug: string; status: string;
  categories: number[]; tags: number[]; featured_media: number; link: string; trashed?: boolean;
}
export interface WordPressMedia { id: number; author: number; filename: string; mime_type: string; size: number; source_url: string }

export interface WordPressSimulatorOptions {
  port?: number;
  seed?: string;
  /** The site's public address used in links (default https://blog.herald-sandbox.example). */
  home?: string;
  /** Largest upload accepted (upload_max_filesize); default 64 MiB. */
  maxUploadBytes?: number;
}

export interface WordPressSimulator {
  port: number;
  origin: string;
  /** What a user types as site URL: the simulator's origin (REST API under /wp-json). */
  siteUrl: string;
  home: string;
  createUser(input: { username: string; name?: string; role?: 'administrator' | 'editor' | 'author' | 'contributor' | 'subscriber' }): { id: number; applicationPassword: string };
  /** Revokes every application password of a user. */
  revokePasswords(username: string): void;
  createCategory(name: string): number;
  createTag(name: string): number;
  posts(): WordPressPost[];
  media(): WordPressMedia[];
  fail(mode: WordPressFailureMode, times?: number): void;
  setLatency(ms: number): void;
  readonly requests: RecordedRequest[];
  state(): Record<string, unknown>;
  reset(): void;
  close(): Promise<void>;
}

interface User { id: number; username: string; name: string; role: string; passwords: Set<string> }

class WpError {
  constructor(readonly status: number, readonly code: string, readonly message: string, readonly extra: Record<string, unknown> = {}) {}
}

const CAPS: Record<string, Record<string, boolean>> = {
  administrator: { publish_posts: true, upload_files: true, edit_posts: true, edit_others_posts: true, delete_posts: true },
  editor: { publish_posts: true, upload_files: true, edit_posts: true, edit_others_posts: true, delete_posts: true },
  author: { publish_posts: true, upload_files: true, edit_posts: true, delete_posts: true },
  contributor: { edit_posts: true, delete_posts: true },
  subscriber: { read: true },
};

export async function startWordPressSimulator(opts: WordPressSimulatorOptions = {}): Promise<WordPressSimulator> {
  const seeded = createSeededSource(opts.seed);
  const home = (opts.home ?? 'https://blog.herald-sandbox.example').replace(/\/+$/, '');
  const maxUpload = opts.maxUploadBytes ?? 64 * 1024 * 1024;
  const users = new Map<string, User>();
  const categories = new Map<number, string>([[1, 'Uncategorized']]);
  const tags = new Map<number, string>();
  const posts: WordPressPost[] = [];
  const media: WordPressMedia[] = [];
  let nextId = 100;

  const can = (user: User, cap: string) => CAPS[user.role]?.[cap] === true;

  function authenticate(req: SimRequest): User {
    const header = req.headers.authorization;
    if (typeof header !== 'string' || !header.startsWith('Basic ')) throw new WpError(401, 'rest_not_logged_in', 'You are not currently logged in.');
    const [username, ...rest] = Buffer.from(header.slice(6), 'base64').toString('utf8').split(':');
    const user = users.get(username ?? '');
    if (!user) throw new WpError(401, 'invalid_username', 'Unknown username. Check again or try your email address.');
    if (!user.passwords.has(rest.join(':').replace(/\s+/g, ''))) throw new WpError(401, 'incorrect_password', 'The provided password is an invalid application password.');
    return user;
  }

  const userView = (u: User, edit: boolean) => ({
    id: u.id, name: u.name, slug: u.username, link: `${home}/author/${u.username}/`, url: '', description: '',
    avatar_urls: { 24: `https://secure.gravatar.com/avatar/${u.id}?s=24`, 48: `https://secure.gravatar.com/avatar/${u.id}?s=48`, 96: `https://secure.gravatar.com/avatar/${u.id}?s=96` },
    ...(edit ? { username: u.username, roles: [u.role], capabilities: CAPS[u.role] ?? {} } : {}),
  });
  const postView = (p: WordPressPost) => ({
    id: p.id, date: new Date().toISOString(), slug: p.slug, status: p.trashed ? 'trash' : p.status, type: 'post', link: p.link,
    title: { raw: p.title, rendered: p.title }, content: { raw: p.content, rendered: p.content, protected: false },
    excerpt: { raw: p.excerpt, rendered: p.excerpt, protected: false }, author: p.author, featured_media: p.featured_media,
    categories: p.categories, tags: p.tags, format: 'standard',
  });

  function ids(value: unknown, known: Map<number, string>, param: string): number[] {
    if (value === undefined) return [];
    if (!Array.isArray(value) || value.some((v) => !Number.isInteger(Number(v)))) throw new WpError(400, 'rest_invalid_param', `Invalid parameter(s): ${param}`, { params: { [param]: `${param}[0] is not of type integer.` } });
    const list = value.map(Number);
    const bad = list.find((id) => !known.has(id));
    if (bad !== undefined) throw new WpError(400, 'rest_invalid_param', `Invalid parameter(s): ${param}`, { params: { [param]: `Invalid term ID ${bad}.` } });
    return list;
  }

  function writePost(user: User, body: Record<string, unknown>, existing?: WordPressPost): WordPressPost {
    const str = (v: unknown, param: string) => {
      if (v === undefined) return undefined;
      if (typeof v !== 'string') throw new WpError(400, 'rest_invalid_param', `Invalid parameter(s): ${param}`, { params: { [param]: `${param} is not of type string.` } });
      return v;
    };
    const status = str(body.status, 'status');
    if (status !== undefined && !STATUSES.includes(status)) throw new WpError(400, 'rest_invalid_param', 'Invalid parameter(s): status', { params: { status: `status is not one of ${STATUSES.join(', ')}.` } });
    if ((status ?? existing?.status ?? 'draft') === 'publish' && !can(user, 'publish_posts')) throw new WpError(403, 'rest_cannot_publish', 'Sorry, you are not allowed to publish posts as this user.');
    const featured = body.featured_media === undefined ? undefined : Number(body.featured_media);
    if (featured !== undefined && featured !== 0 && !media.some((m) => m.id === featured)) throw new WpError(400, 'rest_invalid_featured_media', 'Invalid featured media ID.');
    const title = str(body.title, 'title');
    const content = str(body.content, 'content');
    const excerpt = str(body.excerpt, 'excerpt');
    const slug = str(body.slug, 'slug');
    const next = {
      title: title ?? existing?.title ?? '', content: content ?? existing?.content ?? '', excerpt: excerpt ?? existing?.excerpt ?? '',
    };
    if (!existing && !next.title.trim() && !next.content.trim() && !next.excerpt.trim()) throw new WpError(400, 'empty_content', 'Content, title, and excerpt are empty.');
    const cats = body.categories === undefined ? undefined : ids(body.categories, categories, 'categories');
    const tagIds = body.tags === undefined ? undefined : ids(body.tags, tags, 'tags');
    if (existing) {
      Object.assign(existing, next, status ? { status } : {}, slug ? { slug } : {}, cats ? { categories: cats } : {}, tagIds ? { tags: tagIds } : {},
        featured !== undefined ? { featured_media: featured } : {});
      return existing;
    }
    const id = ++nextId;
    const post: WordPressPost = {
      id, author: user.id, ...next, status: status ?? 'draft',
      slug: slug ?? next.title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 200),
      categories: cats?.length ? cats : [1], tags: tagIds ?? [], featured_media: featured ?? 0, link: `${home}/?p=${id}`,
    };
    posts.push(post);
    return post;
  }

  function findPost(id: string): WordPressPost {
    const post = posts.find((p) => String(p.id) === id);
    if (!post) throw new WpError(404, 'rest_post_invalid_id', 'Invalid post ID.');
    return post;
  }

  function upload(user: User, req: SimRequest): WordPressMedia {
    if (!can(user, 'upload_files')) throw new WpError(403, 'rest_cannot_create', 'Sorry, you are not allowed to upload files as this user.');
    if (req.body.kind === 'too_large') throw new WpError(413, '', '');
    if (req.body.kind !== 'binary' || !req.body.data.length) throw new WpError(400, 'rest_upload_no_data', 'No data supplied.');
    const disposition = req.headers['content-disposition'];
    const filename = typeof disposition === 'string' ? /filename="?([^";]+)"?/i.exec(disposition)?.[1] : undefined;
    if (!filename) throw new WpError(400, 'rest_upload_no_content_disposition', 'No Content-Disposition supplied.');
    const type = req.body.contentType;
    if (!MEDIA_TYPES[type]) throw new WpError(500, 'rest_upload_sideload_error', 'Sorry, you are not allowed to upload this file type.');
    if (req.body.data.length > maxUpload) throw new WpError(400, 'rest_upload_file_too_big', `This file is too big. Files must be less than ${maxUpload / 1024} KB in size.`);
    const id = ++nextId;
    const item: WordPressMedia = { id, author: user.id, filename, mime_type: type, size: req.body.data.length, source_url: `${home}/wp-content/uploads/2026/11/${filename}` };
    media.push(item);
    return item;
  }

  function route(req: SimRequest, user: User): { status: number; body: unknown } {
    const path = req.path.replace(/^\/wp-json\/wp\/v2/, '').replace(/\/$/, '');
    const json = req.body.kind === 'json' && req.body.value && typeof req.body.value === 'object' ? req.body.value as Record<string, unknown> : {};
    if (req.body.kind === 'invalid') throw new WpError(400, 'rest_invalid_json', 'Invalid JSON body passed.');
    if (path === '/users/me' && req.method === 'GET') return { status: 200, body: userView(user, req.query.context === 'edit') };
    if (path === '/posts' && req.method === 'POST') return { status: 201, body: postView(writePost(user, json)) };
    if (path === '/media' && req.method === 'POST') {
      const item = upload(user, req);
      return { status: 201, body: { ...item, media_type: MEDIA_TYPES[item.mime_type], title: { rendered: item.filename }, link: `${home}/?attachment_id=${item.id}` } };
    }
    const one = /^\/posts\/(\d+)$/.exec(path);
    if (one) {
      const post = findPost(one[1]!);
      if (post.author !== user.id && !can(user, 'edit_others_posts')) throw new WpError(403, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.');
      if (req.method === 'GET') return { status: 200, body: postView(post) };
      if (req.method === 'POST' || req.method === 'PUT' || req.method === 'PATCH') {
        if (post.trashed) throw new WpError(410, 'rest_already_trashed', 'The post has already been deleted.');
        return { status: 200, body: postView(writePost(user, json, post)) };
      }
      if (req.method === 'DELETE') {
        if (post.trashed) throw new WpError(410, 'rest_already_trashed', 'The post has already been deleted.');
        post.trashed = true;
        return { status: 200, body: postView(post) };
      }
    }
    throw new WpError(404, 'rest_no_route', 'No route was found matching the URL and request method.');
  }

  const fail = (res: ServerResponse, err: WpError, headers: Record<string, string> = {}) =>
    sendJson(res, err.status, { code: err.code, message: err.message, data: { status: err.status, ...err.extra } }, headers);

  const host = await startSimulatorHost<WordPressFailureMode>({
    port: opts.port,
    maxBodyBytes: maxUpload + 1024 * 1024,
    failureModes: WORDPRESS_FAILURE_MODES,
    state: () => ({ users: [...users.values()].map((u) => ({ id: u.id, username: u.username, role: u.role })), postCount: posts.length, mediaCount: media.length }),
    reset: () => { posts.length = 0; media.length = 0; },
    handle(req, res, failure) {
      if (!req.path.startsWith('/wp-json')) return sendText(res, 404, '<html><body>Not Found</body></html>', 'text/html');
      switch (failure) {
        case 'incorrect_password': return fail(res, new WpError(401, 'incorrect_password', 'The provided password is an invalid application password.'));
        case 'rate_limited':
          res.setHeader('retry-after', String(WORDPRESS_SIM_RETRY_AFTER_SECONDS));
          return sendText(res, 429, '<html><body>429 Too Many Requests</body></html>', 'text/html');
        case 'server_error': return fail(res, new WpError(500, 'internal_server_error', 'There has been a critical error on this website.'));
        case 'bad_gateway': return sendText(res, 502, '<html><body>502 Bad Gateway</body></html>', 'text/html');
        case 'too_large': return sendText(res, 413, '<html><body>413 Request Entity Too Large</body></html>', 'text/html');
        case 'cannot_publish': return fail(res, new WpError(403, 'rest_cannot_publish', 'Sorry, you are not allowed to publish posts as this user.'));
        case 'malformed': return sendJson(res, req.method === 'POST' ? 201 : 200, {});
        case undefined: break;
      }
      try {
        if (req.path === '/wp-json' || req.path === '/wp-json/') return sendJson(res, 200, { name: 'Herald Sandbox', url: home, home, namespaces: ['wp/v2'] });
        const user = authenticate(req);
        const { status, body } = route(req, user);
        return sendJson(res, status, body);
      } catch (err) {
        if (err instanceof WpError) return err.status === 413 ? sendText(res, 413, '<html><body>413 Request Entity Too Large</body></html>', 'text/html') : fail(res, err);
        throw err;
      }
    },
  });

  return {
    port: host.port,
    origin: host.origin,
    siteUrl: host.origin,
    home,
    get requests() { return host.requests; },
    createUser(input) {
      const id = users.size + 1;
      const raw = seeded('app-password').toString('base64').replace(/[^A-Za-z0-9]/g, '').slice(0, 24).padEnd(24, 'x');
      const user: User = { id, username: input.username, name: input.name ?? input.username, role: input.role ?? 'author', passwords: new Set([raw]) };
      users.set(input.username, user);
      return { id, applicationPassword: raw.match(/.{4}/g)!.join(' ') };
    },
    revokePasswords(username) { users.get(username)?.passwords.clear(); },
    createCategory(name) { const id = 10 + categories.size; categories.set(id, name); return id; },
    createTag(name) { const id = 50 + tags.size; tags.set(id, name); return id; },
    posts: () => posts.filter((p) => !p.trashed).map((p) => structuredClone(p)),
    media: () => media.map((m) => ({ ...m })),
    fail: (mode, times) => host.fail(mode, times),
    setLatency: (ms) => host.setLatency(ms),
    state: () => host.state(),
    reset: () => host.reset(),
    close: () => host.close(),
  };
}
