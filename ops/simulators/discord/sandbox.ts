import { defineSandboxNetwork } from '../kit/sandbox';
import { startDiscordSimulator } from './simulator';

export const sandboxNetwork = defineSandboxNetwork({
  id: 'discord',
  port: 4101,
  start: ({ port, seed }) => startDiscordSimulator({ port, seed }),
  seed(sim) {
    const webhook = sim.createWebhook({ name: 'Herald Sandbox' });
    return {
      options: { apiBase: sim.baseUrl },
      variables: { SANDBOX_DISCORD_WEBHOOK_URL: webhook.url },
      secretVariables: ['SANDBOX_DISCORD_WEBHOOK_URL'],
      account: { webhookId: webhook.id, webhookUrl: webhook.url },
    };
  },
});

/** This folder's record in the sandbox's typed list (ops/simulators/index.ts finds the folder by the network's id). */
declare module '../kit/sandbox' {
  interface SandboxNetworks { discord: typeof sandboxNetwork }
}
