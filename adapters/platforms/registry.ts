import type { Platform } from '../../core/domain/platforms';
import type { Capability, Having, PlatformAdapter, PlatformRegistry } from '../../core/ports/platform';

export function createPlatformRegistry(adapters: PlatformAdapter[]): PlatformRegistry {
  const byId = new Map<Platform, PlatformAdapter>(adapters.map((a) => [a.descriptor.id, a]));
  const can = <C extends Capability>(adapter: PlatformAdapter | undefined, capability: C): adapter is Having<C> =>
    adapter !== undefined && adapter[capability] !== undefined;
  return {
    get: (platform) => byId.get(platform),
    list: () => [...byId.values()],
    having: (capability) => [...byId.values()].filter((a) => can(a, capability)),
    with(platform, capability) {
      const adapter = byId.get(platform);
      return can(adapter, capability) ? adapter : undefined;
    },
  };
}
