import { createMediaWorker } from '../media-worker';
import type { WorkerPool } from '../pool-types';

/**
 * Media-processing jobs: one workflow per ffmpeg job (heartbeating run, output expiry, publish).
 * Task queue HERALD_MEDIA_TASK_QUEUE (default `<HERALD_TASK_QUEUE>-media`); ffmpeg uses the CPU, so
 * a few runs at a time per process (HERALD_POOL_MEDIA_CONCURRENCY).
 */
export const mediaPool: WorkerPool = {
  name: 'media',
  taskQueue: (config) => config.mediaJobs.taskQueue,
  workflows: ['mediaJob'],
  defaultConcurrency: 2,
  async start(ctx) {
    const worker = await createMediaWorker({
      config: ctx.config, connection: ctx.connection, temporal: ctx.temporal, db: ctx.mongo.db, storage: ctx.mongo.storage,
      platforms: ctx.platforms, media: ctx.media, log: ctx.log, options: ctx.workerOptions(mediaPool),
    });
    return { worker };
  },
};
