/**
 * Discord through a channel webhook (docs.discord.com/developers/resources/webhook): the account is
 * a webhook URL, verified with Get Webhook with Token and published to with Execute Webhook
 * (`?wait=true`, so Discord answers with the created message and its id).
 */
import { invalidInput, PlatformError } from '../../../core/domain/errors';
import { NO_SETTINGS } from '../../../core/domain/settings';
import type {
  PlatformAdapter, PlatformDescriptor, PublishContext, PublishOutcome, PublishPost, PublishStep, VerifiedConnection,
} from '../../../core/ports/platform';
import { exchangeJson, isObject, type HttpExchange, type Json } from '../kit/http';

export const DISCORD_API_BASE = 'https://discord.com/api/v10';
/** Hosts Discord hands out webhook URLs on (Copy Webhook URL in the stable, PTB and Canary clients). */
export const DISCORD_WEBHOOK_HOSTS: readonly string[] = [
  'discord.com', 'discordapp.com', 'ptb.discord.com', 'canary.discord.com', 'ptb.discordapp.com', 'canary.discordapp.com',
];
const DEFAULT_TIMEOUT_MS = 15_000;
const USER_AGENT = 'DiscordBot (https://github.com/herald, 0.1.0)';

export interface DiscordPlatformOptions {
  /** Default https://discord.com/api/v10; a simulator's base URL in tests and the sandbox. */
  apiBase?: string;
  /** Hosts accepted (over https) in submitted webhook URLs; the host of `apiBase` is always accepted. */
  allowedWebhookHosts?: readonly string[];
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export const discordDescriptor: PlatformDescriptor = {
  id: 'discord',
  displayName: 'Discord',
  connect: 'credentials',
  // Photos and video through attachments come with the publishing engine; text today.
  endpoints: ['text'],
  limits: { textMaxChars: 2000 },
  settings: NO_SETTINGS,
};

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

function retryAfterMs(body: Json, headers: Headers): number {
  if (typeof body.retry_after === 'number' && body.retry_after >= 0) return Math.ceil(body.retry_after * 1000);
  for (const name of ['retry-after', 'x-ratelimit-reset-after']) {
    const seconds = Number.parseFloat(headers.get(name) ?? '');
    if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
  }
  return 1000;
}

/**
 * The one place Discord's answers get a meaning in the core taxonomy. Classifies by HTTP status and
 * Discord's JSON error `code`, never by message text. Messages never contain the webhook token.
 */
export function mapDiscordFailure(outcome: DiscordOutcome, timeoutMs: number): PlatformError {
  const unknown = 'the outcome is unknown: the request may or may not have taken effect.';
  if (outcome.kind === 'no_response') {
    const what = outcome.reason === 'timeout' ? `Discord did not answer within ${timeoutMs} ms`
      : outcome.reason === 'aborted' ? 'The request to Discord was cancelled before it answered'
      : `The connection to Discord failed${outcome.detail ? ` (${outcome.detail})` : ''}`;
    return new PlatformError('discord', { kind: 'transient' }, `${what}; ${unknown}`);
  }

  if (outcome.kind === 'malformed') {
    // Discord may have acted on the request: retrying could post twice, so this is not transient.
    return new PlatformError('discord', { kind: 'rejected', code: 'unexpected_response' },
      `Discord answered HTTP ${outcome.status} without ${outcome.what}; check the channel before retrying.`, { status: outcome.status });
  }

  const { status, headers } = outcome;
  const body = isObject(outcome.body) ? outcome.body : {};
  const code = typeof body.code === 'number' ? body.code : undefined;
  const said = typeof body.message === 'string' && body.message ? body.message : `HTTP ${status}`;
  const upstream = { status, code };

  if (status === 429) {
    return new PlatformError('discord', { kind: 'rate_limited', retryAfterMs: retryAfterMs(body, headers) }, `Discord: ${said}`, upstream);
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
  if (status === 400 && code === 50006) {
    return new PlatformError('discord', { kind: 'invalid_content', code: 'text_empty' }, `Discord: ${said}`, upstream);
  }
  if (status === 413 || code === 40005) {
    return new PlatformError('discord', { kind: 'invalid_content', code: 'payload_too_large' }, `Discord: ${said}`, upstream);
  }
  if (status >= 500) {
    return new PlatformError('discord', { kind: 'transient' }, `Discord is failing (HTTP ${status}); try again later.`, upstream);
  }
  return new PlatformError('discord', { kind: 'rejected' }, `Discord: ${said}`, upstream);
}

const WEBHOOK_URL_HELP =
  'webhook_url must be a Discord webhook URL such as https://discord.com/api/webhooks/<id>/<token> '
  + '(Server Settings → Integrations → Webhooks → Copy Webhook URL).';

interface WebhookRef { id: string; token: string }

/** Accepts only Discord's own hosts (and the configured API host), so a URL cannot point us elsewhere. */
function parseWebhookUrl(raw: unknown, apiBase: URL, allowedHosts: readonly string[]): WebhookRef {
  if (typeof raw !== 'string' || raw.trim() === '') throw invalidInput(WEBHOOK_URL_HELP, { field: 'webhook_url' });
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw invalidInput(WEBHOOK_URL_HELP, { field: 'webhook_url' });
  }
  const onApiHost = url.protocol === apiBase.protocol && url.host === apiBase.host;
  const onDiscord = url.protocol === 'https:' && url.port === '' && allowedHosts.includes(url.hostname.toLowerCase());
  const route = /^\/api(?:\/v\d+)?\/webhooks\/(\d{1,20})\/([A-Za-z0-9_-]{1,100})\/?$/.exec(url.pathname);
  if ((!onApiHost && !onDiscord) || url.username || url.password || !route) throw invalidInput(WEBHOOK_URL_HELP, { field: 'webhook_url' });
  return { id: route[1]!, token: route[2]! };
}

export function createDiscordPlatform(opts: DiscordPlatformOptions = {}): PlatformAdapter {
  const apiBase = (opts.apiBase ?? DISCORD_API_BASE).replace(/\/+$/, '');
  const apiUrl = new URL(apiBase);
  const allowedHosts = (opts.allowedWebhookHosts ?? DISCORD_WEBHOOK_HOSTS).map((h) => h.toLowerCase());
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const doFetch = opts.fetch ?? fetch;
  const textMaxChars = discordDescriptor.limits.textMaxChars!;

  /** One HTTP exchange; every failure leaves as a PlatformError from mapDiscordFailure. */
  async function request(method: 'GET' | 'POST', path: string, payload: Json | undefined, signal?: AbortSignal): Promise<Json & { id: string }> {
    const outcome = await exchangeJson(`${apiBase}${path}`, {
      method,
      headers: { 'user-agent': USER_AGENT, accept: 'application/json', ...(payload ? { 'content-type': 'application/json' } : {}) },
      body: payload ? JSON.stringify(payload) : undefined,
    }, { fetch: doFetch, timeoutMs, signal });
    if (outcome.kind === 'no_response') throw mapDiscordFailure(outcome, timeoutMs);
    const { status, body } = outcome;
    if (status < 200 || status >= 300) throw mapDiscordFailure(outcome, timeoutMs);
    if (!isObject(body) || typeof body.id !== 'string') {
      throw mapDiscordFailure({ kind: 'malformed', status, what: method === 'GET' ? 'the webhook' : 'the created message' }, timeoutMs);
    }
    return body as Json & { id: string };
  }

  const webhookPath = (ref: WebhookRef) => `/webhooks/${encodeURIComponent(ref.id)}/${encodeURIComponent(ref.token)}`;

  async function verify(input: Record<string, unknown>): Promise<VerifiedConnection> {
    const ref = parseWebhookUrl(input.webhook_url, apiUrl, allowedHosts);
    if (input.name !== undefined && (typeof input.name !== 'string' || input.name.trim() === '')) {
      throw invalidInput('name must be a non-empty string when given.', { field: 'name' });
    }
    // Always asked through apiBase, whatever host the URL named: the URL only supplies id and token.
    const webhook = await request('GET', webhookPath(ref), undefined);
    const webhookName = typeof webhook.name === 'string' && webhook.name ? webhook.name : 'Discord webhook';
    const avatar = typeof webhook.avatar === 'string' && webhook.avatar ? webhook.avatar : '';
    return {
      identity: {
        platformUserId: webhook.id,
        handle: webhookName,
        displayName: typeof input.name === 'string' ? input.name.trim() : webhookName,
        avatarUrl: avatar ? `https://cdn.discordapp.com/avatars/${webhook.id}/${avatar}.png` : '',
      },
      credentials: {
        webhook_id: webhook.id,
        webhook_token: ref.token,
        guild_id: typeof webhook.guild_id === 'string' ? webhook.guild_id : '',
        channel_id: typeof webhook.channel_id === 'string' ? webhook.channel_id : '',
      },
    };
  }

  async function publishText(ctx: PublishContext, text: string): Promise<PublishOutcome> {
    const { webhook_id: id, webhook_token: token, guild_id: guildId, channel_id: channelId } = ctx.credentials;
    if (!id || !token) {
      throw new PlatformError('discord', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Discord webhook is incomplete; reconnect the account.');
    }
    // Discord counts characters (code points), checked here so nothing is sent that must fail.
    const length = [...text].length;
    if (text.trim() === '') {
      throw new PlatformError('discord', { kind: 'invalid_content', code: 'text_empty' }, 'Discord cannot post an empty message.');
    }
    if (length > textMaxChars) {
      throw new PlatformError('discord', { kind: 'invalid_content', code: 'text_too_long' },
        `Discord messages are limited to ${textMaxChars} characters; this text has ${length}.`);
    }
    // Discord webhooks take no idempotency key, so ctx.idempotencyKey cannot be forwarded.
    // allowed_mentions {parse: []}: a published post never pings @everyone, @here, roles or users,
    // whatever its text contains.
    const message = await request('POST', `${webhookPath({ id, token })}?wait=true`,
      { content: text, allowed_mentions: { parse: [] } }, ctx.signal);
    const channel = typeof message.channel_id === 'string' ? message.channel_id : channelId ?? '';
    return {
      postId: message.id,
      url: `https://discord.com/channels/${guildId || '@me'}/${channel}/${message.id}`,
      warnings: [],
    };
  }

  return {
    descriptor: discordDescriptor,
    credentials: { verify },
    publisher: {
      async publish(ctx: PublishContext, post: PublishPost): Promise<PublishStep> {
        if (post.kind !== 'text' || post.media.length) {
          throw new PlatformError('discord', { kind: 'unsupported' }, 'Discord publishing of photos and videos is not available yet.');
        }
        return { kind: 'done', outcome: await publishText(ctx, post.title) };
      },
    },
  };
}
