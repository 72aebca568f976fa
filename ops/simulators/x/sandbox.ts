import { defineSandboxNetwork } from '../kit/sandbox';
import { startXSimulator } from './simulator';

export const sandboxNetwork = defineSandboxNetwork({
  id: 'x',
  port: 4109,
  start: ({ port, seed, processingMs }) => startXSimulator({ port, seed, processingMs }),
  seed(sim, callbackUrl) {
    const client = sim.createClient({ name: 'Herald Sandbox', redirectUris: [callbackUrl] });
    // Premium, so the sandbox can edit its posts (X edits need a Premium subscription).
    const user = sim.createAccount({ username: 'herald_sandbox', name: 'Herald Sandbox', premium: true });
    return {
      options: { apiBase: sim.origin, authBase: sim.origin },
      client: { clientId: client.clientId, clientSecret: client.clientSecret ?? '' },
      account: { clientId: client.clientId, redirectUri: callbackUrl, accountId: user.id, username: user.username },
    };
  },
});

/** This folder's record in the sandbox's typed list (ops/simulators/index.ts finds the folder by the network's id). */
declare module '../kit/sandbox' {
  interface SandboxNetworks { x: typeof sandboxNetwork }
}
