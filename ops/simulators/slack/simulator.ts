/**
 * Loopback simulator of Slack's Web API (api.slack.com/methods) and incoming webhooks
 * (api.slack.com/messaging/webhooks): auth.test, conversations.info, chat.postMessage,
 * chat.getPermalink, chat.update, chat.delete and files upload v2 (files.getUploadURLExternal,
 * bytes POSTed to `/upload/v1/<key>`, files.completeUploadExternal) at `/api/<method>` (token in the Authorization
 * header or a `token` parameter; JSON or form bodies), and `POST /services/T…/B…/<secret>` webhooks.
 * Web API refusals are HTTP 200 `{ok:false, error}` (429 + Retry-After when rate limited), webhook
 * answers plain text, as Slack does.
 */
import type { ServerResponse } from 'node:http';
import { createSeededSource, sendJson, sendText, startSimulatorHost, type RecordedRequest, type SimRequest } from '../kit/http';

export const SLACK_FAILURE_MODES = [
  'invalid_auth', 'token_revoked', 'ratelimited', 'rate_limited', 'fatal_error', 'server_error', 'not_in_channel', 'channel_not_found', 'malformed',
] as const;
export type SlackFailureMode = (typeof SLACK_FAILURE_MODES)[number];
/** Retry-After (seconds) of a `ratelimited` failure. */
export const SLACK_SIM_RETRY_AFTER_SECONDS = 3;
const MAX_TEXT = 40_000;

export interface SlackMessage {
  channel: string;
  ts: string;
  text: string;
  /** `bot` (chat.postMessage) or `webhook`. */
  via: 'bot' | 'webhook';
  thread_ts?: string;
  edited?: { ts: string };
  deleted?: boolean;
  /** Files shared with the message (files.completeUploadExternal). */
  files?: string[];
}

/** A file of files upload v2: announced (getUploadURLExternal), uploaded (bytes), then shared (completeUploadExternal). */
export interface SlackFile {
  id: string;
  filename: string;
  /** The length announced to files.getUploadURLExternal. */
  length: number;
  title?: string;
  mimetype?: string;
  bytes?: Buffer;
  channel?: string;
  ts?: string;
}

/** Scopes a simulated bot has unless createBot is told otherwise. */
export const SLACK_SIM_DEFAULT_SCOPES = ['chat:write', 'channels:read', 'files:write'];

export interface SlackSimulatorOptions {
  port?: number;
  seed?: string;
  /** The workspace's URL, used in permalinks (default https://herald-sandbox.slack.com/). */
  teamUrl?: string;
}

export interface SlackSimulator {
  port: number;
  origin: string;
  /** The adapter's `apiBase`: `${origin}/api`. */
  apiBase: string;
  /** The adapter's `webhookBase`: webhooks live at `${origin}/services/…`. */
  webhookBase: string;
  teamId: string;
  createBot(input?: { name?: string; scopes?: string[] }): { token: string; botId: string; userId: string };
  createChannel(input: { name: string; archived?: boolean; members?: string[] }): { id: string };
  /** Adds a bot (by token) to a channel. */
  join(channelId: string, token: string): void;
  createWebhook(channelId: string): { url: string; path: string };
  revokeToken(token: string): void;
  messages(channelId?: string): SlackMessage[];
  /** Files of files upload v2 (without their bytes' content: `size` is what was uploaded). */
  files(): (Omit<SlackFile, 'bytes'> & { size?: number })[];
  fail(mode: SlackFailureMode, times?: number): void;
  setLatency(ms: number): void;
  readonly requests: RecordedRequest[];
  state(): Record<string, unknown>;
  reset(): void;
  close(): Promise<void>;
}

interface Bot { token: string; botId: string; userId: string; name: string; scopes: Set<string> }
interface Channel { id: string; name: string; archived: boolean; members: Set<string> }

class SlackApiError {
  constructor(readonly error: string, readonly status = 200, readonly headers: Record<string, string> = {}, readonly extra: Record<string, unknown> = {}) {}
}

export async function startSlackSimulator(opts: SlackSimulatorOptions = {}): Promise<SlackSimulator> {
  const seeded = createSeededSource(opts.seed);
  const teamUrl = opts.teamUrl ?? 'https://herald-sandbox.slack.com/';
  const id = (prefix: string, kind: string) => `${prefix}${seeded(kind).toString('hex').toUpperCase().replace(/[^A-Z0-9]/g, '').slice(0, 10)}`;
  const teamId = id('T', 'team');
  const bots = new Map<string, Bot>();
  const revoked = new Set<string>();
  const channels = new Map<string, Channel>();
  const webhooks = new Map<string, string>();
  const stored: SlackMessage[] = [];
  const files = new Map<string, SlackFile>();
  /** upload_url key → file id. */
  const uploads = new Map<string, string>();
  let origin = '';
  let clock = 1_700_000_000_000_000;

  const nextTs = () => {
    clock = Math.max(clock + 1, Date.now() * 1000);
    const s = String(clock);
    return `${s.slice(0, -6)}.${s.slice(-6)}`;
  };
  const permalink = (channel: string, ts: string) => `${teamUrl}archives/${channel}/p${ts.replace('.', '')}`;

  function channelFor(params: Record<string, unknown>, bot: Bot, post: boolean): Channel {
    const ref = typeof params.channel === 'string' ? params.channel : '';
    if (!ref) throw new SlackApiError('channel_not_found');
    const channel = channels.get(ref);
    if (!channel) throw new SlackApiError('channel_not_found');
    if (post && channel.archived) throw new SlackApiError('is_archived');
    if (post && !channel.members.has(bot.userId)) throw new SlackApiError('not_in_channel');
    return channel;
  }

  function checkText(params: Record<string, unknown>): string {
    const text = typeof params.text === 'string' ? params.text : '';
    if (text.trim() === '' && params.blocks === undefined && params.attachments === undefined) throw new SlackApiError('no_text');
    if ([...text].length > MAX_TEXT) throw new SlackApiError('msg_too_long');
    return text;
  }

  function findMessage(channel: Channel, ts: unknown): SlackMessage {
    const message = stored.find((m) => m.channel === channel.id && m.ts === ts && !m.deleted);
    if (!message) throw new SlackApiError('message_not_found');
    return message;
  }

  function needScope(bot: Bot, scope: string): void {
    if (!bot.scopes.has(scope)) throw new SlackApiError('missing_scope', 200, {}, { needed: scope, provided: [...bot.scopes].join(',') });
  }

  function fileList(value: unknown): { id: string; title?: string }[] {
    let list = value;
    if (typeof list === 'string') { try { list = JSON.parse(list); } catch { throw new SlackApiError('invalid_arguments'); } }
    if (!Array.isArray(list) || list.length === 0) throw new SlackApiError('invalid_arguments');
    return list.map((f) => {
      if (!f || typeof f !== 'object' || typeof (f as { id?: unknown }).id !== 'string') throw new SlackApiError('invalid_arguments');
      const { id: fid, title } = f as { id: string; title?: unknown };
      return { id: fid, ...(typeof title === 'string' ? { title } : {}) };
    });
  }

  function call(method: string, params: Record<string, unknown>, bot: Bot): Record<string, unknown> {
    switch (method) {
      case 'files.getUploadURLExternal': {
        needScope(bot, 'files:write');
        const filename = typeof params.filename === 'string' ? params.filename.trim() : '';
        const length = Number(params.length);
        if (!filename || params.length === undefined || !Number.isInteger(length) || length <= 0) throw new SlackApiError('invalid_arguments');
        const file: SlackFile = { id: id('F', 'file'), filename, length };
        const key = seeded('upload').toString('base64url').replace(/[^A-Za-z0-9]/g, 'u').slice(0, 24);
        files.set(file.id, file);
        uploads.set(key, file.id);
        return { upload_url: `${origin}/upload/v1/${key}`, file_id: file.id };
      }
      case 'files.completeUploadExternal': {
        needScope(bot, 'files:write');
        const list = fileList(params.files);
        const found = list.map((f) => {
          const file = files.get(f.id);
          if (!file || !file.bytes || file.channel) throw new SlackApiError('file_not_found');
          if (file.bytes.length !== file.length) throw new SlackApiError('file_upload_size_mismatch');
          return { file, title: f.title };
        });
        const channelParam = typeof params.channel_id === 'string' ? params.channel_id : undefined;
        const channel = channelParam ? channelFor({ channel: channelParam }, bot, true) : undefined;
        const text = typeof params.initial_comment === 'string' ? params.initial_comment : '';
        if ([...text].length > MAX_TEXT) throw new SlackApiError('msg_too_long');
        const ts = channel ? nextTs() : undefined;
        if (channel && ts) stored.push({ channel: channel.id, ts, text, via: 'bot', files: found.map((f) => f.file.id) });
        return {
          files: found.map(({ file, title }) => {
            file.title = title ?? file.filename;
            if (channel && ts) { file.channel = channel.id; file.ts = ts; }
            return {
              id: file.id, name: file.filename, title: file.title, mimetype: file.mimetype ?? 'application/octet-stream', size: file.bytes!.length,
              permalink: `${teamUrl}files/${bot.userId}/${file.id}/${encodeURIComponent(file.filename)}`,
              ...(channel && ts ? { channels: [channel.id], shares: { public: { [channel.id]: [{ ts, channel_name: channel.name }] } } } : { channels: [] }),
            };
          }),
        };
      }
      case 'auth.test':
        return { url: teamUrl, team: 'Herald Sandbox', user: bot.name, team_id: teamId, user_id: bot.userId, bot_id: bot.botId, is_enterprise_install: false };
      case 'conversations.info': {
        const channel = channelFor(params, bot, false);
        return { channel: { id: channel.id, name: channel.name, is_channel: true, is_archived: channel.archived, is_member: channel.members.has(bot.userId), is_private: false, created: 1_700_000_000 } };
      }
      case 'chat.postMessage': {
        const channel = channelFor(params, bot, true);
        const text = checkText(params);
        const threadTs = typeof params.thread_ts === 'string' ? params.thread_ts : undefined;
        if (threadTs) findMessage(channel, threadTs);
        const message: SlackMessage = { channel: channel.id, ts: nextTs(), text, via: 'bot', ...(threadTs ? { thread_ts: threadTs } : {}) };
        stored.push(message);
        return { channel: channel.id, ts: message.ts, message: { type: 'message', subtype: 'bot_message', text, ts: message.ts, bot_id: bot.botId, ...(threadTs ? { thread_ts: threadTs } : {}) } };
      }
      case 'chat.getPermalink': {
        const channel = channelFor(params, bot, false);
        const message = findMessage(channel, params.message_ts);
        return { channel: channel.id, permalink: permalink(channel.id, message.ts) };
      }
      case 'chat.update': {
        const channel = channelFor(params, bot, true);
        const message = findMessage(channel, params.ts);
        if (message.via !== 'bot') throw new SlackApiError('cant_update_message');
        message.text = checkText(params);
        message.edited = { ts: nextTs() };
        return { channel: channel.id, ts: message.ts, text: message.text };
      }
      case 'chat.delete': {
        const channel = channelFor(params, bot, true);
        const message = findMessage(channel, params.ts);
        if (message.via !== 'bot') throw new SlackApiError('cant_delete_message');
        message.deleted = true;
        return { channel: channel.id, ts: message.ts };
      }
      default:
        throw new SlackApiError('unknown_method', 404);
    }
  }

  function paramsOf(req: SimRequest): Record<string, unknown> | SlackApiError {
    switch (req.body.kind) {
      case 'json':
        if (req.body.value && typeof req.body.value === 'object' && !Array.isArray(req.body.value)) return { ...req.query, ...(req.body.value as Record<string, unknown>) };
        return new SlackApiError('invalid_json');
      case 'form': return { ...req.query, ...req.body.fields };
      case 'empty': return { ...req.query };
      case 'too_large': return new SlackApiError('request_too_large', 413);
      case 'invalid': return new SlackApiError('invalid_json');
      default: return new SlackApiError('invalid_form_data');
    }
  }

  const apiFail = (res: ServerResponse, err: SlackApiError) => sendJson(res, err.status, { ok: false, error: err.error, ...err.extra }, err.headers);

  /** The upload URL: raw bytes (or multipart `file`); answers `OK - <length>` as files.slack.com does. */
  function handleUpload(req: SimRequest, res: ServerResponse, failure: SlackFailureMode | undefined) {
    if (failure === 'server_error' || failure === 'fatal_error') return sendText(res, 500, 'upload_failed');
    const fileId = uploads.get(req.path.slice('/upload/v1/'.length));
    const file = fileId ? files.get(fileId) : undefined;
    if (!file) return sendText(res, 404, 'invalid_upload_url');
    if (req.method !== 'POST') return sendText(res, 405, 'method_not_allowed');
    const body = req.body;
    const part = body.kind === 'multipart' ? body.files[0] : undefined;
    const bytes = body.kind === 'binary' ? body.data : part?.data;
    if (!bytes) return sendText(res, 400, 'no_file_data');
    file.bytes = Buffer.from(bytes);
    file.mimetype = (body.kind === 'binary' ? body.contentType : part?.contentType) || 'application/octet-stream';
    return sendText(res, 200, `OK - ${bytes.length}`);
  }

  function handleApi(req: SimRequest, res: ServerResponse, failure: SlackFailureMode | undefined) {
    const method = req.path.slice('/api/'.length);
    switch (failure) {
      case 'ratelimited': return apiFail(res, new SlackApiError('ratelimited', 429, { 'retry-after': String(SLACK_SIM_RETRY_AFTER_SECONDS) }));
      case 'server_error': return sendText(res, 503, '<html><body>Service Unavailable</body></html>', 'text/html');
      case 'malformed': return sendJson(res, 200, { ok: true });
      case 'invalid_auth': case 'token_revoked': case 'rate_limited': case 'fatal_error': case 'not_in_channel': case 'channel_not_found':
        return apiFail(res, new SlackApiError(failure));
      case undefined: break;
    }
    if (req.method !== 'POST' && req.method !== 'GET') return apiFail(res, new SlackApiError('method_not_allowed', 405));
    const params = paramsOf(req);
    if (params instanceof SlackApiError) return apiFail(res, params);
    const header = req.headers.authorization;
    const token = typeof header === 'string' && header.startsWith('Bearer ') ? header.slice(7) : typeof params.token === 'string' ? params.token : '';
    if (!token) return apiFail(res, new SlackApiError('not_authed'));
    if (revoked.has(token)) return apiFail(res, new SlackApiError('token_revoked'));
    const bot = bots.get(token);
    if (!bot) return apiFail(res, new SlackApiError('invalid_auth'));
    // Scoped per method: a token without files:write is answered missing_scope on the file calls only.
    try {
      return sendJson(res, 200, { ok: true, ...call(method, params, bot) });
    } catch (err) {
      if (err instanceof SlackApiError) return apiFail(res, err);
      throw err;
    }
  }

  function handleWebhook(req: SimRequest, res: ServerResponse, failure: SlackFailureMode | undefined) {
    switch (failure) {
      case 'invalid_auth': case 'token_revoked': return sendText(res, 403, 'invalid_token');
      case 'ratelimited': case 'rate_limited':
        res.setHeader('retry-after', String(SLACK_SIM_RETRY_AFTER_SECONDS));
        return sendText(res, 429, 'rate_limited');
      case 'server_error': case 'fatal_error': return sendText(res, 500, 'rollup_error');
      case 'channel_not_found': case 'not_in_channel': return sendText(res, 404, 'channel_not_found');
      case 'malformed': return sendText(res, 200, '');
      case undefined: break;
    }
    const channelId = webhooks.get(req.path.replace(/\/$/, ''));
    if (!channelId) return sendText(res, 404, 'no_service');
    if (req.method !== 'POST') return sendText(res, 405, 'invalid_method');
    const params = paramsOf(req);
    const payload = params instanceof SlackApiError ? undefined
      : req.body.kind === 'form' && typeof params.payload === 'string' ? (() => { try { return JSON.parse(params.payload as string) as Record<string, unknown>; } catch { return undefined; } })()
      : params;
    if (!payload) return sendText(res, 400, 'invalid_payload');
    const channel = channels.get(channelId)!;
    if (channel.archived) return sendText(res, 410, 'channel_is_archived');
    const text = typeof payload.text === 'string' ? payload.text : '';
    if (text.trim() === '' && payload.blocks === undefined) return sendText(res, 400, 'no_text');
    if ([...text].length > MAX_TEXT) return sendText(res, 400, 'msg_too_long');
    stored.push({ channel: channelId, ts: nextTs(), text, via: 'webhook' });
    return sendText(res, 200, 'ok');
  }

  const host = await startSimulatorHost<SlackFailureMode>({
    port: opts.port,
    failureModes: SLACK_FAILURE_MODES,
    state: () => ({ teamId, channels: [...channels.values()].map((c) => ({ id: c.id, name: c.name, archived: c.archived })), messageCount: stored.length, fileCount: files.size }),
    reset: () => { stored.length = 0; files.clear(); uploads.clear(); },
    handle(req, res, failure) {
      if (req.path.startsWith('/api/')) return handleApi(req, res, failure);
      if (req.path.startsWith('/services/')) return handleWebhook(req, res, failure);
      if (req.path.startsWith('/upload/v1/')) return handleUpload(req, res, failure);
      return sendText(res, 404, 'Not Found');
    },
  });

  origin = host.origin;
  return {
    port: host.port,
    origin: host.origin,
    apiBase: `${host.origin}/api`,
    webhookBase: host.origin,
    teamId,
    get requests() { return host.requests; },
    createBot(input = {}) {
      const bytes = seeded('bot');
      const token = `xoxb-${bytes.readUInt32BE(0)}-${bytes.readUInt32BE(4)}-${bytes.subarray(8, 32).toString('base64url').replace(/[^A-Za-z0-9]/g, 'a')}`;
      const bot: Bot = { token, botId: id('B', 'bot-id'), userId: id('U', 'bot-user'), name: input.name ?? 'herald', scopes: new Set(input.scopes ?? SLACK_SIM_DEFAULT_SCOPES) };
      bots.set(token, bot);
      return { token, botId: bot.botId, userId: bot.userId };
    },
    createChannel(input) {
      const channel: Channel = { id: id('C', 'channel'), name: input.name, archived: input.archived === true, members: new Set(input.members ?? []) };
      channels.set(channel.id, channel);
      return { id: channel.id };
    },
    join(channelId, token) {
      const channel = channels.get(channelId);
      const bot = bots.get(token);
      if (!channel || !bot) throw new Error('no such channel or bot in the simulator');
      channel.members.add(bot.userId);
    },
    createWebhook(channelId) {
      if (!channels.has(channelId)) throw new Error(`no channel ${channelId} in the simulator`);
      const path = `/services/${teamId}/${id('B', 'hook')}/${seeded('hook-secret').toString('base64url').replace(/[^A-Za-z0-9]/g, 'x').slice(0, 24)}`;
      webhooks.set(path, channelId);
      return { path, url: `${host.origin}${path}` };
    },
    revokeToken(token) { revoked.add(token); },
    files() {
      return [...files.values()].map(({ bytes, ...f }) => ({ ...structuredClone(f), ...(bytes ? { size: bytes.length } : {}) }));
    },
    messages(channelId) {
      return stored.filter((m) => !m.deleted && (channelId === undefined || m.channel === channelId)).map((m) => structuredClone(m));
    },
    fail: (mode, times) => host.fail(mode, times),
    setLatency: (ms) => host.setLatency(ms),
    state: () => host.state(),
    reset: () => host.reset(),
    close: () => host.close(),
  };
}
