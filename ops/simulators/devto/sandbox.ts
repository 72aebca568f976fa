import { defineSandboxNetwork } from '../kit/sandbox';
import { startDevtoSimulator } from './simulator';

export const sandboxNetwork = defineSandboxNetwork({
  id: 'devto',
  port: 4142,
  start: ({ port, seed }) => startDevtoSimulator({ port, seed }),
  seed(sim) {
    const user = sim.createUser({ username: 'herald_sandbox', name: 'Herald Sandbox' });
    return {
      options: { apiBase: sim.apiBase },
      variables: { SANDBOX_DEVTO_API_KEY: user.apiKey },
      secretVariables: ['SANDBOX_DEVTO_API_KEY'],
      account: { userId: user.id, username: user.username },
    };
  },
});

/** This folder's record in the sandbox's typed list (ops/simulators/index.ts finds the folder by the network's id). */
declare module '../kit/sandbox' {
  interface SandboxNetworks { devto: typeof sandboxNetwork }
}
