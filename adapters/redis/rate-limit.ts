import {
  RateLimiterMemory, RateLimiterRedis, RateLimiterRes, type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import type Redis from 'ioredis';
import type { AuthFailureGuard, RateDecision, RequestRateLimiter } from '../../core/ports/rate-limit';

export interface RateLimitOptions {
  /** Requests allowed per window. */
  points: number;
  windowSeconds: number;
  keyPrefix?: string;
}

export interface AuthGuardOptions {
  /** Consecutive failures that block an address. */
  maxFailures: number;
  blockSeconds: number;
  keyPrefix?: string;
}

/**
 * Both limiters run on Redis when it is given, with an in-memory limiter as insurance: when
 * Redis is unreachable each API process keeps limiting on its own instead of failing requests.
 */
function limiter(redis: Redis | undefined, opts: { keyPrefix: string; points: number; duration: number }): RateLimiterAbstract {
  const memory = new RateLimiterMemory(opts);
  if (!redis) return memory;
  return new RateLimiterRedis({ ...opts, storeClient: redis, insuranceLimiter: memory });
}

export function createRequestRateLimiter(redis: Redis | undefined, opts: RateLimitOptions): RequestRateLimiter {
  const rl = limiter(redis, { keyPrefix: opts.keyPrefix ?? 'herald:rl:req', points: opts.points, duration: opts.windowSeconds });
  const decision = (res: RateLimiterRes, allowed: boolean): RateDecision => ({
    allowed,
    limit: opts.points,
    remaining: Math.max(0, res.remainingPoints),
    resetAt: new Date(Date.now() + res.msBeforeNext),
  });
  return {
    async consume(key: string): Promise<RateDecision> {
      try {
        return decision(await rl.consume(key), true);
      } catch (err) {
        if (err instanceof RateLimiterRes) return decision(err, false);
        throw err;
      }
    },
  };
}

export function createAuthFailureGuard(redis: Redis | undefined, opts: AuthGuardOptions): AuthFailureGuard {
  // Failures count until a success resets them; the hour-long window only keeps keys from living forever.
  const rl = limiter(redis, { keyPrefix: opts.keyPrefix ?? 'herald:rl:authfail', points: opts.maxFailures, duration: 3600 });
  const blockedMs = (res: RateLimiterRes | null) =>
    res && res.consumedPoints >= opts.maxFailures ? Math.max(0, res.msBeforeNext) : 0;
  return {
    async check(address: string): Promise<{ blockedMs: number; failures: number }> {
      const res = await rl.get(address);
      return { blockedMs: blockedMs(res), failures: res?.consumedPoints ?? 0 };
    },
    async recordFailure(address: string): Promise<number> {
      let res: RateLimiterRes;
      try {
        res = await rl.consume(address);
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        res = err;
      }
      if (res.consumedPoints < opts.maxFailures) return 0;
      await rl.block(address, opts.blockSeconds);
      return opts.blockSeconds * 1000;
    },
    async recordSuccess(address: string): Promise<void> {
      await rl.delete(address);
    },
  };
}
