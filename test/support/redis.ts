import Redis from 'ioredis';
import { randomBytes } from 'node:crypto';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * A connection to the real Redis for one describe block, and a key prefix of its own whose keys
 * are removed afterwards. `redis()` is valid inside the tests (after beforeAll).
 */
export function useTestRedis(name: string): { redis: () => Redis; prefix: string } {
  let redis: Redis | undefined;
  const prefix = `herald-test-${name}-${randomBytes(4).toString('hex')}`;
  beforeAll(async () => {
    redis = new Redis(REDIS_URL, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: true });
    await redis.connect().catch((err: Error) => {
      throw new Error(`Redis unreachable at ${REDIS_URL} (${err.message}). Start the local infrastructure with \`bash ops/infra.sh up\`.`);
    });
  });
  afterAll(async () => {
    if (!redis) return;
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });
  return { redis: () => redis!, prefix };
}
