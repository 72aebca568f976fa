import { defineSandboxNetwork } from '../kit/sandbox';
import { startSlackSimulator } from './simulator';

export const sandboxNetwork = defineSandboxNetwork({
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

/** This folder's record in the sandbox's typed list (ops/simulators/index.ts finds the folder by the network's id). */
declare module '../kit/sandbox' {
  interface SandboxNetworks { slack: typeof sandboxNetwork }
}
