/**
 * The Telegram Bot API as the adapter uses it: one method call function, and THE one place the
 * Bot API's answers get a meaning (mapTelegramFailure).
 */
import { PlatformError } from '../../../core/domain/errors';
import {
  exchangeJson, isObject, noResponseMessage, retryAfterMs, trimBase, type HttpExchange, type Json, type FailureContext, type Now,
} from '../kit/http';

export const TELEGRAM_API_BASE = 'https://api.telegram.org';
export const DEFAULT_TIMEOUT_MS = 15_000;

/** What came back from the Bot API, before it is given a meaning. */
export type TelegramOutcome =
  | HttpExchange
  /** `ok:true` whose `result` is not what the method returns. */
  | { kind: 'malformed'; method: string };

export interface TgUser { id: number; is_bot?: boolean; first_name?: string; username?: string }
export interface TgChat { id: number; type: string; title?: string; username?: string; first_name?: string }
export interface TgChatMember { status: string; can_post_messages?: boolean }
export interface TgMessage { message_id: number; chat: TgChat; media_group_id?: string }

/**
 * The one place the Bot API's answers get a meaning in the core taxonomy. Status first; Telegram
 * gives no machine-readable code beyond the HTTP status (`error_code` equals it), so only within a
 * status is the `description` read to tell its cases apart. Messages never contain the bot token.
 */
export function mapTelegramFailure(outcome: TelegramOutcome, context: FailureContext): PlatformError {
  const { timeoutMs, now } = context;
  if (outcome.kind === 'no_response') {
    return new PlatformError('telegram', { kind: 'transient' }, noResponseMessage('Telegram', outcome, timeoutMs));
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
    // parameters.retry_after is the Bot API's own answer; the header is the HTTP fallback.
    const retryMs = typeof parameters.retry_after === 'number' ? Math.ceil(parameters.retry_after * 1000) : retryAfterMs(headers, now, 1000);
    return fail({ kind: 'rate_limited', retryAfterMs: retryMs });
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
  if (status === 413) {
    return fail({ kind: 'invalid_content', code: 'payload_too_large' }, `${said}. Bots upload photos up to 10 MB and other files up to 50 MB.`);
  }
  if (status === 400) {
    if (/message is too long|caption is too long|MESSAGE_TOO_LONG/i.test(description)) return fail({ kind: 'invalid_content', code: 'text_too_long' });
    // Editing: a media message has a caption, not a text (the editor then edits the caption).
    if (/no text in the message to edit/i.test(description)) return fail({ kind: 'invalid_content', code: 'message_has_no_text' });
    if (/message is not modified/i.test(description)) return fail({ kind: 'invalid_content', code: 'nothing_to_update' });
    if (/message to (edit|delete) not found|message can't be (edited|deleted)/i.test(description)) return fail({ kind: 'rejected', code: 'post_not_found' });
    if (/IMAGE_PROCESS_FAILED|PHOTO_INVALID|PHOTO_EXT_INVALID|file is too big|wrong file identifier|VIDEO_|wrong number of media|media group|can't parse InputMedia/i.test(description)) {
      return fail({ kind: 'invalid_content', code: 'media_invalid' });
    }
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

export interface TelegramClientOptions {
  apiBase: string;
  timeoutMs: number;
  /** Calls that upload files (up to 50 MB). Default: timeoutMs. */
  uploadTimeoutMs?: number;
  fetch: typeof fetch;
  now: Now;
}

export interface TelegramClient {
  /** One Bot API call answering `result` when `valid` accepts it; every failure leaves as a PlatformError from mapTelegramFailure. */
  /** `params` as JSON, or multipart (FormData) when files are uploaded. */
  call(token: string, method: string, params: Json | FormData, valid: (result: unknown) => boolean, signal?: AbortSignal): Promise<unknown>;
}

export function createTelegramClient(opts: TelegramClientOptions): TelegramClient {
  const apiBase = trimBase(opts.apiBase);
  const { timeoutMs, now } = opts;
  return {
    async call(token, method, params, valid, signal) {
      const multipart = params instanceof FormData;
      const outcome = await exchangeJson(`${apiBase}/bot${token}/${method}`, {
        method: 'POST',
        headers: { ...(multipart ? {} : { 'content-type': 'application/json' }), accept: 'application/json' },
        body: multipart ? params : JSON.stringify(params),
      }, { fetch: opts.fetch, timeoutMs: multipart ? opts.uploadTimeoutMs ?? timeoutMs : timeoutMs, signal });
      if (outcome.kind === 'no_response') throw mapTelegramFailure(outcome, { timeoutMs, now: now() });
      const { status, headers, body } = outcome;
      if (status < 200 || status >= 300 || !isObject(body) || body.ok !== true) {
        // A 2xx with ok:false is still a refusal; its error_code then stands in for the status.
        const effective = status >= 200 && status < 300 && isObject(body) && typeof body.error_code === 'number' ? body.error_code : status;
        if (effective >= 200 && effective < 300) throw mapTelegramFailure({ kind: 'malformed', method }, { timeoutMs, now: now() });
        throw mapTelegramFailure({ kind: 'response', status: effective, headers, body }, { timeoutMs, now: now() });
      }
      if (!valid(body.result)) throw mapTelegramFailure({ kind: 'malformed', method }, { timeoutMs, now: now() });
      return body.result;
    },
  };
}
