/**
 * Discord's HTTP API as the adapter uses it: one JSON request function, and THE one place
 * Discord's answers get a meaning (mapDiscordFailure).
 */
import { PlatformError } from '../../../core/domain/errors';
import {
  exchangeJson, isObject, noResponseMessage, retryAfterMs, trimBase, type HttpExchange, type Json, type FailureContext, type Now, malformedAnswer} from '../kit/http';

export const DISCORD_API_BASE = 'https://discord.com/api/v10';
export const DEFAULT_TIMEOUT_MS = 15_000;
const USER_AGENT = 'DiscordBot (https://github.com/herald, 0.1.0)';

/** What came back from Discord, before it is given a meaning. */
export type DiscordOutcome =
  | HttpExchange
  /** A 2xx whose body is not what the call returns. */
  | { kind: 'malformed'; status: number; what: string };

/** The first leaf of Discord's nested `errors` object of a 50035 Invalid Form Body. */
function firstFormError(errors: unknown, path: string[] = []): { path: string; code?: string; message?: string } | undefined {
  if (!isObject(errors)) return undefined;
  if (Array.isArray(errors._errors) && isObject(errors._errors[0])) {
    const leaf = errors._errors[0];
    return {
      path: path.join('.'),
      code: typeof leaf.code === 'string' ? leaf.code : undefined,
      message: typeof leaf.message === 'string' ? leaf.message : undefined,
    };
  }
  for (const [key, value] of Object.entries(errors)) {
    const found = firstFormError(value, [...path, key]);
    if (found) return found;
  }
  return undefined;
}

/** The body's `retry_after` is the precise one (fractional seconds); the headers round it. */
function discordRetryAfterMs(body: Json, headers: Headers, now: Date): number {
  if (typeof body.retry_after === 'number' && body.retry_after >= 0) return Math.ceil(body.retry_after * 1000);
  const resetAfter = Number.parseFloat(headers.get('x-ratelimit-reset-after') ?? '');
  return retryAfterMs(headers, now, Number.isFinite(resetAfter) && resetAfter >= 0 ? Math.ceil(resetAfter * 1000) : 1000);
}

/**
 * The one place Discord's answers get a meaning in the core taxonomy. Classifies by HTTP status and
 * Discord's JSON error `code`, never by message text. Messages never contain the webhook token.
 */
export function mapDiscordFailure(outcome: DiscordOutcome, context: FailureContext): PlatformError {
  const { timeoutMs, now } = context;
  if (outcome.kind === 'no_response') {
    return new PlatformError('discord', { kind: 'transient' }, noResponseMessage('Discord', outcome, timeoutMs));
  }

  if (outcome.kind === 'malformed') {
    // Discord may have acted on the request: retrying could post twice, so this is not transient.
    return malformedAnswer('discord', 'Discord', outcome, 'the channel');
  }

  const { status, headers } = outcome;
  const body = isObject(outcome.body) ? outcome.body : {};
  const code = typeof body.code === 'number' ? body.code : undefined;
  const said = typeof body.message === 'string' && body.message ? body.message : `HTTP ${status}`;
  const upstream = { status, code };

  if (status === 429) {
    return new PlatformError('discord', { kind: 'rate_limited', retryAfterMs: discordRetryAfterMs(body, headers, now) }, `Discord: ${said}`, upstream);
  }
  if (status === 401) {
    return new PlatformError('discord', { kind: 'auth_expired', reason: 'token_revoked' },
      `Discord: ${said}. The webhook's token was reset; reconnect the account with the new webhook URL.`, upstream);
  }
  if (status === 404 && code === 10015) {
    return new PlatformError('discord', { kind: 'auth_expired', reason: 'webhook_deleted' },
      `Discord: ${said}. The webhook was deleted; reconnect the account with a new webhook URL.`, upstream);
  }
  if (status === 400 && code === 50035) {
    const leaf = firstFormError(body.errors);
    const tooLong = leaf?.code === 'BASE_TYPE_MAX_LENGTH' && leaf.path === 'content';
    const detail = leaf ? `: ${leaf.path}: ${leaf.message ?? leaf.code ?? 'invalid'}` : '';
    return new PlatformError('discord', { kind: 'invalid_content', code: tooLong ? 'text_too_long' : undefined }, `Discord: ${said}${detail}`, upstream);
  }
  if (status === 400 && (code === 220001 || code === 220003)) {
    // Forum channels need a thread (discord_thread_name); other channels take none.
    return new PlatformError('discord', { kind: 'invalid_content', code: 'discord_forum_thread' },
      `Discord: ${said}. ${code === 220001 ? 'Send discord_thread_name: the webhook posts to a forum channel.' : 'Leave discord_thread_name out: the webhook does not post to a forum channel.'}`, upstream);
  }
  if (status === 400 && code === 50006) {
    return new PlatformError('discord', { kind: 'invalid_content', code: 'text_empty' }, `Discord: ${said}`, upstream);
  }
  if (status === 413 || code === 40005) {
    return new PlatformError('discord', { kind: 'invalid_content', code: 'payload_too_large' },
      `Discord: ${said}. The attachments exceed the server's upload limit.`, upstream);
  }
  if (code === 30015) {
    return new PlatformError('discord', { kind: 'invalid_content', code: 'too_many_photos' }, `Discord: ${said}`, upstream);
  }
  if (status >= 500) {
    return new PlatformError('discord', { kind: 'transient' }, `Discord is failing (HTTP ${status}); try again later.`, upstream);
  }
  return new PlatformError('discord', { kind: 'rejected' }, `Discord: ${said}`, upstream);
}

export interface WebhookRef { id: string; token: string }

export interface DiscordClientOptions {
  apiBase: string;
  timeoutMs: number;
  fetch: typeof fetch;
  now: Now;
}

export interface DiscordClient {
  /** One HTTP exchange answering an object with an `id`; every failure leaves as a PlatformError from mapDiscordFailure. */
  /** DELETE answers 204 without a body: it resolves to `{id: ''}`. */
  request(method: 'GET' | 'POST' | 'PATCH' | 'DELETE', path: string, payload: Json | FormData | undefined, signal?: AbortSignal): Promise<Json & { id: string }>;
  webhookPath(ref: WebhookRef): string;
}

export function createDiscordClient(opts: DiscordClientOptions): DiscordClient {
  const apiBase = trimBase(opts.apiBase);
  const { timeoutMs, now } = opts;
  return {
    async request(method, path, payload, signal) {
      // A FormData body (payload_json + files[n]) sets its own multipart content type and boundary.
      const multipart = payload instanceof FormData;
      const outcome = await exchangeJson(`${apiBase}${path}`, {
        method,
        headers: { 'user-agent': USER_AGENT, accept: 'application/json', ...(payload && !multipart ? { 'content-type': 'application/json' } : {}) },
        body: multipart ? payload : payload ? JSON.stringify(payload) : undefined,
      }, { fetch: opts.fetch, timeoutMs, signal });
      if (outcome.kind === 'no_response') throw mapDiscordFailure(outcome, { timeoutMs, now: now() });
      const { status, body } = outcome;
      if (status < 200 || status >= 300) throw mapDiscordFailure(outcome, { timeoutMs, now: now() });
      if (method === 'DELETE') return { id: '' };
      if (!isObject(body) || typeof body.id !== 'string') {
        throw mapDiscordFailure({ kind: 'malformed', status, what: method === 'GET' ? 'the webhook' : 'the created message' }, { timeoutMs, now: now() });
      }
      return body as Json & { id: string };
    },
    webhookPath: (ref) => `/webhooks/${encodeURIComponent(ref.id)}/${encodeURIComponent(ref.token)}`,
  };
}
