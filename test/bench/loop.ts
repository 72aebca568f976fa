/**
 * The benches' bounded concurrent loop, on its own so that the load client (load-client.ts, a
 * process of its own) uses the same loop as the benches that drive requests in-process.
 */
import { performance } from 'node:perf_hooks';

export interface Outcome<T> {
  index: number;
  ok: boolean;
  latencyMs: number;
  value?: T;
  error?: string;
}

export interface LoopResult<T> {
  outcomes: Array<Outcome<T>>;
  /** From the first request sent to the last answer received. */
  wallMs: number;
  /** Requests not sent because the time limit passed first. */
  skipped: number;
}

/**
 * Runs `fn(0..count-1)` with `concurrency` in flight at any time, stopping new calls once
 * `timeLimitMs` has passed. `fn` resolves to `{ok, value}`; a throw counts as a failure.
 */
export async function boundedLoop<T>(
  count: number, concurrency: number, timeLimitMs: number,
  fn: (index: number) => Promise<{ ok: boolean; value?: T; error?: string }>,
): Promise<LoopResult<T>> {
  const outcomes: Array<Outcome<T>> = [];
  const started = performance.now();
  const deadline = started + timeLimitMs;
  let next = 0;
  const lane = async () => {
    while (next < count && performance.now() < deadline) {
      const index = next++;
      const t0 = performance.now();
      try {
        const r = await fn(index);
        outcomes.push({ index, ok: r.ok, latencyMs: performance.now() - t0, ...(r.value !== undefined ? { value: r.value } : {}), ...(r.error ? { error: r.error } : {}) });
      } catch (err) {
        outcomes.push({ index, ok: false, latencyMs: performance.now() - t0, error: err instanceof Error ? err.message : String(err) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, lane));
  return { outcomes, wallMs: performance.now() - started, skipped: count - next };
}

