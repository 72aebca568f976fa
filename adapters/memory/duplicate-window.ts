import type { DuplicateWindow } from '../../core/ports/duplicate-window';
import type { Clock } from '../../core/ports/system';

/** Claims in a map, expiring by the injected clock: for unit tests and a single process. */
export function createMemoryDuplicateWindow(clock: Clock): DuplicateWindow {
  const claims = new Map<string, { requestId: string; until: number }>();
  return {
    async claim(key, requestId, ttlMs) {
      const now = clock.now().getTime();
      const held = claims.get(key);
      if (held && held.until > now) return held.requestId;
      claims.set(key, { requestId, until: now + ttlMs });
      return null;
    },
    async release(key, requestId) {
      if (claims.get(key)?.requestId === requestId) claims.delete(key);
    },
  };
}
