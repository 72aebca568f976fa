import { defineSandboxNetwork } from '../kit/sandbox';
import { startSnapchatSimulator } from './simulator';

export const snapchatSandbox = defineSandboxNetwork({
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
