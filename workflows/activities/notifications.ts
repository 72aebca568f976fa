import { Context } from '@temporalio/activity';
import { deliverBatch, recordSkipped } from '../../core/usecases/notifications/delivery';
import type { NotificationDeps } from '../../core/usecases/notifications/deps';
import type { DeliveryOutcome } from '../../core/ports/storage/notification-delivery-log';

/**
 * The activities of the notification channel workflow (their names are recorded in workflow
 * histories). An attempt heartbeats while the receiver is awaited, so a worker killed mid-delivery
 * is noticed within the heartbeat timeout and the attempt runs again elsewhere, same delivery id.
 */
export function createNotificationActivities(deps: NotificationDeps) {
  return {
    /**
     * A batch of one channel's deliveries in order, stopping at the first failure. Progress is
     * heartbeated: a retry after a worker died resumes after the last delivery it finished.
     */
    async deliverNotifications(input: { channelId: string; deliveries: Array<{ deliveryId: string; eventKey: string }>; heartbeatTimeoutMs: number }): Promise<DeliveryOutcome[]> {
      const context = Context.current();
      const done = (context.info.heartbeatDetails as DeliveryOutcome[] | undefined) ?? [];
      let latest = done;
      const beat = setInterval(() => context.heartbeat(latest), Math.max(200, Math.floor(input.heartbeatTimeoutMs / 3)));
      try {
        return await deliverBatch(deps, input, done, (outcomes) => {
          latest = [...outcomes];
          context.heartbeat(latest);
        });
      } finally {
        clearInterval(beat);
      }
    },
    async recordSkippedNotifications(input: { channelId: string; deliveries: Array<{ deliveryId: string; eventKey: string }>; pausedUntil: string }): Promise<void> {
      for (const d of input.deliveries) await recordSkipped(deps, { channelId: input.channelId, ...d, pausedUntil: input.pausedUntil });
    },
  };
}

export type NotificationActivities = ReturnType<typeof createNotificationActivities>;
