import type { Clock } from '../../core/ports/system';
import type { PostMetricsCache } from '../../core/ports/analytics-snapshots';
import { copy } from './values';

/** The Redis cache's semantics in memory, on an injected clock (tests move time). */
export function createMemoryPostMetricsCache(clock: Clock): PostMetricsCache {
  const rows = new Map<string, { value: Awaited<ReturnType<PostMetricsCache['get']>>; until: number }>();
  return {
    async get(key) {
      const hit = rows.get(key);
      if (!hit || hit.until <= clock.now().getTime()) return null;
      return copy(hit.value);
    },
    async set(key, value, ttlMs) {
      rows.set(key, { value: copy(value), until: clock.now().getTime() + ttlMs });
    },
  };
}
