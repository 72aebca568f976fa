import { Worker } from '@temporalio/worker';
import { createUploadActivities } from '../../../workflows/activities/upload';
import { createAccountPauseActivities } from '../../../workflows/activities/account-pause';
import { createCheckpointProbeActivities } from '../../../workflows/activities/checkpoint-probe';
import type { OperatorAccount } from '../../../core/domain/operator';
import type { Storage } from '../../../core/ports/storage';
import { createTemporalUploadRunner } from '../../../adapters/temporal/upload-runner';
import { createTemporalAccountPauses } from '../../../adapters/temporal/account-pauses';
import { createTemporalCheckpointProbes } from '../../../adapters/temporal/checkpoint-probes';
import { createMongoNotificationOutbox } from '../../../adapters/mongo/notifications/outbox';
import { systemClock } from '../../../adapters/crypto/node-crypto';
import { startPendingReconciler } from '../reconciler';
import { createConnectionRefreshActivities } from '../../../workflows/activities/connection-refresh';
import { lifecycleWiring } from '../../shared/lifecycle';
import { ensureRefreshAheadForAll } from '../../../core/usecases/refresh-ahead';
import { createNotificationActivities } from '../../../workflows/activities/notifications';
import { buildNotifications } from '../../shared/notifications';
import type { WorkerPool } from '../pool-types';

/**
 * Operator accounts as the worker reads them: each publish's event carries the operator's email,
 * which never changes, and the plan may be a minute old. One read per account and minute instead
 * of one per published target.
 */
export function withOperatorsCached(storage: Storage, ttlMs = 60_000): Storage {
  const cache = new Map<string, { at: number; account: Promise<OperatorAccount | null> }>();
  const findById = (id: string): Promise<OperatorAccount | null> => {
    const now = Date.now();
    const hit = cache.get(id);
    if (hit && now - hit.at < ttlMs) return hit.account;
    if (cache.size > 10_000) cache.clear();
    const account = storage.operators.findById(id);
    cache.set(id, { at: now, account });
    // A failed read is not remembered.
    account.catch(() => cache.delete(id));
    return account;
  };
  return { ...storage, operators: { ...storage.operators, findById } };
}

/**
 * Publishing: the upload workflow (immediate, scheduled, queued, retried), the account-pause and
 * checkpoint-probe workflows it starts, the refresh-ahead workflow of every OAuth account, and the
 * reconciler that starts workflows of uploads stored while Temporal was unreachable. Task queue
 * HERALD_TASK_QUEUE (default `herald`).
 *
 * Notification channels run in the `notify` pool. Their workflow and activities stay registered
 * here for the channel runs started on this queue before that pool existed: such a run finishes
 * here (an activity already scheduled on this queue completes here), or moves to the notify queue
 * at its next delivery (the routed `deliver` signal). See docs/operating.md, "Worker pools".
 */
export const publishPool: WorkerPool = {
  name: 'publish',
  taskQueue: (config) => config.temporal.taskQueue,
  workflows: ['upload', 'accountPause', 'checkpointProbe', 'connectionRefresh'],
  defaultConcurrency: 200,
  async start(ctx) {
    const { config, mongo } = ctx;
    const queue = config.temporal.taskQueue;
    const notifier = await createMongoNotificationOutbox(mongo.db);
    const lifecycle = lifecycleWiring(ctx.temporal, config);
    const notifications = await buildNotifications(config, mongo.db, mongo.storage, ctx.secrets, ctx.temporal);
    const worker = await Worker.create({
      ...ctx.workerOptions(publishPool),
      workflowsPath: require.resolve('../../../workflows/index'),
      // One factory per workflow; the activity names are those recorded in workflow histories.
      activities: {
        ...createUploadActivities({
          storage: withOperatorsCached(mongo.storage), leases: mongo.leases, claims: mongo.claims, platforms: ctx.platforms, secrets: ctx.secrets, notifier, clock: systemClock,
          media: ctx.media.access, mediaFetcher: ctx.media.fetcher, metrics: ctx.metrics, lifecycleSettings: lifecycle.lifecycleSettings,
          pauses: createTemporalAccountPauses(ctx.temporal, { taskQueue: queue }),
          checkpointProbes: createTemporalCheckpointProbes(ctx.temporal, { taskQueue: queue, intervalMs: config.checkpointProbe.intervalMs }),
        }),
        ...createAccountPauseActivities({ storage: mongo.storage, clock: systemClock }),
        ...createCheckpointProbeActivities({ storage: mongo.storage, leases: mongo.leases, platforms: ctx.platforms, secrets: ctx.secrets, clock: systemClock }),
        // Channel runs started on this queue before the notify pool (see above).
        ...createNotificationActivities(notifications),
        ...createConnectionRefreshActivities({ storage: mongo.storage, leases: mongo.leases, platforms: ctx.platforms, secrets: ctx.secrets, notifier, clock: systemClock, ...lifecycle }),
      },
    });
    // Refresh-ahead back-fill: accounts connected before it existed (or while Temporal was away) get their workflow.
    void ensureRefreshAheadForAll({ storage: mongo.storage, platforms: ctx.platforms, refreshes: lifecycle.refreshes })
      .then((accounts) => ctx.log('refresh-ahead ensured', { accounts }), (err: unknown) => ctx.log('refresh-ahead back-fill failed', { error: (err as Error).message }));
    // Uploads stored while Temporal was unreachable get their workflow here (starting is idempotent).
    const reconciler = startPendingReconciler({
      storage: mongo.storage,
      runner: createTemporalUploadRunner(ctx.temporal, { taskQueue: queue, timing: config.uploadTiming }),
      clock: systemClock,
      log: ctx.log,
      ...config.reconciler,
    });
    return { worker, stop: () => reconciler.stop() };
  },
};
