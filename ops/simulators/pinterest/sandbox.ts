import { defineSandboxNetwork } from '../kit/sandbox';
import { startPinterestSimulator } from './simulator';

export const sandboxNetwork = defineSandboxNetwork({
  id: 'pinterest',
  port: 4110,
  start: ({ port, seed, processingMs }) => startPinterestSimulator({ port, seed, processingMs }),
  seed(sim, callbackUrl) {
    const app = sim.createApp({ name: 'Herald Sandbox', redirectUris: [callbackUrl] });
    const user = sim.createAccount({ username: 'herald_sandbox', businessName: 'Herald Sandbox' });
    const board = sim.createBoard(user.id, { name: 'Herald Sandbox', description: 'Pins published through the Herald sandbox' });
    return {
      options: { apiBase: sim.apiBase, authBase: sim.origin },
      client: { clientId: app.clientId, clientSecret: app.clientSecret },
      variables: { SANDBOX_PINTEREST_BOARD_ID: board.id },
      account: { clientId: app.clientId, redirectUri: callbackUrl, accountId: user.id, username: user.username, boardId: board.id },
    };
  },
});

/** This folder's record in the sandbox's typed list (ops/simulators/index.ts finds the folder by the network's id). */
declare module '../kit/sandbox' {
  interface SandboxNetworks { pinterest: typeof sandboxNetwork }
}
