import type Redis from 'ioredis';
import type { DuplicateWindow } from '../../core/ports/duplicate-window';

// Deletes the key only while it still names the request that claimed it.
const RELEASE = "if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end return 0";

/**
 * Claims on Redis, one round trip each: `SET key requestId PX ttl NX GET` sets the key when it is
 * free and answers the holder otherwise (Redis ≥ 7.0), so concurrent identical requests on any API
 * process see one winner. Expiry is Redis's own (PX).
 */
export function createRedisDuplicateWindow(redis: Redis, opts: { keyPrefix: string }): DuplicateWindow {
  const keyOf = (key: string) => `${opts.keyPrefix}:${key}`;
  return {
    async claim(key, requestId, ttlMs) {
      return redis.set(keyOf(key), requestId, 'PX', Math.max(1, Math.ceil(ttlMs)), 'NX', 'GET');
    },
    async release(key, requestId) {
      await redis.eval(RELEASE, 1, keyOf(key), requestId);
    },
  };
}
