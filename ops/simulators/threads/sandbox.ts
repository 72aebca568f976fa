import { defineSandboxNetwork } from '../kit/sandbox';
import { startThreadsSimulator } from './simulator';

export const sandboxNetwork = defineSandboxNetwork({
  id: 'threads',
  port: 4105,
  start: ({ port, seed, processingMs }) => startThreadsSimulator({ port, seed, processingMs }),
  seed(sim, callbackUrl) {
    const app = sim.createApp({ redirectUris: [callbackUrl] });
    const user = sim.createAccount({ username: 'herald.sandbox', name: 'Herald Sandbox' });
    return {
      options: { apiBase: sim.apiBase, apiVersion: sim.apiVersion, authorizeUrl: sim.authorizeUrl },
      client: { clientId: app.clientId, clientSecret: app.clientSecret },
      account: { clientId: app.clientId, redirectUri: callbackUrl, accountId: user.id, username: user.username },
    };
  },
});

/** This folder's record in the sandbox's typed list (ops/simulators/index.ts finds the folder by the network's id). */
declare module '../kit/sandbox' {
  interface SandboxNetworks { threads: typeof sandboxNetwork }
}
