import { defineSandboxNetwork } from '../kit/sandbox';
import { startBlueskySimulator } from './simulator';

export const sandboxNetwork = defineSandboxNetwork({
  id: 'bluesky',
  port: 4111,
  start: ({ port, seed, processingMs }) => startBlueskySimulator({ port, seed, processingMs }),
  seed(sim) {
    const sky = sim.createAccount({ handle: 'herald-sandbox.test', displayName: 'Herald Sandbox' });
    return {
      options: { apiBase: sim.serviceUrl, videoBase: sim.videoBaseUrl, videoServiceDid: sim.videoServiceDid },
      variables: { SANDBOX_BLUESKY_IDENTIFIER: sky.handle, SANDBOX_BLUESKY_APP_PASSWORD: sky.appPassword },
      secretVariables: ['SANDBOX_BLUESKY_APP_PASSWORD'],
      account: { did: sky.did, handle: sky.handle, appPassword: sky.appPassword },
    };
  },
});

/** This folder's record in the sandbox's typed list (ops/simulators/index.ts finds the folder by the network's id). */
declare module '../kit/sandbox' {
  interface SandboxNetworks { bluesky: typeof sandboxNetwork }
}
