import { defineSandboxNetwork } from '../kit/sandbox';
import { startYoutubeSimulator } from './simulator';

export const sandboxNetwork = defineSandboxNetwork({
  id: 'youtube',
  port: 4107,
  start: ({ port, seed, processingMs }) => startYoutubeSimulator({ port, seed, processingMs }),
  seed(sim, callbackUrl) {
    const client = sim.createClient({ redirectUris: [callbackUrl] });
    const channel = sim.createAccount({ title: 'Herald Sandbox', handle: '@heraldsandbox' });
    return {
      options: { apiBase: sim.apiBase, analyticsApiBase: sim.apiBase, authBase: sim.authBase, tokenUrl: sim.tokenUrl },
      client: { clientId: client.clientId, clientSecret: client.clientSecret },
      account: { clientId: client.clientId, redirectUri: callbackUrl, channelId: channel.id, handle: channel.handle },
    };
  },
});

/** This folder's record in the sandbox's typed list (ops/simulators/index.ts finds the folder by the network's id). */
declare module '../kit/sandbox' {
  interface SandboxNetworks { youtube: typeof sandboxNetwork }
}
