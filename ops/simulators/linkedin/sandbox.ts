import { defineSandboxNetwork } from '../kit/sandbox';
import { startLinkedInSimulator } from './simulator';

export const linkedinSandbox = defineSandboxNetwork({
  id: 'linkedin',
  port: 4108,
  start: ({ port, seed, processingMs }) => startLinkedInSimulator({ port, seed, processingMs }),
  seed(sim, callbackUrl) {
    const client = sim.registerClient({ redirectUris: [callbackUrl] });
    const member = sim.createAccount({ name: 'Herald Sandbox', email: 'sandbox@herald.dev' });
    return {
      options: { apiBase: sim.apiBase, authBase: sim.authBase },
      client: { clientId: client.clientId, clientSecret: client.clientSecret },
      account: { clientId: client.clientId, redirectUri: callbackUrl, sub: member.sub, urn: member.urn },
    };
  },
});
