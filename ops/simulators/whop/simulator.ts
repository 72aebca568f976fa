/**
 * Loopback simulator of Whop's REST API v1 (docs.whop.com/api-reference): Bearer API keys with
 * permissions, GET /api/v1/experiences/:id, POST /api/v1/forum_posts, PATCH and GET
 * /api/v1/forum_posts/:id, attachments by file id, and Whop's `{error:{type, message}}` bodies.
 */
import type { ServerResponse } from 'node:http';
import { createSeededSource, sendJson, sendText, startSimulatorHost, type RecordedRequest } from '../kit/http';

export const WHOP_FAILURE_MODES = ['unauthorized', 'forbidden', 'rate_limited', 'server_error', 'bad_gateway', 'invalid_request', 'malformed'] as const;
export type WhopFailureMode = (typeof WHOP_FAILURE_MODES)[number];
export const WHOP_SIM_RETRY_AFTER_SECONDS = 10;

export interface WhopForumPost {
  id: string;
  experience_id: string;
  title: string | null;
  content: string;
  attachments: string[];
  is_pinned: boolean;
  visibility: string;
  is_edited: boolean;
  created_at: string;
  updated_at: string;
}

interface Key { key: string; companyId: string; permissions: Set<string> }
interface Experience { id: string; name: string; companyId: string; forum: boolean }
interface Company { id: string; title: string; route: string }

export interface WhopSimulator {
  port: number;
  origin: string;
  /** The adapter's apiBase: `${origin}/api/v1`. */
  apiBase: string;
  createCompany(input: { title: string }): { id: string };
  createExperience(companyId: string, input: { name: string; forum?: boolean }): { id: string };
  createApiKey(companyId: string, permissions?: string[]): string;
  createFile(companyId: string): string;
  revokeKey(key: string): void;
  posts(experienceId?: string): WhopForumPost[];
  fail(mode: WhopFailureMode, times?: number): void;
  setLatency(ms: number): void;
  readonly requests: RecordedRequest[];
  state(): Record<string, unknown>;
  reset(): void;
  close(): Promise<void>;
}

class ApiError {
  constructor(readonly status: number, readonly type: string, readonly message: string, readonly headers: Record<string, string> = {}) {}
}
const invalid = (message: string) => new ApiError(400, 'invalid_request_error', message);
const DEFAULT_PERMISSIONS = ['forum:post:create', 'forum:read', 'experience:read'];

export async function startWhopSimulator(opts: { port?: number; seed?: string } = {}): Promise<WhopSimulator> {
  const seeded = createSeededSource(opts.seed);
  const id = (prefix: string) => `${prefix}_${seeded(prefix).toString('base64url').replace(/[-_]/g, '').slice(0, 14)}`;
  const companies = new Map<string, Company>();
  const experiences = new Map<string, Experience>();
  const keys = new Map<string, Key>();
  const files = new Map<string, string>();
  const revoked = new Set<string>();
  const posts = new Map<string, WhopForumPost>();

  const need = (key: Key, permission: string) => {
    if (!key.permissions.has(permission)) throw new ApiError(403, 'forbidden', `The API key is missing the ${permission} permission.`);
  };
  const experienceFor = (key: Key, expId: unknown): Experience => {
    const exp = typeof expId === 'string' ? experiences.get(expId) : undefined;
    if (!exp || exp.companyId !== key.companyId) throw new ApiError(404, 'not_found', 'Experience not found');
    return exp;
  };
  const attachmentsOf = (key: Key, raw: unknown): string[] => {
    if (raw === undefined || raw === null) return [];
    if (!Array.isArray(raw)) throw invalid('attachments must be an array');
    return raw.map((a) => {
      const fileId = a && typeof a === 'object' ? (a as Record<string, unknown>).id ?? (a as Record<string, unknown>).direct_upload_id : undefined;
      if (typeof fileId !== 'string' || files.get(fileId) !== key.companyId) throw invalid(`Attachment ${String(fileId)} was not found`);
      return fileId;
    });
  };
  const view = (p: WhopForumPost) => ({
    id: p.id, title: p.title, content: p.content, created_at: p.created_at, updated_at: p.updated_at, is_edited: p.is_edited, is_poster_admin: true,
    is_pinned: p.is_pinned, parent_id: null, attachments: p.attachments.map((f) => ({ id: f, content_type: 'image/png', url: `https://assets.whop.com/${f}` })),
    user: { id: 'user_sandboxadmin', username: 'admin', name: 'Admin' }, view_count: 0, like_count: 0, comment_count: 0,
  });

  const fail = (res: ServerResponse, err: ApiError) => sendJson(res, err.status, { error: { type: err.type, message: err.message } }, err.headers);

  const host = await startSimulatorHost<WhopFailureMode>({
    port: opts.port,
    failureModes: WHOP_FAILURE_MODES,
    state: () => ({ experiences: [...experiences.values()], postCount: posts.size }),
    reset: () => posts.clear(),
    handle(req, res, failure) {
      switch (failure) {
        case 'unauthorized': return fail(res, new ApiError(401, 'unauthorized', 'The API key supplied does not exist.'));
        case 'forbidden': return fail(res, new ApiError(403, 'forbidden', 'The API key is missing the forum:post:create permission.'));
        case 'rate_limited': return fail(res, new ApiError(429, 'rate_limit_exceeded', 'Too many requests.', { 'retry-after': String(WHOP_SIM_RETRY_AFTER_SECONDS) }));
        case 'server_error': return fail(res, new ApiError(500, 'internal_server_error', 'Something went wrong.'));
        case 'bad_gateway': return sendText(res, 502, 'error code: 502');
        case 'invalid_request': return fail(res, invalid('Content contains a blocked link.'));
        case 'malformed': return sendJson(res, 200, { data: [] });
        default: break;
      }
      const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const key = bearer && !revoked.has(bearer) ? keys.get(bearer) : undefined;
      if (!key) return fail(res, new ApiError(401, 'unauthorized', 'The API key supplied does not exist.'));
      try {
        const json = (): Record<string, unknown> => {
          if (req.body.kind !== 'json' || !req.body.value || typeof req.body.value !== 'object') throw invalid('The request body must be a JSON object.');
          return req.body.value as Record<string, unknown>;
        };
        const expRoute = /^\/api\/v1\/experiences\/([^/]+)$/.exec(req.path);
        if (req.method === 'GET' && expRoute) {
          need(key, 'experience:read');
          const exp = experienceFor(key, decodeURIComponent(expRoute[1]!));
          const company = companies.get(exp.companyId)!;
          return sendJson(res, 200, { id: exp.id, name: exp.name, order: '1', app: { id: 'app_forum', name: exp.forum ? 'Forum' : 'Chat' },
            company: { id: company.id, title: company.title, route: company.route }, image: { url: `https://assets.whop.com/${exp.id}.png` } });
        }
        if (req.method === 'POST' && req.path === '/api/v1/forum_posts') {
          need(key, 'forum:post:create');
          const input = json();
          if (typeof input.experience_id !== 'string') throw invalid('experience_id is required');
          const exp = experienceFor(key, input.experience_id);
          if (!exp.forum) throw invalid('The experience is not a forum.');
          const content = typeof input.content === 'string' ? input.content : '';
          const attachments = attachmentsOf(key, input.attachments);
          if (!content.trim() && !attachments.length) throw invalid('A post needs content or attachments.');
          if (input.visibility !== undefined && !['members_only', 'globally_visible'].includes(String(input.visibility))) throw invalid('visibility is invalid');
          const now = new Date().toISOString();
          const post: WhopForumPost = {
            id: id('post'), experience_id: exp.id, title: typeof input.title === 'string' ? input.title : null, content, attachments,
            is_pinned: input.pinned === true, visibility: typeof input.visibility === 'string' ? input.visibility : 'members_only', is_edited: false, created_at: now, updated_at: now,
          };
          posts.set(post.id, post);
          return sendJson(res, 201, view(post));
        }
        const postRoute = /^\/api\/v1\/forum_posts\/([^/]+)$/.exec(req.path);
        if (postRoute) {
          const post = posts.get(decodeURIComponent(postRoute[1]!));
          if (!post || experiences.get(post.experience_id)?.companyId !== key.companyId) throw new ApiError(404, 'not_found', 'Forum post not found');
          if (req.method === 'GET') return sendJson(res, 200, view(post));
          if (req.method === 'PATCH') {
            need(key, 'forum:post:create');
            const input = json();
            if (input.content !== undefined && input.content !== null) post.content = String(input.content);
            if (input.title !== undefined) post.title = input.title === null ? null : String(input.title);
            if (input.is_pinned !== undefined) post.is_pinned = input.is_pinned === true;
            if (input.visibility !== undefined) post.visibility = String(input.visibility);
            if (input.attachments !== undefined) post.attachments = attachmentsOf(key, input.attachments);
            post.is_edited = true;
            post.updated_at = new Date().toISOString();
            return sendJson(res, 200, view(post));
          }
        }
        throw new ApiError(404, 'not_found', 'Not found');
      } catch (err) {
        if (err instanceof ApiError) return fail(res, err);
        throw err;
      }
    },
  });

  return {
    port: host.port,
    origin: host.origin,
    apiBase: `${host.origin}/api/v1`,
    get requests() { return host.requests; },
    createCompany(input) {
      const c = { id: id('biz'), title: input.title, route: input.title.toLowerCase().replace(/[^a-z0-9]+/g, '-') };
      companies.set(c.id, c);
      return { id: c.id };
    },
    createExperience(companyId, input) {
      const e = { id: id('exp'), name: input.name, companyId, forum: input.forum ?? true };
      experiences.set(e.id, e);
      return { id: e.id };
    },
    createApiKey(companyId, permissions = DEFAULT_PERMISSIONS) {
      const key = `apik_${seeded('key').toString('base64url').replace(/[-_]/g, '').slice(0, 40)}`;
      keys.set(key, { key, companyId, permissions: new Set(permissions) });
      return key;
    },
    createFile(companyId) {
      const fileId = id('file');
      files.set(fileId, companyId);
      return fileId;
    },
    revokeKey(key) { revoked.add(key); },
    posts: (experienceId) => [...posts.values()].filter((p) => !experienceId || p.experience_id === experienceId).map((p) => structuredClone(p)),
    fail: (mode, times) => host.fail(mode, times),
    setLatency: (ms) => host.setLatency(ms),
    state: () => host.state(),
    reset: () => host.reset(),
    close: () => host.close(),
  };
}
