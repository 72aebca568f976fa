import { defineSandboxNetwork } from '../kit/sandbox';
import { startGoogleBusinessSimulator } from './simulator';

export const sandboxNetwork = defineSandboxNetwork({
  id: 'google_business',
  port: 4130,
  start: ({ port, seed }) => startGoogleBusinessSimulator({ port, seed }),
  seed(sim, callbackUrl) {
    const client = sim.createClient({ redirectUris: [callbackUrl] });
    const user = sim.createUser({ name: 'Herald Sandbox Bakery' });
    const location = sim.createLocation(user.accountId, { title: 'Herald Sandbox Bakery', address: '1 Sandbox Lane' });
    return {
      options: { apiBase: sim.apiBase, accountsBase: sim.apiBase, infoBase: sim.apiBase, performanceBase: sim.performanceBase, authBase: sim.authBase, tokenUrl: sim.tokenUrl },
      client,
      variables: { SANDBOX_GOOGLE_BUSINESS_LOCATION_ID: location.id },
      account: { clientId: client.clientId, redirectUri: callbackUrl, userId: user.id, accountId: user.accountId, locationId: location.id },
    };
  },
});

/** This folder's record in the sandbox's typed list (ops/simulators/index.ts finds the folder by the network's id). */
declare module '../kit/sandbox' {
  interface SandboxNetworks { google_business: typeof sandboxNetwork }
}
