/**
 * Loopback simulator of a listmonk instance (listmonk.app/docs/apis): API users authenticated with
 * `Authorization: token user:token` or HTTP Basic, GET /api/lists, POST /api/campaigns, GET
 * /api/campaigns/:id, PUT /api/campaigns/:id/status with listmonk's status transitions, and its
 * POST /api/media (multipart `file`, images only, as listmonk's media library takes them), and its
 * `{message}` errors (403 "invalid API credentials", 400 on invalid fields, 404 unknown campaign).
 */
import type { ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { createSeededSource, sendJson, sendText, startSimulatorHost, type RecordedRequest } from '../kit/http';

export const LISTMONK_FAILURE_MODES = ['invalid_credentials', 'permission_denied', 'proxy_rate_limited', 'server_error', 'bad_gateway', 'invalid_fields', 'malformed'] as const;
export type ListmonkFailureMode = (typeof LISTMONK_FAILURE_MODES)[number];
export const LISTMONK_SIM_RETRY_AFTER_SECONDS = 15;

export interface ListmonkCampaign {
  id: number;
  uuid: string;
  name: string;
  subject: string;
  lists: number[];
  content_type: string;
  body: string;
  template_id: number;
  from_email: string;
  tags: string[];
  send_at: string | null;
  status: 'draft' | 'scheduled' | 'running' | 'paused' | 'cancelled' | 'finished';
  created_by: string;
}

interface ApiUser { name: string; token: string }

/** An upload to the media library (POST /api/media). */
export interface ListmonkMedia { id: number; uuid: string; filename: string; content_type: string; size: number; url: string }
/** Image types listmonk's media library takes by default (settings → media → allowed extensions: jpg, jpeg, png, gif, svg). */
const MEDIA_TYPES: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/svg+xml': 'svg' };

export interface ListmonkSimulator {
  port: number;
  origin: string;
  instanceUrl: string;
  createApiUser(name: string): { name: string; token: string };
  createList(name: string): { id: number };
  createTemplate(name: string): { id: number };
  revokeToken(name: string): void;
  campaigns(): ListmonkCampaign[];
  media(): ListmonkMedia[];
  fail(mode: ListmonkFailureMode, times?: number): void;
  setLatency(ms: number): void;
  readonly requests: RecordedRequest[];
  state(): Record<string, unknown>;
  reset(): void;
  close(): Promise<void>;
}

class ApiError {
  constructor(readonly status: number, readonly message: string) {}
}
const CONTENT_TYPES = ['richtext', 'html', 'markdown', 'plain', 'visual'];
/** Status changes listmonk allows (campaigns.go: canStart, canSchedule, …). */
const TRANSITIONS: Record<string, string[]> = {
  draft: ['running', 'scheduled'], scheduled: ['draft', 'running', 'cancelled'], running: ['paused', 'cancelled'], paused: ['running', 'cancelled'],
};

export async function startListmonkSimulator(opts: { port?: number; seed?: string } = {}): Promise<ListmonkSimulator> {
  const seeded = createSeededSource(opts.seed);
  const users = new Map<string, ApiUser>();
  const revoked = new Set<string>();
  const lists = new Map<number, string>();
  const templates = new Map<number, string>([[1, 'Default campaign template']]);
  const campaigns = new Map<number, ListmonkCampaign>();
  let nextList = 0;
  let nextTemplate = 1;
  let nextCampaign = 0;
  const media = new Map<number, ListmonkMedia>();
  let nextMedia = 0;
  let origin = '';

  function authenticate(header: string | undefined): ApiUser | undefined {
    if (!header) return undefined;
    let pair: string | undefined;
    const token = /^token (.+)$/i.exec(header);
    const basic = /^Basic (.+)$/i.exec(header);
    if (token) pair = token[1];
    else if (basic) pair = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const [name, secret] = pair?.split(/:(.*)/s) ?? [];
    const user = name ? users.get(name) : undefined;
    return user && !revoked.has(user.name) && user.token === secret ? user : undefined;
  }

  const view = (c: ListmonkCampaign) => ({
    id: c.id, uuid: c.uuid, name: c.name, subject: c.subject, from_email: c.from_email, body: c.body, content_type: c.content_type, template_id: c.template_id,
    send_at: c.send_at, status: c.status, type: 'regular', messenger: 'email', tags: c.tags, lists: c.lists.map((id) => ({ id, name: lists.get(id) })),
    created_at: new Date().toISOString(), updated_at: new Date().toISOString(), views: 0, clicks: 0, sent: 0, to_send: 0,
  });

  function create(input: Record<string, unknown>, user: ApiUser): ListmonkCampaign {
    const name = typeof input.name === 'string' ? input.name.trim() : '';
    const subject = typeof input.subject === 'string' ? input.subject : '';
    if (!name || [...name].length > 200) throw new ApiError(400, 'Invalid length for name.');
    if (!subject.trim() || [...subject].length > 5000) throw new ApiError(400, 'Invalid length for subject.');
    const listIds = Array.isArray(input.lists) ? input.lists.map(Number) : [];
    if (!listIds.length) throw new ApiError(400, 'At least one list is required.');
    const unknown = listIds.filter((id) => !lists.has(id));
    if (unknown.length) throw new ApiError(400, `List(s) not found: ${unknown.join(', ')}`);
    const contentType = typeof input.content_type === 'string' ? input.content_type : 'richtext';
    if (!CONTENT_TYPES.includes(contentType)) throw new ApiError(400, 'Invalid content_type.');
    const templateId = input.template_id === undefined ? 1 : Number(input.template_id);
    if (!templates.has(templateId)) throw new ApiError(400, 'Template not found.');
    let sendAt: string | null = null;
    if (input.send_at !== undefined && input.send_at !== null) {
      const at = Date.parse(String(input.send_at));
      if (!Number.isFinite(at) || at <= Date.now()) throw new ApiError(400, 'send_at date should be in the future.');
      sendAt = new Date(at).toISOString();
    }
    const id = ++nextCampaign;
    return {
      id, uuid: randomUUID(), name, subject, lists: listIds, content_type: contentType, body: typeof input.body === 'string' ? input.body : '',
      template_id: templateId, from_email: typeof input.from_email === 'string' ? input.from_email : 'listmonk <noreply@listmonk.sandbox.test>',
      tags: Array.isArray(input.tags) ? input.tags.map(String) : [], send_at: sendAt, status: 'draft', created_by: user.name,
    };
  }

  const fail = (res: ServerResponse, err: ApiError) => sendJson(res, err.status, { message: err.message });

  const host = await startSimulatorHost<ListmonkFailureMode>({
    port: opts.port,
    failureModes: LISTMONK_FAILURE_MODES,
    state: () => ({ lists: [...lists.entries()].map(([id, name]) => ({ id, name })), campaignCount: campaigns.size, mediaCount: media.size }),
    reset: () => { campaigns.clear(); media.clear(); },
    handle(req, res, failure) {
      switch (failure) {
        case 'invalid_credentials': return fail(res, new ApiError(403, 'invalid API credentials'));
        case 'permission_denied': return fail(res, new ApiError(403, 'permission denied: campaigns:manage'));
        case 'proxy_rate_limited': {
          res.writeHead(429, { 'content-type': 'text/html', 'retry-after': String(LISTMONK_SIM_RETRY_AFTER_SECONDS) });
          return res.end('<html><body>429 Too Many Requests</body></html>');
        }
        case 'server_error': return fail(res, new ApiError(500, 'Error creating campaign: database error'));
        case 'bad_gateway': return sendText(res, 502, '<html><body>502 Bad Gateway</body></html>', 'text/html');
        case 'invalid_fields': return fail(res, new ApiError(400, 'Invalid length for subject.'));
        case 'malformed': return sendJson(res, 200, { results: [] });
        default: break;
      }
      const user = authenticate(req.headers.authorization);
      if (!user) return fail(res, new ApiError(403, 'invalid API credentials'));
      try {
        const json = (): Record<string, unknown> => {
          if (req.body.kind !== 'json' || !req.body.value || typeof req.body.value !== 'object') throw new ApiError(400, 'Invalid JSON request.');
          return req.body.value as Record<string, unknown>;
        };
        if (req.method === 'GET' && req.path === '/api/lists') {
          const all = [...lists.entries()].map(([id, name]) => ({ id, name, type: 'private', optin: 'single', subscriber_count: 0 }));
          return sendJson(res, 200, { data: req.query.minimal === 'true' ? all : { results: all, total: all.length, per_page: all.length, page: 1 } });
        }
        if (req.method === 'POST' && req.path === '/api/media') {
          if (req.body.kind !== 'multipart') throw new ApiError(400, 'Invalid file.');
          const file = req.body.files.find((f) => f.name === 'file');
          if (!file || file.data.length === 0) throw new ApiError(400, 'Invalid file.');
          const type = (file.contentType ?? '').split(';')[0]!.trim().toLowerCase();
          const ext = MEDIA_TYPES[type];
          const named = /\.([A-Za-z0-9]+)$/.exec(file.filename ?? '')?.[1]?.toLowerCase();
          if (!ext || (named && !Object.values(MEDIA_TYPES).concat('jpeg').includes(named))) throw new ApiError(400, `Unsupported file type (${named ?? type}).`);
          const id = ++nextMedia;
          const filename = (file.filename || `upload.${ext}`).replace(/[^A-Za-z0-9._-]+/g, '_');
          const item: ListmonkMedia = { id, uuid: randomUUID(), filename, content_type: type, size: file.data.length, url: `${origin}/uploads/${filename}` };
          media.set(id, item);
          return sendJson(res, 200, { data: { ...item, thumb_url: `${origin}/uploads/thumb_${filename}`, created_at: new Date().toISOString(), provider: 'filesystem' } });
        }
        if (req.method === 'POST' && req.path === '/api/campaigns') {
          const c = create(json(), user);
          campaigns.set(c.id, c);
          return sendJson(res, 200, { data: view(c) });
        }
        const route = /^\/api\/campaigns\/(\d+)(\/status)?$/.exec(req.path);
        if (route) {
          const c = campaigns.get(Number(route[1]));
          if (!c) throw new ApiError(404, 'Campaign not found.');
          if (req.method === 'GET' && !route[2]) return sendJson(res, 200, { data: view(c) });
          if (req.method === 'PUT' && route[2]) {
            const status = json().status;
            if (typeof status !== 'string' || !(TRANSITIONS[c.status] ?? []).includes(status)) throw new ApiError(400, `Cannot change status from ${c.status} to ${String(status)}.`);
            if (status === 'scheduled' && !c.send_at) throw new ApiError(400, 'send_at date should be in the future.');
            c.status = status as ListmonkCampaign['status'];
            return sendJson(res, 200, { data: view(c) });
          }
          if (req.method === 'DELETE' && !route[2]) {
            campaigns.delete(c.id);
            return sendJson(res, 200, { data: true });
          }
        }
        throw new ApiError(404, 'Unknown route.');
      } catch (err) {
        if (err instanceof ApiError) return fail(res, err);
        throw err;
      }
    },
  });

  origin = host.origin;
  return {
    port: host.port,
    origin: host.origin,
    instanceUrl: host.origin,
    get requests() { return host.requests; },
    createApiUser(name) {
      const token = seeded('token').subarray(0, 24).toString('base64url').replace(/[-_]/g, 'x');
      users.set(name, { name, token });
      return { name, token };
    },
    createList(name) {
      const id = ++nextList;
      lists.set(id, name);
      return { id };
    },
    createTemplate(name) {
      const id = ++nextTemplate;
      templates.set(id, name);
      return { id };
    },
    revokeToken(name) { revoked.add(name); },
    campaigns: () => [...campaigns.values()].map((c) => structuredClone(c)),
    media: () => [...media.values()].map((m) => structuredClone(m)),
    fail: (mode, times) => host.fail(mode, times),
    setLatency: (ms) => host.setLatency(ms),
    state: () => host.state(),
    reset: () => host.reset(),
    close: () => host.close(),
  };
}
