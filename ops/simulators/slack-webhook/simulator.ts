/**
 * Loopback simulator of Slack incoming webhooks (api.slack.com/messaging/webhooks): each webhook
 * is `POST /services/<T team>/<B id>/<secret>` taking a JSON body (`{text, blocks?, ...}`) or a
 * urlencoded `payload=<json>`, answering as Slack does: `200 ok` (text/html), `400 invalid_payload`
 * (unreadable JSON), `400 no_text` (neither text nor blocks), `403 invalid_token` (right webhook,
 * wrong secret), `404 no_service` (unknown or revoked webhook), `410 channel_is_archived`,
 * `429` with `Retry-After` (rate limited: about one message per second per webhook), `500 rollup_error`.
 */
import type { ServerResponse } from 'node:http';
import { createSeededSource, startSimulatorHost, type RecordedRequest, type SimRequest } from '../kit/http';

export const SLACK_WEBHOOK_FAILURE_MODES = ['rate_limited', 'server_error', 'invalid_token'] as const;
export type SlackWebhookFailureMode = (typeof SLACK_WEBHOOK_FAILURE_MODES)[number];
/** Slack truncates past 40,000 characters; a longer text is refused here so a client that sends one is noticed. */
const MAX_TEXT = 40_000;

export interface SlackWebhookMessage {
  webhookId: string;
  channel: string;
  text: string;
  blocks?: unknown[];
  at: Date;
}

export interface SlackWebhookSimulator {
  port: number;
  origin: string;
  /** Creates an incoming webhook posting into `channel`; its URL is the credential. */
  createWebhook(input?: { channel?: string }): { id: string; url: string };
  revoke(url: string): void;
  archiveChannel(channel: string): void;
  messages(channel?: string): SlackWebhookMessage[];
  fail(mode: SlackWebhookFailureMode, times?: number): void;
  setLatency(ms: number): void;
  readonly requests: RecordedRequest[];
  state(): Record<string, unknown>;
  reset(): void;
  close(): Promise<void>;
}

interface Hook { team: string; id: string; secret: string; channel: string; revoked: boolean }

export async function startSlackWebhookSimulator(opts: { port?: number; seed?: string } = {}): Promise<SlackWebhookSimulator> {
  const seeded = createSeededSource(opts.seed);
  const hooks = new Map<string, Hook>();
  const archived = new Set<string>();
  const stored: SlackWebhookMessage[] = [];

  const answer = (res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'text/html', 'content-length': Buffer.byteLength(text), ...headers });
    res.end(text);
  };

  function payloadOf(req: SimRequest): Record<string, unknown> | null {
    const body = req.body;
    if (body.kind === 'json') return body.value && typeof body.value === 'object' && !Array.isArray(body.value) ? body.value as Record<string, unknown> : null;
    if (body.kind === 'form' && typeof body.fields.payload === 'string') {
      try {
        const value = JSON.parse(body.fields.payload) as unknown;
        return value && typeof value === 'object' && !Array.isArray(value) ? value as Record<string, unknown> : null;
      } catch {
        return null;
      }
    }
    return null;
  }

  const host = await startSimulatorHost<SlackWebhookFailureMode>({
    port: opts.port,
    maxBodyBytes: 1024 * 1024,
    failureModes: SLACK_WEBHOOK_FAILURE_MODES,
    state: () => ({ webhooks: [...hooks.values()].map((h) => ({ id: h.id, channel: h.channel, revoked: h.revoked })), archived: [...archived], messageCount: stored.length }),
    reset: () => { stored.length = 0; },
    handle(req, res, failure) {
      const route = /^\/services\/(T[A-Z0-9]+)\/(B[A-Z0-9]+)\/([A-Za-z0-9]+)$/.exec(req.path);
      if (req.method !== 'POST' || !route) return answer(res, 404, 'no_service');
      const hook = hooks.get(route[2]!);
      if (!hook || hook.team !== route[1] || hook.revoked) return answer(res, 404, 'no_service');
      if (hook.secret !== route[3]) return answer(res, 403, 'invalid_token');
      switch (failure) {
        case 'rate_limited': return answer(res, 429, 'rate_limited', { 'retry-after': '1' });
        case 'server_error': return answer(res, 500, 'rollup_error');
        case 'invalid_token': return answer(res, 403, 'invalid_token');
        case undefined: break;
      }
      if (archived.has(hook.channel)) return answer(res, 410, 'channel_is_archived');
      const payload = payloadOf(req);
      if (!payload) return answer(res, 400, 'invalid_payload');
      const text = typeof payload.text === 'string' ? payload.text : '';
      const blocks = Array.isArray(payload.blocks) ? payload.blocks : undefined;
      if (!text.trim() && !blocks?.length) return answer(res, 400, 'no_text');
      if (text.length > MAX_TEXT) return answer(res, 400, 'msg_too_long');
      stored.push({ webhookId: hook.id, channel: hook.channel, text, ...(blocks ? { blocks } : {}), at: new Date() });
      return answer(res, 200, 'ok');
    },
  });

  const token = (kind: string, length: number, alphabet: string) => [...seeded(kind).subarray(0, length)].map((b) => alphabet[b % alphabet.length]).join('');
  const team = `T${token('team', 10, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`;

  return Object.assign(host, {
    createWebhook(input: { channel?: string } = {}) {
      const id = `B${token('webhook', 10, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789')}`;
      const secret = token('secret', 24, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789');
      hooks.set(id, { team, id, secret, channel: input.channel ?? '#general', revoked: false });
      return { id, url: `${host.origin}/services/${team}/${id}/${secret}` };
    },
    revoke(url: string) {
      const id = /\/services\/T[A-Z0-9]+\/(B[A-Z0-9]+)\//.exec(url)?.[1];
      const hook = id ? hooks.get(id) : undefined;
      if (!hook) throw new Error(`no such webhook: ${url}`);
      hook.revoked = true;
    },
    archiveChannel(channel: string) {
      archived.add(channel);
    },
    messages(channel?: string) {
      return stored.filter((m) => channel === undefined || m.channel === channel).map((m) => structuredClone(m));
    },
  });
}
