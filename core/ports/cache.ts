/**
 * A short-lived cache of JSON results of live network calls (analytics), shared by the API
 * processes (Redis) or per process (memory). A miss is `undefined`; values must be plain JSON.
 */
export interface ResultCache {
  get<T>(key: string): Promise<T | undefined>;
  set(key: string, value: unknown, ttlMs: number): Promise<void>;
}

/**
 * `key`'s cached value, or `compute()` stored for `ttlMs` (not stored when it throws, or when
 * ttlMs is 0). A cache that fails is skipped: the live answer is better than none.
 */
export async function cachedResult<T>(cache: ResultCache | undefined, key: string, ttlMs: number, compute: () => Promise<T>): Promise<T> {
  if (!cache || ttlMs <= 0) return compute();
  const hit = await cache.get<T>(key).catch(() => undefined);
  if (hit !== undefined) return hit;
  const value = await compute();
  await cache.set(key, value, ttlMs).catch(() => undefined);
  return value;
}
