import { defineNetwork } from '../kit/network';
import { httpUrl } from '../kit/env';
import { createTelegramPlatform, telegramDescriptor, type TelegramPlatformOptions } from './adapter';

export * from './adapter';

export const telegram = defineNetwork<'telegram', TelegramPlatformOptions>({
  id: 'telegram',
  descriptor: telegramDescriptor,
  env: { apiBase: ['TELEGRAM_API_BASE', httpUrl] },
  create: createTelegramPlatform,
});
