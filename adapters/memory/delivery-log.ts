import type { DeliveryAttemptRecord, DeliveryLogRepository } from '../../core/ports/storage/delivery-log';
import { compare, copy } from './values';

/** Attempts in insertion order; reads sort newest first as the Mongo adapter does (createdAt, then id). */
export function createMemoryDeliveryLog(): DeliveryLogRepository {
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
      const start = (q.page - 1) * q.limit;
      return { items: matching.slice(start, start + q.limit).map(copy), hasMore: matching.length > start + q.limit };
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
