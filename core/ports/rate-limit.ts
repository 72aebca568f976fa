/** Request throttling per API key, with the figures the rate-limit headers show. */
export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** When the current window resets. */
  resetAt: Date;
}

/**
 * The points an API process takes from the shared count at a time for one key, by default: 1 % of
 * the window's points, from 1 to 100 (300 a minute: 3). Another process can therefore find up to
 * that many points per process taken but not yet used.
 */
export function defaultRateLimitLease(points: number): number {
  return Math.min(100, Math.max(1, Math.floor(points / 100)));
}

export interface RequestRateLimiter {
  consume(key: string): Promise<RateDecision>;
}

/** Blocks a client address after consecutive failed authentication attempts. */
export interface AuthFailureGuard {
  /**
   * One read per request: `blockedMs` until the address is unblocked (0 when it is not blocked)
   * and the consecutive `failures` on record (0 means a success has nothing to reset).
   */
  check(address: string): Promise<{ blockedMs: number; failures: number }>;
  /** Returns the milliseconds the address is now blocked for (0 while under the threshold). */
  recordFailure(address: string): Promise<number>;
  recordSuccess(address: string): Promise<void>;
}
