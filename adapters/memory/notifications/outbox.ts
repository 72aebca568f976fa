import type { HeraldEvent, Notifier } from '../../../core/ports/notifications';
import type { NotificationOutboxRepository, OutboxEvent } from '../../../core/ports/storage/notification-outbox';
import { copy } from '../values';

/** The outbox in memory, both sides: emit (Notifier) and the dispatcher's reads. */
export function createMemoryNotificationOutbox(clock: { now(): Date } = { now: () => new Date() }): Notifier & NotificationOutboxRepository & { events(): HeraldEvent[] } {
  const stored = new Map<string, OutboxEvent & { handedAt: Date | null }>();
  return {
    async emit(event: HeraldEvent, deliveryKey: string) {
      if (stored.has(deliveryKey)) return;
      stored.set(deliveryKey, { key: deliveryKey, event: copy(event), createdAt: clock.now(), handedAt: null });
    },
    events: () => [...stored.values()].map((e) => copy(e.event)),
    async pending(limit) {
      return [...stored.values()].filter((e) => e.handedAt === null).slice(0, limit).map(({ key, event, createdAt }) => copy({ key, event, createdAt }));
    },
    async markHanded(keys, now) {
      for (const key of keys) {
        const found = stored.get(key);
        if (found) found.handedAt = now;
      }
    },
    async find(key) {
      const found = stored.get(key);
      return found ? copy({ key: found.key, event: found.event, createdAt: found.createdAt }) : null;
    },
    async deleteHandedBefore(before) {
      let n = 0;
      for (const [key, e] of stored) {
        if (e.handedAt !== null && e.handedAt < before) {
          stored.delete(key);
          n += 1;
        }
      }
      return n;
    },
  };
}
