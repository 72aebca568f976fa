import type { NotificationChannelQueue } from '../../core/ports/notification-channels';
import { cleanupNotifications } from '../../core/usecases/notifications/cleanup';
import type { NotificationDeps } from '../../core/usecases/notifications/deps';
import { dispatchPendingEvents } from '../../core/usecases/notifications/dispatch';

const BATCH = 100;

/**
 * Reads the notification outbox and hands each event to its channels' breaker workflows (at least once:
 * an event is marked handed only after every channel has it). A full batch is followed at once by
 * the next; otherwise the outbox is read again after `pollMs`. A round reads at most BATCH pending
 * events, by the hour keys of the pending ones (adapters/mongo/notifications/outbox.ts), never the handed
 * history. Also removes delivery attempts and handed events past retention every
 * `cleanupIntervalMs`, hour by hour, a bounded amount per run (FerretDB has no TTL indexes).
 */
export function startNotificationDispatcher(opts: {
  deps: NotificationDeps & { queue: NotificationChannelQueue };
  log: (message: string, fields: Record<string, unknown>) => void;
  pollMs: number;
  cleanupIntervalMs: number;
}): { stop(): Promise<void> } {
  let stopped = false;
  let wake: (() => void) | undefined;
  const sleep = (ms: number) => new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    wake = () => { clearTimeout(timer); resolve(); };
  });
  let lastCleanup = 0;
  const loop = (async () => {
    while (!stopped) {
      let handed = 0;
      try {
        handed = await dispatchPendingEvents(opts.deps, BATCH);
        if (Date.now() - lastCleanup >= opts.cleanupIntervalMs) {
          lastCleanup = Date.now();
          const removed = await cleanupNotifications(opts.deps);
          if (removed.attempts || removed.events) opts.log('notification cleanup', { attempts_removed: removed.attempts, events_removed: removed.events });
        }
      } catch (err) {
        opts.log('notification dispatch failed (retrying)', { error: (err as Error).message });
      }
      if (handed < BATCH && !stopped) await sleep(opts.pollMs);
    }
  })();
  return {
    async stop() {
      stopped = true;
      wake?.();
      await loop;
    },
  };
}
