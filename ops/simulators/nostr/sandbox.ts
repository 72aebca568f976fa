import { createHash } from 'node:crypto';
import { getPublicKey } from 'nostr-tools';
import { defineSandboxNetwork } from '../kit/sandbox';
import { startNostrSimulator } from './simulator';

export const sandboxNetwork = defineSandboxNetwork({
  id: 'nostr',
  port: 4134,
  start: ({ port }) => startNostrSimulator({ port }),
  seed(sim) {
    const relays = [sim.relay('relay-one'), sim.relay('relay-two')];
    // A key derived from the sandbox's name: the same on every start, never a real account's.
    const privateKey = createHash('sha256').update('herald-sandbox-nostr-key').digest('hex');
    return {
      // Relay URLs are per connection; the sandbox relays are plain ws:// on loopback.
      options: { allowInsecureRelays: 'true' },
      variables: { SANDBOX_NOSTR_PRIVATE_KEY: privateKey, SANDBOX_NOSTR_RELAYS: relays.join(',') },
      secretVariables: ['SANDBOX_NOSTR_PRIVATE_KEY'],
      account: { publicKey: getPublicKey(Uint8Array.from(Buffer.from(privateKey, 'hex'))), relays },
    };
  },
});

/** This folder's record in the sandbox's typed list (ops/simulators/index.ts finds the folder by the network's id). */
declare module '../kit/sandbox' {
  interface SandboxNetworks { nostr: typeof sandboxNetwork }
}
