import { defineSandboxNetwork } from '../kit/sandbox';
import { startSnapchatSimulator } from './simulator';

export const sandboxNetwork = defineSandboxNetwork({
  id: 'snapchat',
  port: 4135,
  start: ({ port, seed }) => startSnapchatSimulator({ port, seed }),
  seed(sim, callbackUrl) {
    const client = sim.createClient({ redirectUris: [callbackUrl] });
    const profile = sim.createProfile({ displayName: 'Herald Sandbox', username: 'heraldsandbox' });
    return {
      options: { apiBase: sim.apiBase, authBase: sim.authBase },
      client,
      account: { clientId: client.clientId, redirectUri: callbackUrl, profileId: profile.id, userId: profile.userId },
    };
  },
});

/** This folder's record in the sandbox's typed list (ops/simulators/index.ts finds the folder by the network's id). */
declare module '../kit/sandbox' {
  interface SandboxNetworks { snapchat: typeof sandboxNetwork }
}
