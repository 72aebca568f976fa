import { defineSandboxNetwork } from '../kit/sandbox';
import { startTelegramSimulator } from './simulator';

export const sandboxNetwork = defineSandboxNetwork({
  id: 'telegram',
  port: 4102,
  start: ({ port, seed }) => startTelegramSimulator({ port, seed }),
  seed(sim) {
    const bot = sim.createBot({ username: 'herald_sandbox_bot', firstName: 'Herald Sandbox' });
    const channel = sim.createChat({ type: 'channel', title: 'Herald Sandbox', username: 'herald_sandbox' });
    sim.setMember(channel.id, bot.id, 'administrator', { can_post_messages: true });
    return {
      options: { apiBase: sim.baseUrl },
      variables: { SANDBOX_TELEGRAM_BOT_TOKEN: bot.token, SANDBOX_TELEGRAM_CHAT_ID: String(channel.id) },
      secretVariables: ['SANDBOX_TELEGRAM_BOT_TOKEN'],
      account: { botId: bot.id, botUsername: 'herald_sandbox_bot', chatId: channel.id, chatUsername: 'herald_sandbox' },
    };
  },
});

/** This folder's record in the sandbox's typed list (ops/simulators/index.ts finds the folder by the network's id). */
declare module '../kit/sandbox' {
  interface SandboxNetworks { telegram: typeof sandboxNetwork }
}
