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
  /**
   * Points a process takes from Redis at a time for a key (default 1: every request is one Redis
   * call). With more, the process answers from its own lease until it is used up or the window
   * ends, and other processes can see up to `lease - 1` points per process taken but not yet used.
   */
  lease?: number;
}

/** Points a process holds for one key in the current window. */
interface Lease {
  /** Points taken from the window and not yet used. */
  tokens: number;
  /** Points left in the window, by the store's count, when the lease was taken. */
  remaining: number;
  resetAtMs: number;
  /** A lease being taken: consumers wait for it instead of taking one each. */
  pending?: Promise<void>;
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

/**
 * A fixed window of `points` requests per key, counted in Redis (in memory without it). With
 * `lease` > 1 a key's requests take points from Redis `lease` at a time: a leased point is used
 * by this process only, so a hot key costs one Redis call per `lease` requests. A lease takes no
 * more than the window has left, so a single process allows exactly `points` per window and
 * reports the same remaining count as without leases.
 */
export function createRequestRateLimiter(redis: Redis | undefined, opts: RateLimitOptions): RequestRateLimiter {
  const rl = limiter(redis, { keyPrefix: opts.keyPrefix ?? 'herald:rl:req', points: opts.points, duration: opts.windowSeconds });
  const leaseSize = Math.max(1, Math.floor(opts.lease ?? 1));
  const leases = new Map<string, Lease>();
  const refused = (resetAtMs: number): RateDecision => ({ allowed: false, limit: opts.points, remaining: 0, resetAt: new Date(resetAtMs) });
  const take = (lease: Lease): RateDecision => {
    lease.tokens -= 1;
    return { allowed: true, limit: opts.points, remaining: lease.remaining + lease.tokens, resetAt: new Date(lease.resetAtMs) };
  };

  /** Takes up to `size` points from the store: as many as the window still had, or none. */
  const lease = async (key: string, size: number): Promise<{ granted: number; remaining: number; resetAtMs: number }> => {
    let res: RateLimiterRes;
    try {
      res = await rl.consume(key, size);
    } catch (err) {
      if (!(err instanceof RateLimiterRes)) throw err;
      res = err;
    }
    // The store added `size` to the window's count in one step; what was left before it is ours.
    const before = res.consumedPoints - size;
    const granted = Math.max(0, Math.min(size, opts.points - before));
    return { granted, remaining: Math.max(0, opts.points - res.consumedPoints), resetAtMs: Date.now() + res.msBeforeNext };
  };

  const sweep = (now: number) => {
    if (leases.size < 10_000) return;
    for (const [key, l] of leases) if (!l.pending && l.resetAtMs <= now) leases.delete(key);
  };

  return {
    async consume(key: string): Promise<RateDecision> {
      if (leaseSize === 1) {
        const got = await lease(key, 1);
        return got.granted ? { allowed: true, limit: opts.points, remaining: got.remaining, resetAt: new Date(got.resetAtMs) } : refused(got.resetAtMs);
      }
      for (;;) {
        const now = Date.now();
        let held = leases.get(key);
        if (held && held.resetAtMs <= now && !held.pending) {
          leases.delete(key);
          held = undefined;
        }
        if (held?.pending) {
          await held.pending;
          continue;
        }
        if (held && held.tokens > 0) return take(held);
        if (held && held.remaining === 0) return refused(held.resetAtMs);
        // A new lease: no more than the window had left at the last one (a whole lease in a new window).
        const size = Math.min(leaseSize, held ? held.remaining : leaseSize);
        const next: Lease = held ?? { tokens: 0, remaining: opts.points, resetAtMs: now };
        let settle!: () => void;
        next.pending = new Promise<void>((resolve) => { settle = resolve; });
        leases.set(key, next);
        sweep(now);
        try {
          const got = await lease(key, size);
          next.tokens = got.granted;
          next.remaining = got.remaining;
          next.resetAtMs = got.resetAtMs;
          if (!got.granted) {
            next.remaining = 0;
            return refused(got.resetAtMs);
          }
          return take(next);
        } catch (err) {
          leases.delete(key);
          throw err;
        } finally {
          next.pending = undefined;
          settle();
        }
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
