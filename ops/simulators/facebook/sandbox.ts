import { defineSandboxNetwork } from '../kit/sandbox';
import { startFacebookSimulator } from './simulator';

export const sandboxNetwork = defineSandboxNetwork({
  id: 'facebook',
  port: 4106,
  start: ({ port, seed, processingMs }) => startFacebookSimulator({ port, seed, processingMs }),
  seed(sim, callbackUrl) {
    // Facebook's app comes with the simulator (its login dialog takes any redirect URI).
    const user = sim.createAccount({ name: 'Herald Sandbox', pages: ['Herald Sandbox Page'] });
    const page = user.pages[0]!;
    return {
      options: { apiBase: sim.baseUrl, videoApiBase: sim.baseUrl, authBase: sim.baseUrl },
      client: { clientId: sim.app.id, clientSecret: sim.app.secret },
      account: { clientId: sim.app.id, redirectUri: callbackUrl, accountId: user.id, pageId: page.id, pageName: page.name },
    };
  },
});

/** This folder's record in the sandbox's typed list (ops/simulators/index.ts finds the folder by the network's id). */
declare module '../kit/sandbox' {
  interface SandboxNetworks { facebook: typeof sandboxNetwork }
}
