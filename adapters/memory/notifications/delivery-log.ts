import type { DeliveryAttemptRecord, NotificationDeliveryLogRepository } from '../../../core/ports/storage/notification-delivery-log';
import { compare, copy } from '../values';

/** Attempts in insertion order; reads sort newest first as the Mongo adapter does (createdAt, then id) and page alike (page or cursor form). */
export function createMemoryNotificationDeliveryLog(): NotificationDeliveryLogRepository {
  let rows: DeliveryAttemptRecord[] = [];
  const newestFirst = (a: DeliveryAttemptRecord, b: DeliveryAttemptRecord) => b.createdAt.getTime() - a.createdAt.getTime() || compare(b.id, a.id);
  return {
    async insert(record) {
      rows.push(copy(record));
    },
    async list(q) {
      const matching = rows.filter((r) => r.accountId === q.accountId
        && (q.event === undefined || r.event === q.event)
        && (q.channel === undefined || r.channel === q.channel)
        && (q.outcome === undefined || r.outcome === q.outcome)
        && (q.deliveryId === undefined || r.deliveryId === q.deliveryId)
        && (q.since === undefined || r.createdAt >= q.since)
        && (q.until === undefined || r.createdAt < q.until)).sort(newestFirst);
      const limit = Math.max(0, Math.floor(q.limit));
      let start = Math.max(0, (Math.max(1, Math.floor(q.page)) - 1) * limit);
      if (q.after) {
        const { t, id } = q.after;
        start = matching.findIndex((r) => r.createdAt.getTime() < t || (r.createdAt.getTime() === t && r.id < id));
        if (start < 0) start = matching.length;
      }
      const items = matching.slice(start, start + limit);
      const last = items[items.length - 1];
      const next = start + limit < matching.length && last
        ? { hour: last.createdAt.toISOString().slice(0, 13), t: last.createdAt.getTime(), id: last.id }
        : undefined;
      return { items: items.map(copy), total: matching.length, ...(next ? { next } : {}) };
    },
    async latest(accountId, deliveryId) {
      const [found] = rows.filter((r) => r.accountId === accountId && r.deliveryId === deliveryId).sort(newestFirst);
      return found ? copy(found) : null;
    },
    async deleteExpired(now) {
      const before = rows.length;
      rows = rows.filter((r) => r.expiresAt > now);
      return before - rows.length;
    },
  };
}
