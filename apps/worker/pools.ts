import type { HeraldConfig } from '../shared/config';
import type { WorkerPool } from './pool-types';
import { publishPool } from './pools/publish';
import { mediaPool } from './pools/media';
import { notifyPool } from './pools/notify';
import { analyticsPool } from './pools/analytics';

export type { PoolContext, RunningPool, WorkerPool } from './pool-types';

/**
 * The worker pool registry: HERALD_WORKER_POOLS picks from it. A pool joins with a file
 * `apps/worker/pools/<name>.ts` exporting a WorkerPool (see pool-types.ts) and one line below.
 * Every pool this build knows, in start order.
 */
export const POOLS: WorkerPool[] = [
  publishPool,
  mediaPool,
  notifyPool,
  analyticsPool,
];

/** The pools HERALD_WORKER_POOLS selects (all when unset); an unknown name is a configuration error. */
export function selectPools(config: HeraldConfig, pools: WorkerPool[] = POOLS): WorkerPool[] {
  const wanted = config.workerPools.selected;
  if (!wanted) return pools;
  const unknown = wanted.filter((name) => !pools.some((p) => p.name === name));
  if (unknown.length) throw new Error(`HERALD_WORKER_POOLS names unknown pools: ${unknown.join(', ')}; known: ${pools.map((p) => p.name).join(', ')}`);
  if (!wanted.length) throw new Error('HERALD_WORKER_POOLS is empty: name at least one pool, or unset it for all');
  return pools.filter((p) => wanted.includes(p.name));
}

export const concurrencyOf = (config: HeraldConfig, pool: WorkerPool): number => config.workerPools.concurrency[pool.name] ?? pool.defaultConcurrency;
