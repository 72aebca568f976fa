import type Redis from 'ioredis';
import type { PostMetricsCache } from '../../core/ports/analytics-snapshots';

/**
 * Live post metrics in Redis for a short time (`SET … PX`). A cache: when Redis is down a read
 * misses and a write is dropped, and the request goes to the network instead of failing.
 */
export function createRedisPostMetricsCache(redis: Redis, opts: { keyPrefix: string; log?: (message: string, fields?: Record<string, unknown>) => void }): PostMetricsCache {
  const keyOf = (key: string) => `${opts.keyPrefix}:${key}`;
  return {
    async get(key) {
      try {
        const raw = await redis.get(keyOf(key));
        return raw ? (JSON.parse(raw) as Awaited<ReturnType<PostMetricsCache['get']>>) : null;
      } catch (err) {
        opts.log?.('post metrics cache read failed', { error: (err as Error).message });
        return null;
      }
    },
    async set(key, value, ttlMs) {
      try {
        await redis.set(keyOf(key), JSON.stringify(value), 'PX', ttlMs);
      } catch (err) {
        opts.log?.('post metrics cache write failed', { error: (err as Error).message });
      }
    },
  };
}
