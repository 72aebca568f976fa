/**
 * Every network simulator the sandbox runs: one folder per network, `ops/simulators/<network id>/`,
 * whose `sandbox.ts` exports its record as `sandboxNetwork` and adds its type to `SandboxNetworks`
 * (kit/sandbox.ts). No list names them here: the sandbox asks for the networks Herald has
 * (apps/sandbox, from the adapters' list) and this finds each one's folder by its id, so a new
 * network's simulator is its folder alone. Simulators import nothing of Herald's, so the ids come in.
 */
import type { SandboxNetwork, SandboxNetworks } from './kit/sandbox';

export type SandboxNetworkId = keyof SandboxNetworks & string;
/** Each network's running simulator. */
export type SandboxSimulators = { [K in SandboxNetworkId]: Awaited<ReturnType<SandboxNetworks[K]['start']>> };
/** What tests and people need to drive each network's seeded fixtures. */
export type SandboxAccounts = { [K in SandboxNetworkId]: ReturnType<SandboxNetworks[K]['seed']>['account'] };

/**
 * The simulator records of these networks, in their order. A network without a simulator folder,
 * or a folder whose record has another id, is an error naming it (the sandbox would otherwise
 * start without it and every connect to it would fail far from the cause).
 */
export function sandboxNetworksOf(ids: readonly string[]): SandboxNetwork<SandboxNetworkId>[] {
  return ids.map((id) => {
    if (!/^[a-z][a-z0-9_]*$/.test(id)) throw new Error(`"${id}" is not a network id`);
    let record: SandboxNetwork | undefined;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports -- found by id: the folder is the registration
      record = (require(`./${id}/sandbox`) as { sandboxNetwork?: SandboxNetwork }).sandboxNetwork;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'MODULE_NOT_FOUND' || !String((err as Error).message).includes(`${id}/sandbox`)) throw err;
    }
    if (!record) throw new Error(`no simulator for ${id}: ops/simulators/${id}/sandbox.ts must export sandboxNetwork`);
    if (record.id !== id) throw new Error(`ops/simulators/${id}/sandbox.ts declares the network "${record.id}"`);
    return record as SandboxNetwork<SandboxNetworkId>;
  });
}
