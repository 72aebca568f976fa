import { Worker, type NativeConnection, type WorkerOptions } from '@temporalio/worker';
import type { Client } from '@temporalio/client';
import type { Db } from 'mongodb';
import { createMediaJobActivities } from '../../workflows/activities/media-job';
import { createTemporalUploadRunner } from '../../adapters/temporal/upload-runner';
import { sha256KeyHasher, randomIds, systemClock } from '../../adapters/crypto/node-crypto';
import type { PlatformRegistry } from '../../core/ports/platform';
import type { Storage } from '../../core/ports/storage';
import type { MediaProbe, MediaStore } from '../../core/ports/media';
import type { HeraldConfig } from '../shared/config';
import { buildMediaJobs } from '../shared/media-jobs';

export interface MediaWorkerDeps {
  config: HeraldConfig;
  connection: NativeConnection;
  /** Starts the uploads that `publish` makes (on the publishing task queue). */
  temporal: Client;
  db: Db;
  storage: Storage;
  platforms: PlatformRegistry;
  media: { store: MediaStore & { pathOf(id: string): string }; probe: MediaProbe };
  /** The daemon's log (the sandbox ffmpeg runs in is said here). */
  log?: (message: string, fields?: Record<string, unknown>) => void;
  /** The pool's worker options (connection, task queue, concurrency, interceptors); these defaults otherwise. */
  options?: Pick<WorkerOptions, 'connection' | 'namespace' | 'taskQueue' | 'shutdownGraceTime' | 'maxConcurrentActivityTaskExecutions' | 'interceptors' | 'sinks'>;
}

/**
 * The worker of the media task queue (HERALD_MEDIA_TASK_QUEUE, `<HERALD_TASK_QUEUE>-media` by
 * default): media-job workflows only, bundled apart, so an operator runs and scales media workers
 * apart from publishers. Built here, on its own, so another daemon (a pool) can host it as is.
 */
export async function createMediaWorker(deps: MediaWorkerDeps): Promise<Worker> {
  const { config } = deps;
  const jobs = await buildMediaJobs(config, deps.db, deps.media.store, deps.log);
  return Worker.create({
    ...(deps.options ?? {
      connection: deps.connection,
      namespace: config.temporal.namespace,
      taskQueue: config.mediaJobs.taskQueue,
      // ffmpeg runs use the CPU: a few at a time per worker process.
      maxConcurrentActivityTaskExecutions: 2,
      shutdownGraceTime: config.api.shutdownGraceMs,
    }),
    workflowsPath: require.resolve('../../workflows/media-job.workflow'),
    activities: createMediaJobActivities({
      mediaJobs: jobs.mediaJobs,
      mediaUsage: jobs.mediaUsage,
      processor: jobs.processor,
      clock: systemClock,
      maxOutputBytes: config.mediaJobs.maxOutputBytes,
      progressWriteMs: config.mediaJobs.progressWriteMs,
      heartbeatEveryMs: config.mediaJobs.heartbeatEveryMs,
      store: deps.media.store,
      publish: {
        storage: deps.storage,
        mediaJobs: jobs.mediaJobs,
        operators: deps.storage.operators,
        probe: deps.media.probe,
        hasher: sha256KeyHasher,
        platforms: deps.platforms,
        runner: createTemporalUploadRunner(deps.temporal, { taskQueue: config.temporal.taskQueue, timing: config.uploadTiming }),
        ids: randomIds,
        clock: systemClock,
      },
    }),
  });
}
