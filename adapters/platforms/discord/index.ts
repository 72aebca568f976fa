/**
 * Discord through a channel webhook (docs.discord.com/developers/resources/webhook): the account is
 * a webhook URL, verified with Get Webhook with Token and published to with Execute Webhook.
 */
import type { PlatformAdapter } from '../../../core/ports/platform';
import { hostList, httpUrl } from '../kit/env';
import { systemNow } from '../kit/http';
import { defineNetwork, type CommonOptions } from '../kit/network';
import { createDiscordClient, DEFAULT_TIMEOUT_MS, DISCORD_API_BASE } from './client';
import { createDiscordConnector, DISCORD_WEBHOOK_HOSTS } from './connect';
import { discordDescriptor } from './descriptor';
import { createDiscordPostEditor } from './posts';
import { createDiscordPublisher } from './publish';

export { DISCORD_API_BASE, mapDiscordFailure, type DiscordOutcome } from './client';
export { DISCORD_WEBHOOK_HOSTS } from './connect';
export { discordDescriptor } from './descriptor';
export { discordCredentialFields } from './settings';

export interface DiscordPlatformOptions extends CommonOptions {
  /** Default https://discord.com/api/v10; a simulator's base URL in tests and the sandbox. */
  apiBase?: string;
  /** Hosts accepted (over https) in submitted webhook URLs; the host of `apiBase` is always accepted. */
  allowedWebhookHosts?: readonly string[];
}

export function createDiscordPlatform(opts: DiscordPlatformOptions = {}): PlatformAdapter {
  const apiBase = opts.apiBase ?? DISCORD_API_BASE;
  const client = createDiscordClient({
    apiBase, timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, fetch: opts.fetch ?? fetch, now: opts.now ?? systemNow,
  });
  return {
    descriptor: discordDescriptor,
    credentials: createDiscordConnector(client, { apiBase, allowedWebhookHosts: opts.allowedWebhookHosts ?? DISCORD_WEBHOOK_HOSTS }),
    publisher: createDiscordPublisher(client),
    postEditor: createDiscordPostEditor(client),
  };
}

export const discord = defineNetwork<'discord', DiscordPlatformOptions>({
  id: 'discord',
  descriptor: discordDescriptor,
  env: { apiBase: ['DISCORD_API_BASE', httpUrl, { meaning: 'Discord API (webhooks are executed there).', default: '`https://discord.com/api/v10`' }], allowedWebhookHosts: ['DISCORD_ALLOWED_WEBHOOK_HOSTS', hostList, { meaning: 'Hosts accepted in submitted Discord webhook URLs.', default: 'discord.com, discordapp.com and their ptb/canary hosts' }] },
  create: createDiscordPlatform,
});
