/**
 * Loopback simulator of Discord's webhook API (docs.discord.com/developers/resources/webhook):
 * Get Webhook with Token and Execute Webhook, with Discord's JSON error bodies and rate-limit
 * headers. Serves both `/api/v10/...` and the unversioned `/api/...` that webhook URLs use.
 */
import type { ServerResponse } from 'node:http';
import {
  createSeededSource, sendEmpty, sendJson, sendText, startSimulatorHost,
  type MultipartPart, type RecordedRequest, type SimRequest,
} from '../kit/http';

export const DISCORD_FAILURE_MODES = ['unknown_webhook', 'rate_limited', 'server_error', 'bad_gateway'] as const;
export type DiscordFailureMode = (typeof DISCORD_FAILURE_MODES)[number];

const DISCORD_EPOCH = 1420070400000n;
const MAX_CONTENT = 2000;
const MAX_ATTACHMENTS = 10;
/** Upload limit of a server without boosts, over all the files of one request. */
export const DISCORD_SIM_UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024;
const MAX_DESCRIPTION = 1024;
/** What a rate_limited failure answers: body `retry_after` (float seconds) and `Retry-After` (whole seconds). */
export const DISCORD_SIM_RETRY_AFTER_SECONDS = 1.5;

export interface DiscordWebhookFixture {
  id: string;
  token: string;
  name: string;
  avatar: string | null;
  channelId: string;
  guildId: string;
  /** Forum channels take webhook messages only as new threads (thread_name) or into one (thread_id). */
  channelType: 'text' | 'forum';
}

export interface DiscordAttachment {
  id: string;
  filename: string;
  size: number;
  url: string;
  proxy_url: string;
  content_type?: string;
  description?: string;
}

/** A message as Discord returns it from Execute Webhook with `?wait=true`. */
export interface DiscordMessage {
  id: string;
  type: 0;
  content: string;
  channel_id: string;
  author: { id: string; username: string; avatar: string | null; discriminator: '0000'; public_flags: 0; flags: 0; bot: true; global_name: null };
  attachments: DiscordAttachment[];
  embeds: unknown[];
  mentions: unknown[];
  mention_roles: string[];
  pinned: false;
  mention_everyone: false;
  tts: boolean;
  timestamp: string;
  edited_timestamp: string | null;
  flags: number;
  components: unknown[];
  webhook_id: string;
}

export interface DiscordSimulatorOptions {
  /** Default 0 (any free port). */
  port?: number;
  /** Fixture ids and tokens derive from it: same seed and same calls, same credentials. Default random. */
  seed?: string;
}

export interface DiscordSimulator {
  port: number;
  /** `http://127.0.0.1:PORT/api/v10`: the adapter's `apiBase`. */
  baseUrl: string;
  /** `http://127.0.0.1:PORT`: the `/__sim/*` control routes live here. */
  origin: string;
  createWebhook(input: { name: string; channelId?: string; guildId?: string; avatar?: string | null; channelType?: 'text' | 'forum' }): { id: string; token: string; url: string };
  /** Deletes a webhook as a server admin would in Discord; later calls answer 404 Unknown Webhook. */
  deleteWebhook(id: string): void;
  webhooks(): DiscordWebhookFixture[];
  messages(webhookId?: string): DiscordMessage[];
  fail(mode: DiscordFailureMode, times?: number): void;
  setLatency(ms: number): void;
  readonly requests: RecordedRequest[];
  state(): Record<string, unknown>;
  /** Clears stored messages, queued failures, latency and recorded requests; webhooks stay. */
  reset(): void;
  close(): Promise<void>;
}

const ERR = {
  unknownWebhook: { message: 'Unknown Webhook', code: 10015 },
  invalidToken: { message: 'Invalid Webhook Token', code: 50027 },
  emptyMessage: { message: 'Cannot send an empty message', code: 50006 },
  invalidJson: { message: 'The request body contains invalid JSON.', code: 50109 },
  tooLarge: { message: 'Request entity too large', code: 40005 },
  tooManyAttachments: { message: `Maximum number of attachments in a message reached (${MAX_ATTACHMENTS})`, code: 30015 },
  notFound: { message: '404: Not Found', code: 0 },
  methodNotAllowed: { message: '405: Method Not Allowed', code: 0 },
  serverError: { message: '500: Internal Server Error', code: 0 },
} as const;

function formError(field: string, code: string, message: string) {
  return { code: 50035, message: 'Invalid Form Body', errors: { [field]: { _errors: [{ code, message }] } } };
}

function discordTimestamp(date: Date): string {
  return date.toISOString().replace('Z', '000+00:00');
}

export async function startDiscordSimulator(opts: DiscordSimulatorOptions = {}): Promise<DiscordSimulator> {
  const seeded = createSeededSource(opts.seed);
  const hooks = new Map<string, DiscordWebhookFixture>();
  const stored: DiscordMessage[] = [];
  let sequence = 0;

  /** A snowflake in a fixed 2023 window, so seeded ids are stable across restarts. */
  const fixtureSnowflake = (kind: string): string => {
    const bytes = seeded(kind);
    const ms = 1672531200000n + BigInt(bytes.readUInt32BE(0) % (365 * 86400)) * 1000n;
    return (((ms - DISCORD_EPOCH) << 22n) | BigInt(bytes.readUInt32BE(4) & 0x3fffff)).toString();
  };
  const liveSnowflake = (): string =>
    (((BigInt(Date.now()) - DISCORD_EPOCH) << 22n) | (1n << 17n) | BigInt(sequence++ & 0xfff)).toString();

  const rateLimited = (res: ServerResponse) => {
    const resetAt = Date.now() / 1000 + DISCORD_SIM_RETRY_AFTER_SECONDS;
    sendJson(res, 429, { message: 'You are being rate limited.', retry_after: DISCORD_SIM_RETRY_AFTER_SECONDS, global: false }, {
      'retry-after': String(Math.ceil(DISCORD_SIM_RETRY_AFTER_SECONDS)),
      'x-ratelimit-limit': '5',
      'x-ratelimit-remaining': '0',
      'x-ratelimit-reset': resetAt.toFixed(3),
      'x-ratelimit-reset-after': DISCORD_SIM_RETRY_AFTER_SECONDS.toFixed(3),
      'x-ratelimit-bucket': 'sim-webhook-bucket',
      'x-ratelimit-scope': 'shared',
    });
  };

  const webhookObject = (hook: DiscordWebhookFixture) => ({
    application_id: null,
    avatar: hook.avatar,
    channel_id: hook.channelId,
    guild_id: hook.guildId,
    id: hook.id,
    name: hook.name,
    type: 1,
    token: hook.token,
  });

  /** Reads the Execute Webhook payload from JSON, form, or multipart `payload_json` + `files[n]`. */
  function readPayload(req: SimRequest): { payload: Record<string, unknown>; files: MultipartPart[] } | { error: [number, unknown] } {
    const body = req.body;
    switch (body.kind) {
      case 'too_large': return { error: [413, ERR.tooLarge] };
      case 'invalid': return { error: [400, ERR.invalidJson] };
      case 'json':
        if (!body.value || typeof body.value !== 'object' || Array.isArray(body.value)) {
          return { error: [400, { code: 50035, message: 'Invalid Form Body', errors: { _errors: [{ code: 'DICT_TYPE_CONVERT', message: 'Only dictionaries may be used in a DictType' }] } }] };
        }
        return { payload: body.value as Record<string, unknown>, files: [] };
      case 'form': return { payload: body.fields, files: [] };
      case 'multipart': {
        if (body.fields.payload_json === undefined) return { payload: body.fields, files: body.files };
        try {
          const payload: unknown = JSON.parse(body.fields.payload_json);
          if (payload && typeof payload === 'object' && !Array.isArray(payload)) return { payload: payload as Record<string, unknown>, files: body.files };
        } catch { /* answered below */ }
        return { error: [400, ERR.invalidJson] };
      }
      default: return { payload: {}, files: [] };
    }
  }

  function execute(req: SimRequest, res: ServerResponse, hook: DiscordWebhookFixture) {
    const read = readPayload(req);
    if ('error' in read) return sendJson(res, read.error[0], read.error[1]);
    const { payload, files } = read;
    if (payload.content !== undefined && payload.content !== null && typeof payload.content !== 'string') {
      return sendJson(res, 400, formError('content', 'BASE_TYPE_STRING', 'This field must be a string.'));
    }
    const content = typeof payload.content === 'string' ? payload.content : '';
    // Discord counts characters, not bytes or UTF-16 units.
    if ([...content].length > MAX_CONTENT) {
      return sendJson(res, 400, formError('content', 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_CONTENT} or fewer in length.`));
    }
    const embeds = Array.isArray(payload.embeds) ? payload.embeds : [];
    if (files.length > MAX_ATTACHMENTS) return sendJson(res, 400, ERR.tooManyAttachments);
    if (content.trim() === '' && embeds.length === 0 && files.length === 0) return sendJson(res, 400, ERR.emptyMessage);
    if (payload.username !== undefined) {
      const name = typeof payload.username === 'string' ? payload.username : '';
      if ([...name].length < 1 || [...name].length > 80) return sendJson(res, 400, formError('username', 'BASE_TYPE_BAD_LENGTH', 'Must be between 1 and 80 in length.'));
      if (/discord|clyde/i.test(name)) return sendJson(res, 400, formError('username', 'USERNAME_INVALID_CONTAINS', 'Username cannot contain "discord"'));
    }
    // files[n] are named by payload_json.attachments[{id: n, filename, description}].
    const described = new Map<string, { filename?: string; description?: string }>();
    if (payload.attachments !== undefined) {
      if (!Array.isArray(payload.attachments)) return sendJson(res, 400, formError('attachments', 'BASE_TYPE_LIST', 'This field must be a list.'));
      for (const [i, a] of (payload.attachments as unknown[]).entries()) {
        const entry = a && typeof a === 'object' ? a as Record<string, unknown> : {};
        if (typeof entry.id !== 'number' && typeof entry.id !== 'string') return sendJson(res, 400, formError(`attachments.${i}.id`, 'BASE_TYPE_REQUIRED', 'This field is required'));
        if (typeof entry.description === 'string' && [...entry.description].length > MAX_DESCRIPTION) {
          return sendJson(res, 400, formError(`attachments.${i}.description`, 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_DESCRIPTION} or fewer in length.`));
        }
        if (!files.some((f) => f.name === `files[${String(entry.id)}]`)) {
          return sendJson(res, 400, formError(`attachments.${i}`, 'ATTACHMENT_NOT_FOUND', 'Attachment data not found'));
        }
        described.set(String(entry.id), { filename: typeof entry.filename === 'string' ? entry.filename : undefined, description: typeof entry.description === 'string' ? entry.description : undefined });
      }
    }
    if (files.reduce((sum, f) => sum + f.data.length, 0) > DISCORD_SIM_UPLOAD_LIMIT_BYTES) return sendJson(res, 413, ERR.tooLarge);
    const threadName = typeof payload.thread_name === 'string' && payload.thread_name.trim() ? payload.thread_name : undefined;
    if (threadName && hook.channelType !== 'forum') return sendJson(res, 400, { message: 'Webhooks can only create threads in forum channels', code: 220003 });
    if (hook.channelType === 'forum' && !threadName && req.query.thread_id === undefined) {
      return sendJson(res, 400, { message: 'Webhooks posted to forum channels must have a thread_name or thread_id', code: 220001 });
    }

    const id = liveSnowflake();
    const message: DiscordMessage = {
      id,
      type: 0,
      content,
      channel_id: threadName ? liveSnowflake() : hook.channelId,
      author: {
        id: hook.id,
        username: typeof payload.username === 'string' && payload.username ? payload.username : hook.name,
        avatar: hook.avatar,
        discriminator: '0000',
        public_flags: 0,
        flags: 0,
        bot: true,
        global_name: null,
      },
      attachments: files.map((file) => {
        const attachmentId = liveSnowflake();
        const meta = described.get(/^files\[(.+)\]$/.exec(file.name)?.[1] ?? '') ?? {};
        const filename = meta.filename ?? file.filename ?? 'file';
        const url = `https://cdn.discordapp.com/attachments/${hook.channelId}/${attachmentId}/${encodeURIComponent(filename)}`;
        return {
          id: attachmentId, filename, size: file.data.length, url, proxy_url: url, content_type: file.contentType,
          ...(meta.description ? { description: meta.description } : {}),
        };
      }),
      embeds,
      mentions: [],
      mention_roles: [],
      pinned: false,
      mention_everyone: false,
      tts: payload.tts === true,
      timestamp: discordTimestamp(new Date()),
      edited_timestamp: null,
      flags: typeof payload.flags === 'number' ? payload.flags : 0,
      components: [],
      webhook_id: hook.id,
    };
    stored.push(message);
    const wait = (req.query.wait ?? '').toLowerCase();
    if (wait === 'true' || wait === '1') return sendJson(res, 200, message);
    return sendEmpty(res, 204);
  }

  /** Get, Edit and Delete Webhook Message: only messages this webhook sent. */
  function message(req: SimRequest, res: ServerResponse, hook: DiscordWebhookFixture, messageId: string) {
    const index = stored.findIndex((m) => m.id === messageId && m.webhook_id === hook.id);
    if (index < 0) return sendJson(res, 404, { message: 'Unknown Message', code: 10008 });
    const found = stored[index]!;
    if (req.method === 'GET') return sendJson(res, 200, found);
    if (req.method === 'DELETE') {
      stored.splice(index, 1);
      return sendEmpty(res, 204);
    }
    const read = readPayload(req);
    if ('error' in read) return sendJson(res, read.error[0], read.error[1]);
    const content = read.payload.content;
    if (content !== undefined && content !== null) {
      if (typeof content !== 'string') return sendJson(res, 400, formError('content', 'BASE_TYPE_STRING', 'This field must be a string.'));
      if ([...content].length > MAX_CONTENT) return sendJson(res, 400, formError('content', 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_CONTENT} or fewer in length.`));
      if (content.trim() === '' && found.attachments.length === 0 && found.embeds.length === 0) return sendJson(res, 400, ERR.emptyMessage);
      found.content = content;
    }
    (found as { edited_timestamp: string | null }).edited_timestamp = discordTimestamp(new Date());
    return sendJson(res, 200, found);
  }

  const host = await startSimulatorHost<DiscordFailureMode>({
    port: opts.port,
    maxBodyBytes: 25 * 1024 * 1024,
    failureModes: DISCORD_FAILURE_MODES,
    state: () => ({
      webhooks: [...hooks.values()].map((h) => ({ id: h.id, name: h.name, channelId: h.channelId, guildId: h.guildId })),
      messageCount: stored.length,
    }),
    reset: () => { stored.length = 0; },
    handle(req, res, failure) {
      const route = /^\/api(?:\/v\d+)?\/webhooks\/([^/]+)\/([^/]+)(?:\/messages\/([^/]+))?\/?$/.exec(req.path);
      if (!route) return sendJson(res, 404, ERR.notFound);
      const messageRoute = route[3] !== undefined;
      if (!messageRoute && req.method !== 'GET' && req.method !== 'POST') return sendJson(res, 405, ERR.methodNotAllowed);
      if (messageRoute && !['GET', 'PATCH', 'DELETE'].includes(req.method)) return sendJson(res, 405, ERR.methodNotAllowed);

      switch (failure) {
        case 'unknown_webhook': return sendJson(res, 404, ERR.unknownWebhook);
        case 'rate_limited': return rateLimited(res);
        case 'server_error': return sendJson(res, 500, ERR.serverError);
        case 'bad_gateway': return sendText(res, 502, '<html><body><h1>502 Bad Gateway</h1></body></html>', 'text/html');
        case undefined: break;
      }

      const hook = hooks.get(decodeURIComponent(route[1]!));
      if (!hook) return sendJson(res, 404, ERR.unknownWebhook);
      if (hook.token !== decodeURIComponent(route[2]!)) return sendJson(res, 401, ERR.invalidToken);
      if (messageRoute) return message(req, res, hook, decodeURIComponent(route[3]!));
      if (req.method === 'GET') return sendJson(res, 200, webhookObject(hook));
      return execute(req, res, hook);
    },
  });
  const origin = host.origin;

  return {
    port: host.port,
    origin,
    baseUrl: `${origin}/api/v10`,
    get requests() { return host.requests; },
    createWebhook(input) {
      const id = fixtureSnowflake('webhook');
      const token = seeded('webhook-token').toString('base64url').slice(0, 68);
      const hook: DiscordWebhookFixture = {
        id,
        token,
        name: input.name,
        avatar: input.avatar ?? null,
        channelId: input.channelId ?? fixtureSnowflake('channel'),
        channelType: input.channelType ?? 'text',
        guildId: input.guildId ?? fixtureSnowflake('guild'),
      };
      hooks.set(id, hook);
      return { id, token, url: `${origin}/api/webhooks/${id}/${token}` };
    },
    deleteWebhook(id) { hooks.delete(id); },
    webhooks: () => [...hooks.values()].map((h) => ({ ...h })),
    messages: (webhookId) => stored.filter((m) => webhookId === undefined || m.webhook_id === webhookId).map((m) => structuredClone(m)),
    fail: (mode, times) => host.fail(mode, times),
    setLatency: (ms) => host.setLatency(ms),
    state: () => host.state(),
    reset: () => host.reset(),
    close: () => host.close(),
  };
}
