import { defineSandboxNetwork } from '../kit/sandbox';
import { startListmonkSimulator } from './simulator';

export const sandboxNetwork = defineSandboxNetwork({
  id: 'listmonk',
  port: 4145,
  start: ({ port, seed }) => startListmonkSimulator({ port, seed }),
  seed(sim) {
    const user = sim.createApiUser('herald');
    const list = sim.createList('Herald Sandbox subscribers');
    return {
      // The instance is per connection; the loopback simulator speaks plain http.
      options: { allowPrivateInstances: 'true' },
      variables: {
        SANDBOX_LISTMONK_INSTANCE_URL: sim.instanceUrl, SANDBOX_LISTMONK_API_USER: user.name, SANDBOX_LISTMONK_API_TOKEN: user.token,
        SANDBOX_LISTMONK_LIST_ID: String(list.id),
      },
      secretVariables: ['SANDBOX_LISTMONK_API_TOKEN'],
      account: { apiUser: user.name, listId: list.id },
    };
  },
});

/** This folder's record in the sandbox's typed list (ops/simulators/index.ts finds the folder by the network's id). */
declare module '../kit/sandbox' {
  interface SandboxNetworks { listmonk: typeof sandboxNetwork }
}
