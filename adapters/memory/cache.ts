import type { ResultCache } from '../../core/ports/cache';

/**
 * The result cache in one process: values are stored as JSON text (what Redis would hand back, so
 * a caller cannot mutate a cached value) and dropped when read after their expiry.
 */
export function createMemoryResultCache(now: () => number = Date.now): ResultCache {
  const entries = new Map<string, { json: string; expiresAt: number }>();
  return {
    async get<T>(key: string): Promise<T | undefined> {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAt <= now()) { entries.delete(key); return undefined; }
      return JSON.parse(entry.json) as T;
    },
    async set(key, value, ttlMs) {
      if (ttlMs <= 0) return;
      entries.set(key, { json: JSON.stringify(value), expiresAt: now() + ttlMs });
    },
  };
}
