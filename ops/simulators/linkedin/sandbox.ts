import { defineSandboxNetwork } from '../kit/sandbox';
import { startLinkedInSimulator } from './simulator';

export const sandboxNetwork = defineSandboxNetwork({
  id: 'linkedin',
  port: 4108,
  start: ({ port, seed, processingMs }) => startLinkedInSimulator({ port, seed, processingMs }),
  seed(sim, callbackUrl) {
    const client = sim.registerClient({ redirectUris: [callbackUrl] });
    // The member administers a page, and the adapter asks for page access: page posts, the page lookup and the media library work offline.
    const member = sim.createAccount({ name: 'Herald Sandbox', email: 'sandbox@herald.dev', pages: [{ name: 'Herald Sandbox Page' }] });
    return {
      options: { apiBase: sim.apiBase, authBase: sim.authBase, organizationPages: 'true' },
      client: { clientId: client.clientId, clientSecret: client.clientSecret },
      account: { clientId: client.clientId, redirectUri: callbackUrl, sub: member.sub, urn: member.urn, pageId: member.pages[0]!.id },
    };
  },
});

/** This folder's record in the sandbox's typed list (ops/simulators/index.ts finds the folder by the network's id). */
declare module '../kit/sandbox' {
  interface SandboxNetworks { linkedin: typeof sandboxNetwork }
}
