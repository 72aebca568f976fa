import Redis from 'ioredis';
import { createAuthFailureGuard, createRequestRateLimiter } from '../../adapters/redis/rate-limit';
import { useTestRedis } from '../support/redis';

/** The rate limiter and the auth-failure guard on the real Redis, and their in-memory insurance. */
describe('rate limits on Redis', () => {
  const test = useTestRedis('rl');
  const { prefix } = test;
  let redis: Redis;
  beforeAll(() => { redis = test.redis(); });

  it('allows `points` requests per window, counts down, then refuses with the reset time', async () => {
    const limiter = createRequestRateLimiter(redis, { points: 3, windowSeconds: 60, keyPrefix: `${prefix}:req` });
    const decisions = [];
    for (let i = 0; i < 4; i += 1) decisions.push(await limiter.consume('key-1'));
    expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([[true, 2], [true, 1], [true, 0], [false, 0]]);
    expect(decisions[3].limit).toBe(3);
    expect(decisions[3].resetAt.getTime()).toBeGreaterThan(Date.now());
    expect(decisions[3].resetAt.getTime()).toBeLessThanOrEqual(Date.now() + 60_000);
    // The count lives in Redis: a second limiter (another API process) sees it.
    const other = createRequestRateLimiter(redis, { points: 3, windowSeconds: 60, keyPrefix: `${prefix}:req` });
    expect((await other.consume('key-1')).allowed).toBe(false);
    expect((await other.consume('key-2')).allowed).toBe(true);
    expect(await redis.exists(`${prefix}:req:key-1`)).toBe(1);
  });

  describe('with leases (points taken from Redis several at a time)', () => {
    it('allows exactly `points`, counts down by one per request, and calls Redis once per lease', async () => {
      const limiter = createRequestRateLimiter(redis, { points: 1000, windowSeconds: 60, keyPrefix: `${prefix}:lease`, lease: 50 });
      const first = await limiter.consume('k');
      expect([first.allowed, first.remaining]).toEqual([true, 999]);
      // The first request took a whole lease from the shared count.
      expect(await redis.get(`${prefix}:lease:k`)).toBe('50');
      const remaining = [first.remaining];
      for (let i = 1; i < 1000; i += 1) {
        const d = await limiter.consume('k');
        expect(d.allowed).toBe(true);
        remaining.push(d.remaining);
      }
      expect(remaining).toEqual(Array.from({ length: 1000 }, (_, i) => 999 - i));
      expect(await redis.get(`${prefix}:lease:k`)).toBe('1000');
      const over = await limiter.consume('k');
      expect([over.allowed, over.remaining, over.limit]).toEqual([false, 0, 1000]);
      expect(over.resetAt.getTime()).toBeGreaterThan(Date.now());
    });

    it('gives two processes exactly the window between them, a lease never taking more than is left', async () => {
      const opts = { points: 120, windowSeconds: 60, keyPrefix: `${prefix}:lease2`, lease: 50 };
      const a = createRequestRateLimiter(redis, opts);
      const b = createRequestRateLimiter(redis, opts);
      let allowed = 0;
      for (let i = 0; i < 200; i += 1) if ((await (i % 3 === 0 ? b : a).consume('shared')).allowed) allowed += 1;
      expect(allowed).toBe(120);
      // Neither can go on once both have used what they took.
      expect((await a.consume('shared')).allowed).toBe(false);
      expect((await b.consume('shared')).allowed).toBe(false);
    });

    it('serves concurrent requests of one key from one lease at a time', async () => {
      const limiter = createRequestRateLimiter(redis, { points: 10_000, windowSeconds: 60, keyPrefix: `${prefix}:lease3`, lease: 100 });
      const decisions = await Promise.all(Array.from({ length: 200 }, () => limiter.consume('hot')));
      expect(decisions.every((d) => d.allowed)).toBe(true);
      expect(new Set(decisions.map((d) => d.remaining)).size).toBe(200);
      expect(Math.min(...decisions.map((d) => d.remaining))).toBe(9800);
      expect(await redis.get(`${prefix}:lease3:hot`)).toBe('200');
    });

    it('starts again when the window ends', async () => {
      const limiter = createRequestRateLimiter(redis, { points: 10, windowSeconds: 3, keyPrefix: `${prefix}:lease4`, lease: 4 });
      const first = [];
      for (let i = 0; i < 10; i += 1) first.push((await limiter.consume('w')).allowed);
      const over = await limiter.consume('w');
      expect([...first, over.allowed]).toEqual([...Array(10).fill(true), false]);
      // Past the refused answer's reset time (and Redis's own expiry of the window).
      await new Promise((r) => setTimeout(r, Math.max(0, over.resetAt.getTime() - Date.now()) + 300));
      const d = await limiter.consume('w');
      expect([d.allowed, d.remaining]).toEqual([true, 9]);
    });
  });

  it('blocks an address at the tenth consecutive failure and unblocks it after the block time', async () => {
    const guard = createAuthFailureGuard(redis, { maxFailures: 10, blockSeconds: 2, keyPrefix: `${prefix}:auth` });
    expect(await guard.check('10.0.0.1')).toEqual({ blockedMs: 0, failures: 0 });
    for (let i = 1; i <= 9; i += 1) expect(await guard.recordFailure('10.0.0.1')).toBe(0);
    expect(await guard.check('10.0.0.1')).toEqual({ blockedMs: 0, failures: 9 });
    expect(await guard.recordFailure('10.0.0.1')).toBe(2000);
    const { blockedMs: blocked } = await guard.check('10.0.0.1');
    expect(blocked).toBeGreaterThan(0);
    expect(blocked).toBeLessThanOrEqual(2000);
    expect((await guard.check('10.0.0.2')).blockedMs).toBe(0);
    await new Promise((r) => setTimeout(r, 2100));
    expect((await guard.check('10.0.0.1')).blockedMs).toBe(0);
    expect(await guard.recordFailure('10.0.0.1')).toBe(0);
  });

  it('resets the failure count on a success', async () => {
    const guard = createAuthFailureGuard(redis, { maxFailures: 3, blockSeconds: 60, keyPrefix: `${prefix}:auth2` });
    await guard.recordFailure('a');
    await guard.recordFailure('a');
    expect((await guard.check('a')).failures).toBe(2);
    await guard.recordSuccess('a');
    expect((await guard.check('a')).failures).toBe(0);
    expect(await guard.recordFailure('a')).toBe(0);
    expect(await guard.recordFailure('a')).toBe(0);
    expect(await guard.recordFailure('a')).toBe(60_000);
  });

  it('keeps limiting in memory when Redis is unreachable', async () => {
    const dead = new Redis('redis://127.0.0.1:1', { enableOfflineQueue: false, maxRetriesPerRequest: 0, lazyConnect: true, retryStrategy: () => null });
    dead.on('error', () => undefined);
    const limiter = createRequestRateLimiter(dead, { points: 2, windowSeconds: 60, keyPrefix: `${prefix}:dead` });
    const results = [];
    for (let i = 0; i < 3; i += 1) results.push((await limiter.consume('k')).allowed);
    expect(results).toEqual([true, true, false]);
    const guard = createAuthFailureGuard(dead, { maxFailures: 2, blockSeconds: 60, keyPrefix: `${prefix}:deadauth` });
    expect(await guard.recordFailure('x')).toBe(0);
    expect(await guard.recordFailure('x')).toBe(60_000);
    expect((await guard.check('x')).blockedMs).toBeGreaterThan(0);
    dead.disconnect();
  });
});
