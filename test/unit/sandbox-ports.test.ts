import { NETWORKS } from '../../adapters/platforms';
import { sandboxNetworksOf } from '../../ops/simulators';
import { SANDBOX_NETWORKS, SANDBOX_PORT_RANGE, SANDBOX_PORTS, sandboxPortProblems } from '../../apps/sandbox/main';

/**
 * The sandbox daemon listens on one fixed port per network (ops/simulators/<network>/sandbox.ts).
 * Two networks on one port made ops/start.sh fail with EADDRINUSE once (slack and snapchat both on
 * 4131 after a merge): the list is checked here, and the daemon refuses such a list at start.
 */
describe('sandbox simulator ports', () => {
  it('every network has its own port, inside the sandbox range', () => {
    expect(sandboxPortProblems()).toEqual([]);
    const ports = SANDBOX_NETWORKS.map((n) => n.port);
    expect(new Set(ports).size).toBe(SANDBOX_NETWORKS.length);
    for (const port of Object.values(SANDBOX_PORTS)) {
      expect(port).toBeGreaterThanOrEqual(SANDBOX_PORT_RANGE.from);
      expect(port).toBeLessThanOrEqual(SANDBOX_PORT_RANGE.to);
    }
  });

  it('names the networks that clash, and ports outside the range', () => {
    expect(sandboxPortProblems([{ id: 'slack', port: 4131 }, { id: 'lemmy', port: 4132 }, { id: 'snapchat', port: 4131 }, { id: 'x', port: 8787 }]))
      .toEqual(['slack and snapchat on 4131', 'x on 8787, outside 4101..4199']);
  });

  it('finds a simulator for every network by its id, and names a network without one', () => {
    expect(SANDBOX_NETWORKS.map((n) => n.id)).toEqual(NETWORKS.map((n) => n.id));
    expect(() => sandboxNetworksOf(['bluesky', 'no_such_network'])).toThrow('no simulator for no_such_network: ops/simulators/no_such_network/sandbox.ts must export sandboxNetwork');
    expect(() => sandboxNetworksOf(['../kit'])).toThrow('"../kit" is not a network id');
  });
});
