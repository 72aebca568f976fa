/**
 * Telegram through a bot (core.telegram.org/bots/api): the account is a bot token plus a chat the
 * bot administers. Verified with getMe → getChat → getChatMember; text published with sendMessage.
 */
import { invalidInput, PlatformError } from '../../../core/domain/errors';
import { NO_SETTINGS } from '../../../core/domain/settings';
import type {
  PlatformAdapter, PlatformDescriptor, PublishContext, PublishOutcome, PublishPost, PublishStep, VerifiedConnection,
} from '../../../core/ports/platform';
import { exchangeJson, isObject, type HttpExchange, type Json } from '../kit/http';

export const TELEGRAM_API_BASE = 'https://api.telegram.org';
const DEFAULT_TIMEOUT_MS = 15_000;

export interface TelegramPlatformOptions {
  /** Default https://api.telegram.org; a simulator's base URL in tests and the sandbox. */
  apiBase?: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export const telegramDescriptor: PlatformDescriptor = {
  id: 'telegram',
  displayName: 'Telegram',
  connect: 'credentials',
  // Photos and video through attachments come with the publishing engine; text today.
  endpoints: ['text'],
  limits: { textMaxChars: 4096 },
  settings: NO_SETTINGS,
};

/** What came back from the Bot API, before it is given a meaning. */
export type TelegramOutcome =
  | HttpExchange
  /** `ok:true` whose `result` is not what the method returns. */
  | { kind: 'malformed'; method: string };


interface TgUser { id: number; is_bot?: boolean; first_name?: string; username?: string }
interface TgChat { id: number; type: string; title?: string; username?: string; first_name?: string }
interface TgChatMember { status: string; can_post_messages?: boolean }
interface TgMessage { message_id: number; chat: TgChat }

/**
 * The one place the Bot API's answers get a meaning in the core taxonomy. Status first; Telegram
 * gives no machine-readable code beyond the HTTP status (`error_code` equals it), so only within a
 * status is the `description` read to tell its cases apart. Messages never contain the bot token.
 */
export function mapTelegramFailure(outcome: TelegramOutcome, timeoutMs: number): PlatformError {
  if (outcome.kind === 'no_response') {
    const what = outcome.reason === 'timeout' ? `Telegram did not answer within ${timeoutMs} ms`
      : outcome.reason === 'aborted' ? 'The request to Telegram was cancelled before it answered'
      : `The connection to Telegram failed${outcome.detail ? ` (${outcome.detail})` : ''}`;
    return new PlatformError('telegram', { kind: 'transient' }, `${what}; the outcome is unknown: the request may or may not have taken effect.`);
  }
  if (outcome.kind === 'malformed') {
    // Telegram said ok: the message may exist, so retrying is not safe; this is not transient.
    return new PlatformError('telegram', { kind: 'rejected', code: 'unexpected_response' },
      `Telegram answered ${outcome.method} with an unexpected result; check the chat before retrying.`);
  }

  const { status, headers } = outcome;
  const body = isObject(outcome.body) ? outcome.body : {};
  const parameters = isObject(body.parameters) ? body.parameters : {};
  const description = typeof body.description === 'string' && body.description ? body.description : `HTTP ${status}`;
  const upstream = { status, code: typeof body.error_code === 'number' ? body.error_code : undefined };
  const said = `Telegram: ${description}`;
  const fail = (failure: ConstructorParameters<typeof PlatformError>[1], message = said) =>
    new PlatformError('telegram', failure, message, upstream);

  if (status === 429) {
    const header = Number.parseFloat(headers.get('retry-after') ?? '');
    const seconds = typeof parameters.retry_after === 'number' ? parameters.retry_after : Number.isFinite(header) ? header : 1;
    return fail({ kind: 'rate_limited', retryAfterMs: Math.ceil(seconds * 1000) });
  }
  if (status === 401) {
    return fail({ kind: 'auth_expired', reason: 'token_revoked' },
      `${said}. The bot token was revoked or is wrong; reconnect with the bot's current token from @BotFather.`);
  }
  if (typeof parameters.migrate_to_chat_id === 'number') {
    return fail({ kind: 'rejected', code: 'chat_migrated' },
      `${said}. The group became a supergroup with chat id ${parameters.migrate_to_chat_id}; reconnect the account with that chat id.`);
  }
  if (status === 403) {
    if (/bot was kicked|bot is not a member|chat was deleted|group chat was deactivated/i.test(description)) {
      return fail({ kind: 'auth_expired', reason: 'bot_removed' },
        `${said}. Add the bot back as an administrator of the chat, then reconnect the account.`);
    }
    return fail({ kind: 'rejected' });
  }
  if (status === 400) {
    if (/message is too long/i.test(description)) return fail({ kind: 'invalid_content', code: 'text_too_long' });
    if (/message text is empty/i.test(description)) return fail({ kind: 'invalid_content', code: 'text_empty' });
    if (/chat not found/i.test(description)) {
      return fail({ kind: 'rejected', code: 'chat_not_found' },
        `${said}. Check chat_id, and that the bot was added to the chat (private chats are only visible to their members).`);
    }
    if (/need administrator rights|not enough rights/i.test(description)) {
      return fail({ kind: 'auth_expired', reason: 'bot_not_admin' },
        `${said}. Make the bot an administrator of the chat with permission to post messages.`);
    }
    return fail({ kind: 'rejected' });
  }
  if (status >= 500) return fail({ kind: 'transient' }, `Telegram is failing (HTTP ${status}); try again later.`);
  return fail({ kind: 'rejected' });
}

const BOT_TOKEN_HELP = 'bot_token must be the token @BotFather gave the bot, such as 123456789:AAH…';
const CHAT_ID_HELP = 'chat_id must be a numeric chat id such as -1001234567890 or a public @channelname.';

function parseBotToken(raw: unknown): string {
  if (typeof raw !== 'string' || !/^\d{1,20}:[A-Za-z0-9_-]{30,64}$/.test(raw.trim())) throw invalidInput(BOT_TOKEN_HELP, { field: 'bot_token' });
  return raw.trim();
}

function parseChatId(raw: unknown): string {
  if (typeof raw === 'number' && Number.isSafeInteger(raw)) return String(raw);
  if (typeof raw !== 'string') throw invalidInput(CHAT_ID_HELP, { field: 'chat_id' });
  const value = raw.trim();
  if (/^-?\d{1,20}$/.test(value)) return value;
  if (/^@[A-Za-z][A-Za-z0-9_]{3,31}$/.test(value)) return value;
  if (/^[A-Za-z][A-Za-z0-9_]{3,31}$/.test(value)) return `@${value}`;
  throw invalidInput(CHAT_ID_HELP, { field: 'chat_id' });
}

/** Public chats link by username; private supergroups and channels by `t.me/c/<id without -100>`. */
function messageUrl(chat: TgChat, messageId: number): string | undefined {
  if (chat.username) return `https://t.me/${chat.username}/${messageId}`;
  const id = String(chat.id);
  return id.startsWith('-100') ? `https://t.me/c/${id.slice(4)}/${messageId}` : undefined;
}

export function createTelegramPlatform(opts: TelegramPlatformOptions = {}): PlatformAdapter {
  const apiBase = (opts.apiBase ?? TELEGRAM_API_BASE).replace(/\/+$/, '');
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const doFetch = opts.fetch ?? fetch;
  const textMaxChars = telegramDescriptor.limits.textMaxChars!;

  /** One Bot API call; every failure leaves as a PlatformError from mapTelegramFailure. */
  async function call(token: string, method: string, params: Json, valid: (r: unknown) => boolean, signal?: AbortSignal): Promise<unknown> {
    const outcome = await exchangeJson(`${apiBase}/bot${token}/${method}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify(params),
    }, { fetch: doFetch, timeoutMs, signal });
    if (outcome.kind === 'no_response') throw mapTelegramFailure(outcome, timeoutMs);
    const { status, headers, body } = outcome;
    if (status < 200 || status >= 300 || !isObject(body) || body.ok !== true) {
      // A 2xx with ok:false is still a refusal; its error_code then stands in for the status.
      const effective = status >= 200 && status < 300 && isObject(body) && typeof body.error_code === 'number' ? body.error_code : status;
      if (effective >= 200 && effective < 300) throw mapTelegramFailure({ kind: 'malformed', method }, timeoutMs);
      throw mapTelegramFailure({ kind: 'response', status: effective, headers, body }, timeoutMs);
    }
    if (!valid(body.result)) throw mapTelegramFailure({ kind: 'malformed', method }, timeoutMs);
    return body.result;
  }

  async function verify(input: Record<string, unknown>): Promise<VerifiedConnection> {
    const token = parseBotToken(input.bot_token);
    const chatRef = parseChatId(input.chat_id);
    const me = await call(token, 'getMe', {}, (r) => isObject(r) && typeof r.id === 'number') as TgUser;
    const chat = await call(token, 'getChat', { chat_id: chatRef }, (r) => isObject(r) && typeof r.id === 'number' && typeof r.type === 'string') as TgChat;
    if (chat.type === 'private') {
      throw invalidInput('chat_id names a private chat with a user; give a channel, supergroup or group the bot administers.', { field: 'chat_id' });
    }
    const member = await call(token, 'getChatMember', { chat_id: chat.id, user_id: me.id },
      (r) => isObject(r) && typeof r.status === 'string') as TgChatMember;
    const isAdmin = member.status === 'creator' || member.status === 'administrator';
    // In channels only administrators with "Post messages" may post; the creator always can.
    const canPost = chat.type !== 'channel' || member.status === 'creator' || member.can_post_messages !== false;
    const chatName = chat.title ?? (chat.username ? `@${chat.username}` : String(chat.id));
    if (!isAdmin || !canPost) {
      const botName = me.username ? `@${me.username}` : 'The bot';
      const state = isAdmin ? 'an administrator without the right to post messages' : `not an administrator (status: ${member.status})`;
      throw invalidInput(
        `${botName} is ${state} in "${chatName}": add the bot as an administrator of the chat with permission to post messages, then try again.`,
        { field: 'chat_id', bot_status: member.status },
      );
    }
    const handle = chat.username ? `@${chat.username}` : chatName;
    return {
      identity: {
        platformUserId: String(chat.id),
        handle,
        displayName: chat.title ?? chat.first_name ?? handle,
        avatarUrl: '',
      },
      credentials: {
        bot_token: token,
        chat_id: String(chat.id),
        ...(chat.username ? { chat_username: chat.username } : {}),
      },
    };
  }

  async function publishText(ctx: PublishContext, text: string): Promise<PublishOutcome> {
    const { bot_token: token, chat_id: chatId } = ctx.credentials;
    if (!token || !chatId) {
      throw new PlatformError('telegram', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Telegram bot is incomplete; reconnect the account.');
    }
    // Counted in characters (code points), checked here so nothing is sent that must fail.
    const length = [...text].length;
    if (text.trim() === '') {
      throw new PlatformError('telegram', { kind: 'invalid_content', code: 'text_empty' }, 'Telegram cannot send an empty message.');
    }
    if (length > textMaxChars) {
      throw new PlatformError('telegram', { kind: 'invalid_content', code: 'text_too_long' },
        `Telegram messages are limited to ${textMaxChars} characters; this text has ${length}.`);
    }
    // No parse_mode: the text is sent literally. The Bot API takes no idempotency key.
    const message = await call(token, 'sendMessage', { chat_id: chatId, text: text },
      (r) => isObject(r) && typeof r.message_id === 'number' && isObject(r.chat), ctx.signal) as TgMessage;
    return {
      postId: String(message.message_id),
      url: messageUrl(message.chat, message.message_id),
      warnings: [],
    };
  }

  return {
    descriptor: telegramDescriptor,
    credentials: { verify },
    publisher: {
      async publish(ctx: PublishContext, post: PublishPost): Promise<PublishStep> {
        if (post.kind !== 'text' || post.media.length) {
          throw new PlatformError('telegram', { kind: 'unsupported' }, 'Telegram publishing of photos and videos is not available yet.');
        }
        return { kind: 'done', outcome: await publishText(ctx, post.title) };
      },
    },
  };
}
