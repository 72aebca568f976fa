import { randomBytes } from 'node:crypto';
import type Redis from 'ioredis';
import type { UploadVersions } from '../../core/ports/upload-versions';

/** Far longer than any reader keeps an answer: a stamp that expired was read by no live entry. */
const STAMP_TTL_MS = 24 * 3600_000;

/**
 * The stamps on Redis, one key per account under `<prefix>:<account id>`. A move SETs a random
 * value rather than INCR: a counter lost with Redis's data would start again at a number a
 * reader may still hold.
 */
export function createRedisUploadVersions(redis: Redis, opts: { keyPrefix: string; log?: (m: string, f: Record<string, unknown>) => void }): UploadVersions {
  const keyOf = (accountId: string) => `${opts.keyPrefix}:${accountId}`;
  return {
    async current(accountId) {
      return (await redis.get(keyOf(accountId))) ?? '-';
    },
    async advance(accountId) {
      try {
        await redis.set(keyOf(accountId), randomBytes(9).toString('base64url'), 'PX', STAMP_TTL_MS);
      } catch (err) {
        opts.log?.('upload stamp not moved (status reads see the write when their cache entry expires)', { error: (err as Error).message });
      }
    },
  };
}
