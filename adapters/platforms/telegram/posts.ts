/**
 * Changes to a published Telegram post: edit (editMessageText for a text message, or
 * editMessageCaption when Telegram says the message has no text: a photo, album or video) and
 * delete (deleteMessage for every message of the post: all the parts of a split text, every
 * item of an album).
 */
import { PlatformError } from '../../../core/domain/errors';
import { textLengthOf, type CallContext, type PostEditor } from '../../../core/ports/platform';
import { isObject } from '../kit/http';
import type { TelegramClient } from './client';
import { TELEGRAM_CAPTION_MAX, TELEGRAM_MESSAGE_MAX, telegramDescriptor } from './descriptor';

const isMessage = (r: unknown) => isObject(r) && typeof r.message_id === 'number';

export function createTelegramPostEditor(client: TelegramClient): PostEditor {
  const creds = (ctx: CallContext) => {
    const { bot_token: token, chat_id: chatId } = ctx.credentials;
    if (!token || !chatId) throw new PlatformError('telegram', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Telegram bot is incomplete; reconnect the account.');
    return { token, chatId };
  };
  const messageId = (id: string) => {
    if (!/^\d{1,12}$/.test(id)) throw new PlatformError('telegram', { kind: 'invalid_content', code: 'invalid_post_id' }, 'A Telegram post id is the message id (digits).');
    return Number(id);
  };
  return {
    async edit(ctx, post, changes) {
      const text = changes.text ?? changes.title;
      if (text === undefined || text.trim() === '') throw new PlatformError('telegram', { kind: 'invalid_content', code: 'nothing_to_update' }, 'Nothing to update: send the new text.');
      const { token, chatId } = creds(ctx);
      const id = messageId(post.id);
      const length = textLengthOf(telegramDescriptor, text);
      if (length > TELEGRAM_MESSAGE_MAX) throw new PlatformError('telegram', { kind: 'invalid_content', code: 'text_too_long' }, `An edited Telegram message is limited to ${TELEGRAM_MESSAGE_MAX} characters; this text has ${length}.`);
      try {
        await client.call(token, 'editMessageText', { chat_id: chatId, message_id: id, text }, isMessage, ctx.signal);
      } catch (err) {
        // A media message has a caption, not a text: Telegram says so, and the caption is edited instead.
        if (!(err instanceof PlatformError) || err.failure.kind !== 'invalid_content' || err.failure.code !== 'message_has_no_text') throw err;
        if (length > TELEGRAM_CAPTION_MAX) throw new PlatformError('telegram', { kind: 'invalid_content', code: 'text_too_long' }, `A Telegram caption is limited to ${TELEGRAM_CAPTION_MAX} characters; this text has ${length}.`);
        await client.call(token, 'editMessageCaption', { chat_id: chatId, message_id: id, caption: text }, isMessage, ctx.signal);
      }
      return { id: post.id, ...(post.url ? { url: post.url } : {}), ...(post.extra ? { extra: post.extra } : {}) };
    },
    async unpublish(ctx, post) {
      const { token, chatId } = creds(ctx);
      const ids = Array.isArray(post.extra?.message_ids) ? (post.extra.message_ids as unknown[]).map(String) : [post.id];
      for (const id of ids) await client.call(token, 'deleteMessage', { chat_id: chatId, message_id: messageId(id) }, (r) => r === true, ctx.signal);
    },
  };
}
