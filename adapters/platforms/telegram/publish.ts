/** Publishing text to a Telegram chat with sendMessage. */
import { PlatformError } from '../../../core/domain/errors';
import { textLengthOf, type PublishContext, type PublishOutcome, type Publisher } from '../../../core/ports/platform';
import { isObject } from '../kit/http';
import type { TelegramClient, TgChat, TgMessage } from './client';
import { telegramDescriptor } from './descriptor';

/** Public chats link by username; private supergroups and channels by `t.me/c/<id without -100>`. */
function messageUrl(chat: TgChat, messageId: number): string | undefined {
  if (chat.username) return `https://t.me/${chat.username}/${messageId}`;
  const id = String(chat.id);
  return id.startsWith('-100') ? `https://t.me/c/${id.slice(4)}/${messageId}` : undefined;
}

export function createTelegramPublisher(client: TelegramClient): Publisher {
  const textMaxChars = telegramDescriptor.limits.textMaxChars!;

  async function publishText(ctx: PublishContext, text: string): Promise<PublishOutcome> {
    const { bot_token: token, chat_id: chatId } = ctx.credentials;
    if (!token || !chatId) {
      throw new PlatformError('telegram', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Telegram bot is incomplete; reconnect the account.');
    }
    // Checked here with the descriptor's count, so nothing is sent that must fail.
    const length = textLengthOf(telegramDescriptor, text);
    if (text.trim() === '') {
      throw new PlatformError('telegram', { kind: 'invalid_content', code: 'text_empty' }, 'Telegram cannot send an empty message.');
    }
    if (length > textMaxChars) {
      throw new PlatformError('telegram', { kind: 'invalid_content', code: 'text_too_long' },
        `Telegram messages are limited to ${textMaxChars} characters; this text has ${length}.`);
    }
    // No parse_mode: the text is sent literally. The Bot API takes no idempotency key.
    const message = await client.call(token, 'sendMessage', { chat_id: chatId, text },
      (r) => isObject(r) && typeof r.message_id === 'number' && isObject(r.chat), ctx.signal) as TgMessage;
    return {
      postId: String(message.message_id),
      url: messageUrl(message.chat, message.message_id),
      warnings: [],
    };
  }

  return {
    async publish(ctx, post) {
      if (post.kind !== 'text' || post.media.length) {
        throw new PlatformError('telegram', { kind: 'unsupported' }, 'Telegram publishing of photos and videos is not available yet.');
      }
      return { kind: 'done', outcome: await publishText(ctx, post.title) };
    },
  };
}
