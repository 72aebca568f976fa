import type Redis from 'ioredis';
import type { ResultCache } from '../../core/ports/cache';

/**
 * The result cache on Redis, shared by every API process: JSON under `<prefix>:<key>` with a
 * millisecond expiry (PX).
 */
export function createRedisResultCache(redis: Redis, opts: { keyPrefix: string }): ResultCache {
  const keyOf = (key: string) => `${opts.keyPrefix}:${key}`;
  return {
    async get<T>(key: string): Promise<T | undefined> {
      const raw = await redis.get(keyOf(key));
      return raw === null ? undefined : (JSON.parse(raw) as T);
    },
    async set(key, value, ttlMs) {
      if (ttlMs <= 0) return;
      await redis.set(keyOf(key), JSON.stringify(value), 'PX', Math.ceil(ttlMs));
    },
  };
}
