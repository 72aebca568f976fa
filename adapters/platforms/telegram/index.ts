/**
 * Telegram through a bot (core.telegram.org/bots/api): the account is a bot token plus a chat the
 * bot administers. Verified with getMe → getChat → getChatMember; text published with sendMessage.
 */
import type { PlatformAdapter } from '../../../core/ports/platform';
import { httpUrl } from '../kit/env';
import { systemNow } from '../kit/http';
import { defineNetwork, type CommonOptions } from '../kit/network';
import { createTelegramClient, DEFAULT_TIMEOUT_MS, TELEGRAM_API_BASE } from './client';
import { createTelegramConnector } from './connect';
import { telegramDescriptor } from './descriptor';
import { createTelegramPostEditor } from './posts';
import { createTelegramPublisher } from './publish';

export { mapTelegramFailure, TELEGRAM_API_BASE, type TelegramOutcome } from './client';
export { telegramDescriptor } from './descriptor';
export { telegramCredentialFields } from './settings';

export interface TelegramPlatformOptions extends CommonOptions {
  /** Default https://api.telegram.org; a simulator's base URL in tests and the sandbox. */
  apiBase?: string;
}

export function createTelegramPlatform(opts: TelegramPlatformOptions = {}): PlatformAdapter {
  const client = createTelegramClient({
    apiBase: opts.apiBase ?? TELEGRAM_API_BASE, timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    // Uploads of up to 50 MB get more time than JSON calls.
    uploadTimeoutMs: Math.max(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, 120_000), fetch: opts.fetch ?? fetch, now: opts.now ?? systemNow,
  });
  return {
    descriptor: telegramDescriptor,
    credentials: createTelegramConnector(client),
    publisher: createTelegramPublisher(client),
    postEditor: createTelegramPostEditor(client),
  };
}

export const telegram = defineNetwork<'telegram', TelegramPlatformOptions>({
  id: 'telegram',
  descriptor: telegramDescriptor,
  env: { apiBase: ['TELEGRAM_API_BASE', httpUrl, { meaning: 'Telegram Bot API.', default: '`https://api.telegram.org`' }] },
  create: createTelegramPlatform,
});
