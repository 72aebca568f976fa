import { defineSandboxNetwork } from '../kit/sandbox';
import { startSlackSimulator } from './simulator';

export const slackSandbox = defineSandboxNetwork({
  id: 'slack',
  port: 4131,
  start: ({ port, seed }) => startSlackSimulator({ port, seed }),
  seed(sim) {
    const bot = sim.createBot({ name: 'herald' });
    const channel = sim.createChannel({ name: 'herald-sandbox' });
    sim.join(channel.id, bot.token);
    const webhook = sim.createWebhook(channel.id);
    return {
      options: { apiBase: sim.apiBase, webhookBase: sim.webhookBase },
      variables: { SANDBOX_SLACK_BOT_TOKEN: bot.token, SANDBOX_SLACK_CHANNEL_ID: channel.id, SANDBOX_SLACK_WEBHOOK_URL: webhook.url },
      secretVariables: ['SANDBOX_SLACK_BOT_TOKEN', 'SANDBOX_SLACK_WEBHOOK_URL'],
      account: { teamId: sim.teamId, channelId: channel.id, botUserId: bot.userId },
    };
  },
});
