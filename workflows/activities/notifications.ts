import { Context } from '@temporalio/activity';
import { deliverToChannel, recordSkipped, type DeliverInput, type NotificationDeps } from '../../core/usecases/notifications';

/**
 * The activities of the notification channel workflow (their names are recorded in workflow
 * histories). An attempt heartbeats while the receiver is awaited, so a worker killed mid-delivery
 * is noticed within the heartbeat timeout and the attempt runs again elsewhere, same delivery id.
 */
export function createNotificationActivities(deps: NotificationDeps) {
  return {
    async deliverNotification(input: DeliverInput & { heartbeatTimeoutMs?: number }): Promise<{ outcome: 'delivered' | 'failed' | 'skipped' }> {
      const context = Context.current();
      const beat = setInterval(() => context.heartbeat(), Math.max(200, Math.floor((input.heartbeatTimeoutMs ?? 3000) / 3)));
      try {
        const { outcome } = await deliverToChannel(deps, { channelId: input.channelId, deliveryId: input.deliveryId, eventKey: input.eventKey });
        return { outcome };
      } finally {
        clearInterval(beat);
      }
    },
    async recordSkippedNotification(input: DeliverInput & { pausedUntil: string }): Promise<void> {
      await recordSkipped(deps, input);
    },
  };
}

export type NotificationActivities = ReturnType<typeof createNotificationActivities>;
