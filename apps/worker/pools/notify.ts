import { Worker } from '@temporalio/worker';
import { createNotificationActivities } from '../../../workflows/activities/notifications';
import { buildNotifications } from '../../shared/notifications';
import { startNotificationDispatcher } from '../notification-dispatcher';
import type { WorkerPool } from '../pool-types';

/**
 * Notifications: the breaker workflow of every notification channel (`webhook:<channel>`: the
 * account webhook, profile webhooks, Telegram and Slack chats) with its deliveries, and the
 * outbox dispatcher that hands events to them, plus the delivery log cleanup. Task queue
 * HERALD_NOTIFY_TASK_QUEUE (default `<HERALD_TASK_QUEUE>-notify`); deliveries wait on receivers
 * (up to HERALD_WEBHOOK_TIMEOUT_MS each), not on the CPU (HERALD_POOL_NOTIFY_CONCURRENCY).
 * `notify` is the pool's configured name (HERALD_WORKER_POOLS), so this file keeps it (pools/<name>.ts).
 */
export const notifyPool: WorkerPool = {
  name: 'notify',
  taskQueue: (config) => config.notifications.taskQueue,
  workflows: ['notificationChannel'],
  defaultConcurrency: 50,
  async start(ctx) {
    const { config, mongo } = ctx;
    const notifications = await buildNotifications(config, mongo.db, mongo.storage, ctx.secrets, ctx.temporal);
    const worker = await Worker.create({
      ...ctx.workerOptions(notifyPool),
      // Bundled apart: this queue runs the channel workflow only.
      workflowsPath: require.resolve('../../../workflows/notification-channel.workflow'),
      activities: createNotificationActivities(notifications),
    });
    // The notification outbox → each channel's breaker workflow, on this pool's queue.
    const dispatcher = startNotificationDispatcher({ deps: notifications, log: ctx.log, pollMs: config.notifications.pollMs, cleanupIntervalMs: config.notifications.cleanupIntervalMs });
    return { worker, stop: () => dispatcher.stop() };
  },
};
