import type { NativeConnection, WorkerOptions } from '@temporalio/worker';
import type { Worker } from '@temporalio/worker';
import type { Client } from '@temporalio/client';
import type { Db, MongoClient } from 'mongodb';
import type { Storage } from '../../core/ports/storage';
import type { CredentialLeases } from '../../core/ports/credential-leases';
import type { DispatchClaims } from '../../core/ports/dispatch-claims';
import type { PlatformRegistry } from '../../core/ports/platform';
import type { SecretBox } from '../../core/ports/system';
import type { Metrics } from '../../core/ports/metrics';
import type { HeraldConfig } from '../shared/config';
import type { buildMedia } from '../shared/compose';

/**
 * Worker pools: one Temporal task queue each, with its own concurrency, so an operator runs (and
 * scales) each pool as its own process: `HERALD_WORKER_POOLS=publish` on some processes,
 * `HERALD_WORKER_POOLS=media` on others (unset: every pool in one process, the embedded default).
 * A pool creates its Worker from `ctx.workerOptions(pool)`: connection, namespace, task queue,
 * concurrency, shutdown grace and tracing interceptors come with it.
 */
export interface PoolContext {
  config: HeraldConfig;
  mongo: { client: MongoClient; db: Db; storage: Storage; leases: CredentialLeases; claims: DispatchClaims };
  /** Client of the Temporal frontend (starting child workflows, signals). */
  temporal: Client;
  connection: NativeConnection;
  platforms: PlatformRegistry;
  secrets: SecretBox;
  media: ReturnType<typeof buildMedia>;
  metrics: Metrics;
  log: (message: string, fields?: Record<string, unknown>) => void;
  /** The WorkerOptions every pool starts from (spread, then add workflowsPath and activities). */
  workerOptions(pool: WorkerPool): Pick<WorkerOptions, 'connection' | 'namespace' | 'taskQueue' | 'shutdownGraceTime' | 'maxConcurrentActivityTaskExecutions' | 'interceptors' | 'sinks'>;
}

export interface RunningPool {
  worker: Worker;
  /** Runs after the worker stopped (background loops of the pool). */
  stop?: () => Promise<void> | void;
}

export interface WorkerPool {
  /** The name operators select (`HERALD_WORKER_POOLS`) and the `HERALD_POOL_<NAME>_CONCURRENCY` key. */
  name: string;
  /** The task queue it polls. */
  taskQueue(config: HeraldConfig): string;
  /** What runs there (the pools table of docs/operating.md). */
  workflows: string[];
  /** Activities at once per process when HERALD_POOL_<NAME>_CONCURRENCY is unset. */
  defaultConcurrency: number;
  start(ctx: PoolContext): Promise<RunningPool>;
}

