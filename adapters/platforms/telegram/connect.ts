/**
 * Connecting a Telegram chat: a bot token plus a chat the bot administers, checked with getMe →
 * getChat → getChatMember (core.telegram.org/bots/api).
 */
import { invalidInput } from '../../../core/domain/errors';
import type { CredentialConnector, VerifiedConnection } from '../../../core/ports/platform';
import { isObject } from '../kit/http';
import { readCredentials } from '../kit/credentials';
import type { TelegramClient, TgChat, TgChatMember, TgUser } from './client';
import { chatRef, telegramCredentialFields } from './settings';

export function createTelegramConnector(client: TelegramClient): CredentialConnector {
  return {
    async verify(input): Promise<VerifiedConnection> {
      const values = readCredentials(telegramCredentialFields, input);
      const token = (values.bot_token as string).trim();
      const chatId = chatRef(values.chat_id as string)!;
      const me = await client.call(token, 'getMe', {}, (r) => isObject(r) && typeof r.id === 'number') as TgUser;
      const chat = await client.call(token, 'getChat', { chat_id: chatId },
        (r) => isObject(r) && typeof r.id === 'number' && typeof r.type === 'string') as TgChat;
      if (chat.type === 'private') {
        throw invalidInput('chat_id names a private chat with a user; give a channel, supergroup or group the bot administers.', { field: 'chat_id' });
      }
      const member = await client.call(token, 'getChatMember', { chat_id: chat.id, user_id: me.id },
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
    },
  };
}
