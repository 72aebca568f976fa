/**
 * Loopback simulator of a Mastodon instance (docs.joinmastodon.org/methods): verify_credentials,
 * media uploads (v2, asynchronous processing for video and audio: 202 then 206/200 on GET
 * /api/v1/media/:id), statuses (create with Idempotency-Key, get, source, edit, delete), Bearer
 * tokens, `{error}` bodies, 422 validations and 429 with X-RateLimit-Reset as the instance answers.
 */
import type { ServerResponse } from 'node:http';
import { createSeededSource, sendJson, sendText, startSimulatorHost, type RecordedRequest, type SimRequest } from '../kit/http';

export const MASTODON_FAILURE_MODES = [
  'invalid_token', 'rate_limited', 'server_error', 'service_unavailable', 'account_disabled', 'validation_failed', 'media_processing_failed', 'malformed',
] as const;
export type MastodonFailureMode = (typeof MASTODON_FAILURE_MODES)[number];
/** What a rate_limited failure puts in X-RateLimit-Reset: this many seconds ahead. */
export const MASTODON_SIM_RESET_SECONDS = 30;
const MAX_CHARS = 500;
const MAX_MEDIA = 4;
const IMAGE_MAX_BYTES = 16 * 1024 * 1024;
const VIDEO_MAX_BYTES = 99 * 1024 * 1024;

export interface MastodonMedia {
  id: string;
  type: 'image' | 'video' | 'gifv' | 'audio';
  url: string | null;
  preview_url: string | null;
  description: string | null;
  accountId: string;
  size: number;
  readyAt: number;
  failed: boolean;
  statusId?: string;
}

export interface MastodonStatus {
  id: string;
  accountId: string;
  text: string;
  spoiler_text: string;
  visibility: string;
  sensitive: boolean;
  language: string | null;
  media_ids: string[];
  poll: { options: string[]; expires_in: number; multiple: boolean; hide_totals: boolean } | null;
  created_at: string;
  edited_at: string | null;
  url: string;
  idempotencyKey?: string;
}

interface Account { id: string; username: string; displayName: string; token: string }

export interface MastodonSimulatorOptions {
  port?: number;
  seed?: string;
  /** How long uploaded video stays in processing. Default 50 ms. */
  processingMs?: number;
  /** The instance's public domain (LOCAL_DOMAIN): status URLs point there. Default mastodon.sandbox.test. */
  domain?: string;
}

export interface MastodonSimulator {
  port: number;
  origin: string;
  /** The instance URL to connect with. */
  instanceUrl: string;
  createAccount(input: { username: string; displayName?: string }): { id: string; username: string; accessToken: string };
  /** Revokes a token as "Revoke" under Authorized apps does: every call with it answers 401. */
  revokeToken(token: string): void;
  statuses(accountId?: string): MastodonStatus[];
  media(accountId?: string): MastodonMedia[];
  fail(mode: MastodonFailureMode, times?: number): void;
  setLatency(ms: number): void;
  readonly requests: RecordedRequest[];
  state(): Record<string, unknown>;
  reset(): void;
  close(): Promise<void>;
}

class ApiError {
  constructor(readonly status: number, readonly error: string, readonly headers: Record<string, string> = {}) {}
}
const validation = (what: string) => new ApiError(422, `Validation failed: ${what}`);
const VISIBILITIES = ['public', 'unlisted', 'private', 'direct'];

export async function startMastodonSimulator(opts: MastodonSimulatorOptions = {}): Promise<MastodonSimulator> {
  const seeded = createSeededSource(opts.seed);
  const processingMs = opts.processingMs ?? 50;
  const domain = opts.domain ?? 'mastodon.sandbox.test';
  const accounts = new Map<string, Account>();
  const revoked = new Set<string>();
  const media = new Map<string, MediaState>();
  const statuses = new Map<string, MastodonStatus>();
  let nextId = BigInt('113000000000000000');
  const newId = () => String(++nextId);
  type MediaState = MastodonMedia;

  const byToken = (token: string) => [...accounts.values()].find((a) => a.token === token);
  const accountView = (a: Account, origin: string) => ({
    id: a.id, username: a.username, acct: a.username, display_name: a.displayName, locked: false, bot: false,
    url: `https://${domain}/@${a.username}`, avatar: `${origin}/avatars/original/missing.png`, followers_count: 0, following_count: 0, statuses_count:
      [...statuses.values()].filter((s) => s.accountId === a.id).length,
    source: { privacy: 'public', sensitive: false, language: null, note: '' },
  });
  const mediaView = (m: MediaState) => ({ id: m.id, type: m.type, url: m.url, preview_url: m.preview_url, remote_url: null, description: m.description, meta: {} });
  const statusView = (s: MastodonStatus, origin: string) => {
    const account = accounts.get(s.accountId)!;
    return {
      id: s.id, uri: `https://${domain}/users/${account.username}/statuses/${s.id}`, url: s.url, created_at: s.created_at, edited_at: s.edited_at,
      content: `<p>${s.text.replace(/&/g, '&amp;').replace(/</g, '&lt;')}</p>`, spoiler_text: s.spoiler_text, visibility: s.visibility, sensitive: s.sensitive,
      language: s.language, account: accountView(account, origin), media_attachments: s.media_ids.map((id) => mediaView(media.get(id)!)),
      poll: s.poll ? { id: s.id, expires_at: new Date(Date.parse(s.created_at) + s.poll.expires_in * 1000).toISOString(), multiple: s.poll.multiple,
        options: s.poll.options.map((title) => ({ title, votes_count: 0 })), votes_count: 0 } : null,
      reblogs_count: 0, favourites_count: 0, replies_count: 0,
    };
  };

  function settle(m: MediaState, origin: string): void {
    if (m.url === null && !m.failed && Date.now() >= m.readyAt) {
      m.url = `${origin}/system/media_attachments/${m.id}/original`;
      m.preview_url = `${origin}/system/media_attachments/${m.id}/small`;
    }
  }

  function fields(req: SimRequest): Record<string, unknown> | ApiError {
    const body = req.body;
    switch (body.kind) {
      case 'json': return body.value && typeof body.value === 'object' && !Array.isArray(body.value) ? body.value as Record<string, unknown> : new ApiError(400, 'Invalid JSON');
      case 'form': case 'multipart': {
        // Rails form arrays: media_ids[]=1&media_ids[]=2, poll[options][]=a.
        const out: Record<string, unknown> = {};
        for (const [k, v] of Object.entries(body.fields)) out[k] = v;
        return out;
      }
      case 'empty': return {};
      case 'too_large': return new ApiError(413, 'Request Entity Too Large');
      case 'invalid': return new ApiError(400, body.reason);
      default: return new ApiError(415, 'Unsupported Media Type');
    }
  }

  const bool = (v: unknown) => v === true || v === 'true' || v === '1';
  const strings = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : typeof v === 'string' ? [v] : []);

  function statusInput(input: Record<string, unknown>, account: Account, existing?: MastodonStatus): Omit<MastodonStatus, 'id' | 'created_at' | 'edited_at' | 'url'> {
    const text = typeof input.status === 'string' ? input.status : '';
    const mediaIds = strings(input.media_ids ?? input['media_ids[]']);
    const pollRaw = input.poll && typeof input.poll === 'object' ? input.poll as Record<string, unknown> : undefined;
    if (!text.trim() && !mediaIds.length && !pollRaw) throw validation('Text can\'t be blank');
    const spoiler = typeof input.spoiler_text === 'string' ? input.spoiler_text : existing ? '' : '';
    const length = [...text.replace(/https?:\/\/[^\s<>"]+/g, 'x'.repeat(23))].length + [...spoiler].length;
    if (length > MAX_CHARS) throw validation(`Text character limit of ${MAX_CHARS} exceeded`);
    if (mediaIds.length > MAX_MEDIA) throw validation(`Media attachments: Cannot attach more than ${MAX_MEDIA} files`);
    for (const id of mediaIds) {
      const m = media.get(id);
      if (!m || m.accountId !== account.id || (m.statusId && m.statusId !== existing?.id)) throw validation('Media attachments is invalid');
      if (m.url === null) throw new ApiError(422, 'Cannot attach files that have not finished processing. Try again in a moment!');
    }
    const types = mediaIds.map((id) => media.get(id)!.type);
    if (types.includes('video') && types.length > 1) throw validation('Media attachments: Cannot attach a video to a post that already contains images');
    let poll: MastodonStatus['poll'] = null;
    if (pollRaw) {
      if (mediaIds.length) throw validation('Media attachments: Cannot attach files to a post with a poll');
      const options = strings(pollRaw.options);
      const expires = Number(pollRaw.expires_in);
      if (options.length < 2) throw validation('Poll options must have at least 2 items');
      if (options.length > 4) throw validation('Poll options must have at most 4 items');
      if (options.some((o) => [...o].length > 50)) throw validation('Poll options contain an item that is too long');
      if (!Number.isInteger(expires) || expires < 300 || expires > 2_629_746) throw validation('Poll expires in is invalid');
      poll = { options, expires_in: expires, multiple: bool(pollRaw.multiple), hide_totals: bool(pollRaw.hide_totals) };
    }
    const visibility = typeof input.visibility === 'string' ? input.visibility : existing?.visibility ?? 'public';
    if (!VISIBILITIES.includes(visibility)) throw validation('Visibility is not included in the list');
    const language = typeof input.language === 'string' && input.language ? input.language : existing?.language ?? null;
    if (language !== null && !/^[a-z]{2,3}$/.test(language)) throw validation('Language is not a valid ISO 639 code');
    return {
      accountId: account.id, text, spoiler_text: spoiler, visibility, sensitive: input.sensitive === undefined ? existing?.sensitive ?? false : bool(input.sensitive),
      language, media_ids: mediaIds, poll: existing ? existing.poll : poll,
    };
  }

  function handleApi(req: SimRequest, account: Account, failure: MastodonFailureMode | undefined): { status: number; body: unknown } {
    const origin = `http://${req.headers.host}`;
    const p = req.path;
    if (req.method === 'GET' && p === '/api/v1/accounts/verify_credentials') return { status: 200, body: accountView(account, origin) };
    if (req.method === 'POST' && p === '/api/v2/media') {
      if (req.body.kind === 'too_large') throw new ApiError(413, 'Request Entity Too Large');
      if (req.body.kind !== 'multipart') throw validation('File can\'t be blank');
      const file = req.body.files.find((f) => f.name === 'file');
      if (!file || !file.data.length) throw validation('File can\'t be blank');
      const ct = (file.contentType ?? '').toLowerCase();
      const type = ct.startsWith('image/gif') ? 'gifv' : ct.startsWith('image/') ? 'image' : ct.startsWith('video/') ? 'video' : ct.startsWith('audio/') ? 'audio' : undefined;
      if (!type) throw validation(`File content type "${ct}" is not allowed`);
      if (type === 'image' && file.data.length > IMAGE_MAX_BYTES) throw validation('File file size must be less than 16 MB');
      if (type !== 'image' && file.data.length > VIDEO_MAX_BYTES) throw validation('File file size must be less than 99 MB');
      const description = req.body.fields.description ?? null;
      if (description && [...description].length > 1500) throw validation('Description is too long (maximum is 1500 characters)');
      const id = newId();
      const async = type !== 'image';
      const m: MediaState = {
        id, type, url: null, preview_url: null, description, accountId: account.id, size: file.data.length,
        readyAt: async ? Date.now() + processingMs : 0, failed: failure === 'media_processing_failed',
      };
      media.set(id, m);
      if (!async) settle(m, origin);
      return { status: async || m.url === null ? 202 : 200, body: mediaView(m) };
    }
    const mediaRoute = /^\/api\/v1\/media\/([^/]+)$/.exec(p);
    if (req.method === 'GET' && mediaRoute) {
      const m = media.get(decodeURIComponent(mediaRoute[1]!));
      if (!m || m.accountId !== account.id) throw new ApiError(404, 'Record not found');
      if (m.failed && Date.now() >= m.readyAt) throw new ApiError(422, 'Error processing thumbnail for uploaded media');
      settle(m, origin);
      return { status: m.url === null ? 206 : 200, body: mediaView(m) };
    }
    if (req.method === 'POST' && p === '/api/v1/statuses') {
      const input = fields(req);
      if (input instanceof ApiError) throw input;
      const key = typeof req.headers['idempotency-key'] === 'string' ? req.headers['idempotency-key'] : undefined;
      const twin = key ? [...statuses.values()].find((s) => s.accountId === account.id && s.idempotencyKey === key) : undefined;
      if (twin) return { status: 200, body: statusView(twin, origin) };
      const values = statusInput(input, account);
      const id = newId();
      const status: MastodonStatus = {
        ...values, id, created_at: new Date().toISOString(), edited_at: null, url: `https://${domain}/@${account.username}/${id}`, ...(key ? { idempotencyKey: key } : {}),
      };
      for (const mid of values.media_ids) media.get(mid)!.statusId = id;
      statuses.set(id, status);
      return { status: 200, body: statusView(status, origin) };
    }
    const statusRoute = /^\/api\/v1\/statuses\/([^/]+)(\/source)?$/.exec(p);
    if (statusRoute) {
      const s = statuses.get(decodeURIComponent(statusRoute[1]!));
      if (!s || (s.accountId !== account.id && (s.visibility === 'private' || s.visibility === 'direct'))) throw new ApiError(404, 'Record not found');
      if (req.method === 'GET' && statusRoute[2]) return { status: 200, body: { id: s.id, text: s.text, spoiler_text: s.spoiler_text } };
      if (req.method === 'GET') return { status: 200, body: statusView(s, origin) };
      if (s.accountId !== account.id) throw new ApiError(403, 'This action is not allowed');
      if (req.method === 'PUT') {
        const input = fields(req);
        if (input instanceof ApiError) throw input;
        const values = statusInput(input, account, s);
        Object.assign(s, values, { edited_at: new Date().toISOString() });
        return { status: 200, body: statusView(s, origin) };
      }
      if (req.method === 'DELETE') {
        statuses.delete(s.id);
        // Mastodon answers the deleted status with its source text, for "delete and redraft".
        return { status: 200, body: { ...statusView(s, origin), text: s.text } };
      }
    }
    throw new ApiError(404, 'Record not found');
  }

  const fail = (res: ServerResponse, err: ApiError) => sendJson(res, err.status, { error: err.error }, err.headers);

  const host = await startSimulatorHost<MastodonFailureMode>({
    port: opts.port,
    maxBodyBytes: 100 * 1024 * 1024,
    failureModes: MASTODON_FAILURE_MODES,
    state: () => ({ accounts: [...accounts.values()].map((a) => ({ id: a.id, username: a.username })), statusCount: statuses.size, mediaCount: media.size }),
    reset: () => { statuses.clear(); media.clear(); },
    handle(req, res, failure) {
      switch (failure) {
        case 'invalid_token': return fail(res, new ApiError(401, 'The access token is invalid'));
        case 'rate_limited':
          return fail(res, new ApiError(429, 'Too many requests', {
            'x-ratelimit-limit': '300', 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': new Date(Date.now() + MASTODON_SIM_RESET_SECONDS * 1000).toISOString(),
          }));
        case 'server_error': return fail(res, new ApiError(500, 'We\'re sorry, but something went wrong on our end.'));
        case 'service_unavailable': return sendText(res, 503, '<html><body><h1>503 Service Unavailable</h1></body></html>', 'text/html');
        case 'account_disabled': return fail(res, new ApiError(403, 'Your login is currently disabled'));
        case 'validation_failed': return fail(res, validation('Text contains disallowed content'));
        case 'malformed': return sendText(res, 200, '<html><body>Maintenance</body></html>', 'text/html');
        default: break;
      }
      const auth = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
      const account = auth && !revoked.has(auth) ? byToken(auth) : undefined;
      if (!account) return fail(res, new ApiError(401, 'The access token is invalid'));
      try {
        const out = handleApi(req, account, failure);
        return sendJson(res, out.status, out.body);
      } catch (err) {
        if (err instanceof ApiError) return fail(res, err);
        throw err;
      }
    },
  });

  return {
    port: host.port,
    origin: host.origin,
    instanceUrl: host.origin,
    get requests() { return host.requests; },
    createAccount(input) {
      const bytes = seeded('account');
      const id = String(109_000_000_000_000_000n + BigInt(bytes.readUInt32BE(0)));
      const token = bytes.subarray(4, 36).toString('base64url');
      accounts.set(id, { id, username: input.username, displayName: input.displayName ?? input.username, token });
      return { id, username: input.username, accessToken: token };
    },
    revokeToken(token) { revoked.add(token); },
    statuses: (accountId) => [...statuses.values()].filter((s) => !accountId || s.accountId === accountId).map((s) => structuredClone(s)),
    media: (accountId) => [...media.values()].filter((m) => !accountId || m.accountId === accountId).map((m) => ({ ...m })),
    fail: (mode, times) => host.fail(mode, times),
    setLatency: (ms) => host.setLatency(ms),
    state: () => host.state(),
    reset: () => host.reset(),
    close: () => host.close(),
  };
}
