/**
 * Connecting a Discord channel: the account is a webhook URL, checked with Get Webhook with Token
 * (docs.discord.com/developers/resources/webhook) and stored as its id and token.
 */
import type { CredentialConnector, VerifiedConnection } from '../../../core/ports/platform';
import { invalidCredential, readCredentials } from '../kit/credentials';
import type { DiscordClient } from './client';
import { discordCredentialFields, webhookRoute } from './settings';

/** Hosts Discord hands out webhook URLs on (Copy Webhook URL in the stable, PTB and Canary clients). */
export const DISCORD_WEBHOOK_HOSTS: readonly string[] = [
  'discord.com', 'discordapp.com', 'ptb.discord.com', 'canary.discord.com', 'ptb.discordapp.com', 'canary.discordapp.com',
];

export function createDiscordConnector(client: DiscordClient, opts: { apiBase: string; allowedWebhookHosts: readonly string[] }): CredentialConnector {
  const apiUrl = new URL(opts.apiBase);
  const allowedHosts = opts.allowedWebhookHosts.map((h) => h.toLowerCase());

  return {
    async verify(input): Promise<VerifiedConnection> {
      const values = readCredentials(discordCredentialFields, input);
      const url = new URL(values.webhook_url as string);
      // Only Discord's own hosts (and the configured API host), so a URL cannot point us elsewhere.
      const onApiHost = url.protocol === apiUrl.protocol && url.host === apiUrl.host;
      const onDiscord = url.protocol === 'https:' && url.port === '' && allowedHosts.includes(url.hostname.toLowerCase());
      const ref = webhookRoute(url);
      if ((!onApiHost && !onDiscord) || !ref) {
        throw invalidCredential(discordCredentialFields, 'webhook_url', 'webhook_url must be a Discord webhook URL');
      }
      const name = typeof values.name === 'string' ? values.name.trim() : undefined;
      // Always asked through apiBase, whatever host the URL named: the URL only supplies id and token.
      const webhook = await client.request('GET', client.webhookPath(ref), undefined);
      const webhookName = typeof webhook.name === 'string' && webhook.name ? webhook.name : 'Discord webhook';
      const avatar = typeof webhook.avatar === 'string' && webhook.avatar ? webhook.avatar : '';
      return {
        identity: {
          platformUserId: webhook.id,
          handle: webhookName,
          displayName: name ?? webhookName,
          avatarUrl: avatar ? `https://cdn.discordapp.com/avatars/${webhook.id}/${avatar}.png` : '',
        },
        credentials: {
          webhook_id: webhook.id,
          webhook_token: ref.token,
          guild_id: typeof webhook.guild_id === 'string' ? webhook.guild_id : '',
          channel_id: typeof webhook.channel_id === 'string' ? webhook.channel_id : '',
        },
      };
    },
  };
}
