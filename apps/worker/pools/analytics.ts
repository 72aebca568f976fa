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
  taskQueue: (config) => config.analyticsHistory.taskQueue,
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
        snapshots: history.snapshots, captures: history.captures, retentionMs: config.analyticsHistory.snapshotRetentionMs,
        concurrency: config.analyticsHistory.snapshotConcurrency, log: ctx.log,
      }),
    });
    await createTemporalAnalyticsSnapshots(ctx.temporal, { taskQueue: config.analyticsHistory.taskQueue }).ensure(config.analyticsHistory.snapshot);
    ctx.log('analytics snapshots scheduled', { ...config.analyticsHistory.snapshot, task_queue: config.analyticsHistory.taskQueue });
    return { worker };
  },
};
