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
