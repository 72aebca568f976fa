/**
 * Loopback simulator of DEV's Forem API v1 (developers.forem.com/api/v1): `api-key` header,
 * GET /api/users/me, POST /api/articles, PUT /api/articles/:id, GET /api/articles/:id, Forem's
 * `{error, status}` bodies and its validations (title required, at most 128 characters; at most 4
 * tags of letters and digits; an http(s) main_image and canonical_url).
 */
import type { ServerResponse } from 'node:http';
import { createSeededSource, sendJson, sendText, startSimulatorHost, type RecordedRequest } from '../kit/http';

export const DEVTO_FAILURE_MODES = ['unauthorized', 'rate_limited', 'server_error', 'bad_gateway', 'validation_failed', 'malformed'] as const;
export type DevtoFailureMode = (typeof DEVTO_FAILURE_MODES)[number];
export const DEVTO_SIM_RETRY_AFTER_SECONDS = 30;

export interface DevtoArticle {
  id: number;
  userId: number;
  title: string;
  body_markdown: string;
  published: boolean;
  tags: string[];
  series: string | null;
  canonical_url: string | null;
  main_image: string | null;
  description: string;
  organization_id: number | null;
  slug: string;
  url: string;
  edited_at: string | null;
}

interface User { id: number; username: string; name: string; apiKey: string }

export interface DevtoSimulator {
  port: number;
  origin: string;
  /** The adapter's apiBase: `${origin}/api`. */
  apiBase: string;
  createUser(input: { username: string; name?: string }): { id: number; username: string; apiKey: string };
  revokeKey(apiKey: string): void;
  articles(userId?: number): DevtoArticle[];
  fail(mode: DevtoFailureMode, times?: number): void;
  setLatency(ms: number): void;
  readonly requests: RecordedRequest[];
  state(): Record<string, unknown>;
  reset(): void;
  close(): Promise<void>;
}

class ApiError {
  constructor(readonly status: number, readonly error: string, readonly headers: Record<string, string> = {}) {}
}
const unprocessable = (what: string) => new ApiError(422, what);
const isUrl = (v: unknown) => {
  try { return typeof v === 'string' && /^https?:$/.test(new URL(v).protocol); } catch { return false; }
};

export async function startDevtoSimulator(opts: { port?: number; seed?: string } = {}): Promise<DevtoSimulator> {
  const seeded = createSeededSource(opts.seed);
  const users = new Map<string, User>();
  const revoked = new Set<string>();
  const articles = new Map<number, DevtoArticle>();
  let nextId = 2_000_000;

  const tagsOf = (raw: unknown): string[] => {
    const list = Array.isArray(raw) ? raw.map(String) : typeof raw === 'string' ? raw.split(',') : [];
    return list.map((t) => t.trim()).filter(Boolean);
  };

  function apply(input: Record<string, unknown>, user: User, existing?: DevtoArticle): DevtoArticle {
    const title = typeof input.title === 'string' ? input.title : existing?.title ?? '';
    if (!title.trim()) throw unprocessable('Title can\'t be blank');
    if ([...title].length > 128) throw unprocessable('Title is too long (maximum is 128 characters)');
    const tags = input.tags !== undefined ? tagsOf(input.tags) : existing?.tags ?? [];
    if (tags.length > 4) throw unprocessable('Tag list exceed the maximum of 4 tags');
    const bad = tags.find((t) => !/^[a-z0-9]{1,30}$/i.test(t));
    if (bad) throw unprocessable(`Tag "${bad}" contains non-alphanumeric or prohibited unicode characters`);
    for (const key of ['main_image', 'canonical_url'] as const) {
      if (input[key] !== undefined && input[key] !== null && !isUrl(input[key])) throw unprocessable(`${key === 'main_image' ? 'Main image' : 'Canonical url'} is not a valid URL`);
    }
    const id = existing?.id ?? ++nextId;
    const slug = `${title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60)}-${id.toString(36)}`;
    const body = typeof input.body_markdown === 'string' ? input.body_markdown : existing?.body_markdown ?? '';
    return {
      id, userId: user.id, title, body_markdown: body,
      published: input.published === undefined ? existing?.published ?? false : input.published === true,
      tags: tags.map((t) => t.toLowerCase()),
      series: typeof input.series === 'string' ? input.series : existing?.series ?? null,
      canonical_url: typeof input.canonical_url === 'string' ? input.canonical_url : existing?.canonical_url ?? null,
      main_image: typeof input.main_image === 'string' ? input.main_image : existing?.main_image ?? null,
      description: typeof input.description === 'string' ? input.description : existing?.description ?? body.slice(0, 100),
      organization_id: typeof input.organization_id === 'number' ? input.organization_id : existing?.organization_id ?? null,
      slug, url: `https://dev.to/${user.username}/${slug}`, edited_at: existing ? new Date().toISOString() : null,
    };
  }

  const view = (a: DevtoArticle, user: User) => ({
    type_of: 'article', id: a.id, title: a.title, description: a.description, slug: a.slug, path: `/${user.username}/${a.slug}`, url: a.url,
    published: a.published, published_at: a.published ? new Date().toISOString() : null, tag_list: a.tags.join(', '), tags: a.tags,
    canonical_url: a.canonical_url ?? a.url, cover_image: a.main_image, body_markdown: a.body_markdown, edited_at: a.edited_at,
    user: { name: user.name, username: user.username },
  });

  const fail = (res: ServerResponse, err: ApiError) => sendJson(res, err.status, { error: err.error, status: err.status }, err.headers);

  const host = await startSimulatorHost<DevtoFailureMode>({
    port: opts.port,
    failureModes: DEVTO_FAILURE_MODES,
    state: () => ({ users: [...users.values()].map((u) => ({ id: u.id, username: u.username })), articleCount: articles.size }),
    reset: () => articles.clear(),
    handle(req, res, failure) {
      switch (failure) {
        case 'unauthorized': return fail(res, new ApiError(401, 'unauthorized'));
        case 'rate_limited': return fail(res, new ApiError(429, `Rate limit reached, try again in ${DEVTO_SIM_RETRY_AFTER_SECONDS} seconds`, { 'retry-after': String(DEVTO_SIM_RETRY_AFTER_SECONDS) }));
        case 'server_error': return fail(res, new ApiError(500, 'Internal Server Error'));
        case 'bad_gateway': return sendText(res, 502, '<html><body>502 Bad Gateway</body></html>', 'text/html');
        case 'validation_failed': return fail(res, unprocessable('Body markdown has already been taken'));
        case 'malformed': return sendJson(res, 200, { ok: true });
        default: break;
      }
      const key = req.headers['api-key'];
      const user = typeof key === 'string' && !revoked.has(key) ? users.get(key) : undefined;
      if (!user) return fail(res, new ApiError(401, 'unauthorized'));
      try {
        if (req.method === 'GET' && req.path === '/api/users/me') {
          return sendJson(res, 200, { type_of: 'user', id: user.id, username: user.username, name: user.name, summary: null, joined_at: 'Jan 1, 2024',
            profile_image: `https://media.dev.to/profile/${user.username}.png` });
        }
        const payload = () => {
          if (req.body.kind !== 'json' || !req.body.value || typeof req.body.value !== 'object') throw new ApiError(400, 'param is missing or the value is empty: article');
          const article = (req.body.value as Record<string, unknown>).article;
          if (!article || typeof article !== 'object') throw new ApiError(400, 'param is missing or the value is empty: article');
          return article as Record<string, unknown>;
        };
        if (req.method === 'POST' && req.path === '/api/articles') {
          const a = apply(payload(), user);
          articles.set(a.id, a);
          return sendJson(res, 201, view(a, user));
        }
        const route = /^\/api\/articles\/(\d+)$/.exec(req.path);
        if (route) {
          const a = articles.get(Number(route[1]));
          if (!a || (a.userId !== user.id && !a.published)) throw new ApiError(404, 'not found');
          if (req.method === 'GET') return sendJson(res, 200, view(a, user));
          if (req.method === 'PUT') {
            if (a.userId !== user.id) throw new ApiError(401, 'unauthorized');
            const updated = apply(payload(), user, a);
            articles.set(a.id, updated);
            return sendJson(res, 200, view(updated, user));
          }
        }
        throw new ApiError(404, 'not found');
      } catch (err) {
        if (err instanceof ApiError) return fail(res, err);
        throw err;
      }
    },
  });

  return {
    port: host.port,
    origin: host.origin,
    apiBase: `${host.origin}/api`,
    get requests() { return host.requests; },
    createUser(input) {
      const bytes = seeded('user');
      const id = 1_000_000 + (bytes.readUInt32BE(0) % 8_000_000);
      const apiKey = bytes.subarray(4, 22).toString('base64url').replace(/[-_]/g, 'x');
      users.set(apiKey, { id, username: input.username, name: input.name ?? input.username, apiKey });
      return { id, username: input.username, apiKey };
    },
    revokeKey(apiKey) { revoked.add(apiKey); },
    articles: (userId) => [...articles.values()].filter((a) => userId === undefined || a.userId === userId).map((a) => structuredClone(a)),
    fail: (mode, times) => host.fail(mode, times),
    setLatency: (ms) => host.setLatency(ms),
    state: () => host.state(),
    reset: () => host.reset(),
    close: () => host.close(),
  };
}
