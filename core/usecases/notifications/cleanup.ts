import type { NotificationDeps } from './deps';

/**
 * Periodic cleanup: delivery attempts past their expiry, and outbox events handed out longer than
 * the event retention ago. Both adapters delete hour by hour (no scan): a run removes a bounded
 * amount and the next run goes on.
 */
export async function cleanupNotifications(deps: Pick<NotificationDeps, 'notifications' | 'clock' | 'retentionMs' | 'eventRetentionMs'>): Promise<{ attempts: number; events: number }> {
  const now = deps.clock.now();
  const attempts = await deps.notifications.deliveries.deleteExpired(now);
  const events = await deps.notifications.outbox.deleteHandedBefore(new Date(now.getTime() - (deps.eventRetentionMs ?? deps.retentionMs)));
  return { attempts, events };
}
