/**
 * What Telegram accepts from Herald's clients: the per-post options of sendMessage, sendPhoto,
 * sendVideo and sendMediaGroup (core.telegram.org/bots/api), and the fields of
 * `POST /users/telegram/credentials` (a bot token and the chat the bot posts to).
 * `telegram_title` is not here: the engine folds `<platform>_title` into the post text.
 */
import type { SettingsSchema, SettingViolation } from '../../../core/domain/settings';
import { credentialField } from '../kit/credentials';

const BOT_TOKEN = /^\d{1,20}:[A-Za-z0-9_-]{30,64}$/;

/** A chat as the Bot API names it: a numeric id, or a public chat's @username (the @ may be left out). */
export function chatRef(raw: string): string | undefined {
  const value = raw.trim();
  if (/^-?\d{1,20}$/.test(value)) return value;
  if (/^@[A-Za-z][A-Za-z0-9_]{3,31}$/.test(value)) return value;
  if (/^[A-Za-z][A-Za-z0-9_]{3,31}$/.test(value)) return `@${value}`;
  return undefined;
}

const ALL = ['text', 'photo', 'video'] as const;
const MEDIA = ['photo', 'video'] as const;

export const telegramSettings: SettingsSchema = {
  fields: [
    { name: 'telegram_disable_notification', type: 'boolean', endpoints: ALL, default: false, description: 'Send silently: members get a notification without sound.' },
    { name: 'telegram_protect_content', type: 'boolean', endpoints: ALL, default: false, description: 'The messages cannot be forwarded or saved.' },
    { name: 'telegram_message_thread_id', type: 'integer', endpoints: ALL, min: 1, description: 'Forum supergroups: the topic to post in.' },
    { name: 'telegram_disable_link_preview', type: 'boolean', endpoints: ['text'], default: false, description: 'No link preview under a text message.' },
    { name: 'telegram_has_spoiler', type: 'boolean', endpoints: MEDIA, default: false, description: 'Cover the photos or video with a spoiler animation.' },
    { name: 'telegram_show_caption_above_media', type: 'boolean', endpoints: MEDIA, default: false, description: 'Show the caption above the media instead of below.' },
  ],
};

export const telegramCredentialFields: SettingsSchema = {
  fields: [
    credentialField({
      name: 'bot_token', type: 'string', required: true,
      description: 'The token @BotFather gave the bot, such as 123456789:AAH…',
    }),
    credentialField({
      name: 'chat_id', type: 'string', required: true,
      description: 'The channel, supergroup or group the bot administers: a numeric chat id such as -1001234567890 or a public @channelname.',
    }),
  ],
  check(values) {
    const violations: SettingViolation[] = [];
    if (typeof values.bot_token === 'string' && !BOT_TOKEN.test(values.bot_token.trim())) {
      violations.push({ field: 'bot_token', message: 'bot_token must be a Telegram bot token' });
    }
    if (typeof values.chat_id === 'string' && !chatRef(values.chat_id)) {
      violations.push({ field: 'chat_id', message: 'chat_id must be a chat id or @channelname' });
    }
    return violations;
  },
};
