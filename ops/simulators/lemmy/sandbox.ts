import { defineSandboxNetwork } from '../kit/sandbox';
import { startLemmySimulator } from './simulator';

/** The sandbox account's password: the simulator keeps users in memory, so a fixed one survives restarts. */
const SANDBOX_PASSWORD = 'herald-sandbox-lemmy';

export const sandboxNetwork = defineSandboxNetwork({
  id: 'lemmy',
  port: 4132,
  start: ({ port, seed }) => startLemmySimulator({ port, seed }),
  seed(sim) {
    const user = sim.createUser({ username: 'herald', password: SANDBOX_PASSWORD, displayName: 'Herald Sandbox' });
    const community = sim.createCommunity({ name: 'herald_sandbox', title: 'Herald Sandbox' });
    return {
      // The instance URL is per connection; the sandbox instance is served over http on loopback.
      options: { allowHttpInstances: 'true' },
      variables: {
        SANDBOX_LEMMY_INSTANCE_URL: sim.instanceUrl, SANDBOX_LEMMY_USERNAME: 'herald', SANDBOX_LEMMY_PASSWORD: SANDBOX_PASSWORD, SANDBOX_LEMMY_COMMUNITY: 'herald_sandbox',
      },
      secretVariables: ['SANDBOX_LEMMY_PASSWORD'],
      account: { userId: user.id, communityId: community.id, instanceUrl: sim.instanceUrl },
    };
  },
});

/** This folder's record in the sandbox's typed list (ops/simulators/index.ts finds the folder by the network's id). */
declare module '../kit/sandbox' {
  interface SandboxNetworks { lemmy: typeof sandboxNetwork }
}
