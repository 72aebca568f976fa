import { defineSandboxNetwork } from '../kit/sandbox';
import { startHashnodeSimulator } from './simulator';

export const sandboxNetwork = defineSandboxNetwork({
  id: 'hashnode',
  port: 4143,
  start: ({ port, seed }) => startHashnodeSimulator({ port, seed }),
  seed(sim) {
    const user = sim.createUser({ username: 'herald_sandbox', name: 'Herald Sandbox' });
    const publication = sim.createPublication(user.id, { title: 'Herald Sandbox Blog', host: 'herald-sandbox.hashnode.dev' });
    return {
      options: { apiUrl: sim.apiUrl },
      variables: { SANDBOX_HASHNODE_ACCESS_TOKEN: user.token, SANDBOX_HASHNODE_PUBLICATION_ID: publication.id },
      secretVariables: ['SANDBOX_HASHNODE_ACCESS_TOKEN'],
      account: { userId: user.id, publicationId: publication.id },
    };
  },
});

/** This folder's record in the sandbox's typed list (ops/simulators/index.ts finds the folder by the network's id). */
declare module '../kit/sandbox' {
  interface SandboxNetworks { hashnode: typeof sandboxNetwork }
}
