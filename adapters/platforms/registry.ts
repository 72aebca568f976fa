import type { Platform } from '../../core/domain/platforms';
import type { PlatformAdapter, PlatformRegistry } from '../../core/ports/platform';

export function createPlatformRegistry(adapters: PlatformAdapter[]): PlatformRegistry {
  const byId = new Map<Platform, PlatformAdapter>(adapters.map((a) => [a.descriptor.id, a]));
  return {
    get: (platform) => byId.get(platform),
    list: () => [...byId.values()],
  };
}
