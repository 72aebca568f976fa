import { Worker } from '@temporalio/worker';
import { createAnalyticsSnapshotActivities } from '../../../workflows/activities/analytics-snapshots';
import { createTemporalAnalyticsSnapshots } from '../../../adapters/temporal/analytics-snapshots';
import { systemClock } from '../../../adapters/crypto/node-crypto';
import { buildAnalyticsStorage } from '../../shared/analytics';
import type { WorkerPool } from '../pool-types';

/**
 * Analytics: the daily snapshot workflow (`analytics-snapshots:<task queue>`) that measures every
 * connected account and stores its day, and the expiry of stored history. Task queue
 * HERALD_ANALYTICS_TASK_QUEUE (default `<HERALD_TASK_QUEUE>-analytics`); activities are network
 * reads, mostly waiting (HERALD_POOL_ANALYTICS_CONCURRENCY). Each start hands the workflow the
 * configured settings (signal-with-start), so the period is configuration.
 */
export const analyticsPool: WorkerPool = {
  name: 'analytics',
  taskQueue: (config) => config.analytics.taskQueue,
  workflows: ['analyticsSnapshots'],
  defaultConcurrency: 20,
  async start(ctx) {
    const { config, mongo } = ctx;
    const history = await buildAnalyticsStorage(config, mongo.db);
    const worker = await Worker.create({
      ...ctx.workerOptions(analyticsPool),
      workflowsPath: require.resolve('../../../workflows/analytics-snapshots.workflow'),
      activities: createAnalyticsSnapshotActivities({
        storage: mongo.storage, leases: mongo.leases, platforms: ctx.platforms, secrets: ctx.secrets, clock: systemClock, metrics: ctx.metrics,
        snapshots: history.snapshots, captures: history.captures, retentionMs: config.analytics.snapshotRetentionMs,
        concurrency: config.analytics.snapshotConcurrency, log: ctx.log,
      }),
    });
    await createTemporalAnalyticsSnapshots(ctx.temporal, { taskQueue: config.analytics.taskQueue }).ensure(config.analytics.snapshot);
    ctx.log('analytics snapshots scheduled', { ...config.analytics.snapshot, task_queue: config.analytics.taskQueue });
    return { worker };
  },
};
