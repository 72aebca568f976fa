import { defineNetwork } from '../kit/network';
import { hostList, httpUrl } from '../kit/env';
import { createDiscordPlatform, discordDescriptor, type DiscordPlatformOptions } from './adapter';

export * from './adapter';

export const discord = defineNetwork<'discord', DiscordPlatformOptions>({
  id: 'discord',
  descriptor: discordDescriptor,
  env: { apiBase: ['DISCORD_API_BASE', httpUrl], allowedWebhookHosts: ['DISCORD_ALLOWED_WEBHOOK_HOSTS', hostList] },
  create: createDiscordPlatform,
});
