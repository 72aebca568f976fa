/**
 * Connecting a Slack channel: a bot token checked with auth.test and the channel with
 * conversations.info (api.slack.com/methods), or an incoming webhook checked with an empty payload
 * (a live webhook answers 400 `no_text` and posts nothing).
 */
import { invalidInput } from '../../../core/domain/errors';
import type { CredentialConnector, VerifiedConnection } from '../../../core/ports/platform';
import { invalidCredential, readCredentials } from '../kit/credentials';
import { isObject, str } from '../kit/http';
import type { SlackClient } from './client';
import { slackCredentialFields, webhookPath } from './settings';

export function createSlackConnector(client: SlackClient, opts: { webhookBase: string; allowedWebhookHosts: readonly string[] }): CredentialConnector {
  const base = new URL(opts.webhookBase);
  const hosts = opts.allowedWebhookHosts.map((h) => h.toLowerCase());

  async function viaWebhook(raw: string, name: string | undefined): Promise<VerifiedConnection> {
    const url = new URL(raw);
    const onBase = url.protocol === base.protocol && url.host === base.host;
    const onSlack = url.protocol === 'https:' && url.port === '' && hosts.includes(url.hostname.toLowerCase());
    const route = webhookPath(url);
    if ((!onBase && !onSlack) || !route) throw invalidCredential(slackCredentialFields, 'webhook_url', 'webhook_url must be a Slack incoming webhook URL');
    // Always sent to the configured webhook base: the URL only supplies the path.
    await client.probeWebhook(route.path);
    return {
      identity: { platformUserId: `${route.team}/${route.hook}`, handle: 'Slack webhook', displayName: name ?? 'Slack webhook', avatarUrl: '' },
      credentials: { mode: 'webhook', webhook_path: route.path, team_id: route.team },
    };
  }

  async function viaBot(token: string, channelId: string, name: string | undefined): Promise<VerifiedConnection> {
    const auth = await client.call(token, 'auth.test', {});
    const teamId = str(auth.team_id);
    if (!teamId) throw invalidCredential(slackCredentialFields, 'bot_token', 'Slack did not name the workspace of this token');
    const info = await client.call(token, 'conversations.info', { channel: channelId }, { form: true });
    const channel = isObject(info.channel) ? info.channel : {};
    if (channel.is_archived === true) throw invalidInput(`The Slack channel ${channelId} is archived: unarchive it or give another channel.`, { field: 'channel_id' });
    const channelName = str(channel.name) ?? channelId;
    const team = str(auth.team) ?? teamId;
    return {
      identity: { platformUserId: `${teamId}/${channelId}`, handle: `#${channelName}`, displayName: name ?? `#${channelName} (${team})`, avatarUrl: '' },
      credentials: {
        mode: 'bot', bot_token: token, channel_id: channelId, team_id: teamId,
        ...(str(auth.url) ? { team_url: str(auth.url)! } : {}), ...(str(auth.bot_id) ? { bot_id: str(auth.bot_id)! } : {}),
      },
    };
  }

  return {
    async verify(input) {
      const values = readCredentials(slackCredentialFields, input);
      const name = typeof values.name === 'string' ? values.name.trim() : undefined;
      if (typeof values.webhook_url === 'string') return viaWebhook(values.webhook_url, name);
      return viaBot((values.bot_token as string).trim(), (values.channel_id as string).trim(), name);
    },
  };
}
