import type { Db, Filter } from 'mongodb';
import type { DeliveryAttemptRecord, DeliveryLogRepository } from '../../core/ports/storage/delivery-log';
import { COLLECTIONS, ensureIndexes, fromIdDoc, toIdDoc, type IdDoc } from './collections';

/**
 * The delivery log, one document per attempt (`_id` = attempt id), so concurrent attempts never
 * update one document. Expiry is a field plus the worker's periodic cleanup: FerretDB has no TTL
 * indexes. Reads are by account (newest first) and by account + delivery id (equality).
 */
export async function createMongoDeliveryLog(db: Db): Promise<DeliveryLogRepository> {
  const col = db.collection<IdDoc>(COLLECTIONS.deliveryAttempts);
  await ensureIndexes(col, [
    { key: { accountId: 1, createdAt: -1 }, name: 'accountId_createdAt' },
    { key: { accountId: 1, deliveryId: 1 }, name: 'accountId_deliveryId' },
    { key: { expiresAt: 1 }, name: 'expiresAt' },
  ]);
  return {
    async insert(record) {
      await col.insertOne(toIdDoc(record));
    },
    async list(q) {
      const filter: Filter<IdDoc> = { accountId: q.accountId };
      if (q.event !== undefined) filter.event = q.event;
      if (q.channel !== undefined) filter.channel = q.channel;
      if (q.outcome !== undefined) filter.outcome = q.outcome;
      if (q.deliveryId !== undefined) filter.deliveryId = q.deliveryId;
      if (q.since !== undefined || q.until !== undefined) {
        filter.createdAt = { ...(q.since !== undefined ? { $gte: q.since } : {}), ...(q.until !== undefined ? { $lt: q.until } : {}) };
      }
      const docs = await col.find(filter).sort({ createdAt: -1, _id: -1 }).skip((q.page - 1) * q.limit).limit(q.limit + 1).toArray();
      return { items: docs.slice(0, q.limit).map((d) => fromIdDoc<DeliveryAttemptRecord>(d)!), hasMore: docs.length > q.limit };
    },
    async latest(accountId, deliveryId) {
      const [doc] = await col.find({ accountId, deliveryId }).sort({ createdAt: -1, _id: -1 }).limit(1).toArray();
      return fromIdDoc<DeliveryAttemptRecord>(doc ?? null);
    },
    async deleteExpired(now) {
      return (await col.deleteMany({ expiresAt: { $lte: now } })).deletedCount;
    },
  };
}
