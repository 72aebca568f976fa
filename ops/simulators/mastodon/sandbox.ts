import { defineSandboxNetwork } from '../kit/sandbox';
import { startMastodonSimulator } from './simulator';

export const sandboxNetwork = defineSandboxNetwork({
  id: 'mastodon',
  port: 4141,
  start: ({ port, seed, processingMs }) => startMastodonSimulator({ port, seed, processingMs }),
  seed(sim) {
    const account = sim.createAccount({ username: 'herald_sandbox', displayName: 'Herald Sandbox' });
    return {
      // The instance is per connection; the loopback simulator speaks plain http.
      options: { allowPrivateInstances: 'true' },
      variables: { SANDBOX_MASTODON_INSTANCE_URL: sim.instanceUrl, SANDBOX_MASTODON_ACCESS_TOKEN: account.accessToken },
      secretVariables: ['SANDBOX_MASTODON_ACCESS_TOKEN'],
      account: { accountId: account.id, username: account.username },
    };
  },
});

/** This folder's record in the sandbox's typed list (ops/simulators/index.ts finds the folder by the network's id). */
declare module '../kit/sandbox' {
  interface SandboxNetworks { mastodon: typeof sandboxNetwork }
}
