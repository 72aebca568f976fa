import type { Db } from 'mongodb';
import type { HeraldEvent, Notifier } from '../../core/ports/notifications';
import type { EventOutboxRepository } from '../../core/ports/storage/event-outbox';
import { COLLECTIONS, isDuplicateKey } from './collections';

export interface StoredEvent {
  deliveryKey: string;
  event: HeraldEvent;
  createdAt: Date;
  /** Set by the webhook deliverer once the event is handed to every channel. */
  deliveredAt: Date | null;
}

/**
 * Events go to an outbox collection first; delivery to webhooks and chat channels reads it.
 * The unique delivery key makes a retried activity's second emit a no-op. The dispatcher reads
 * pending events by equality (`deliveredAt: null`, oldest first) and marks each one handed: one
 * writer per document.
 */
export async function createMongoEventOutbox(db: Db): Promise<Notifier & EventOutboxRepository & { list(accountId: string): Promise<StoredEvent[]> }> {
  const events = db.collection<StoredEvent>(COLLECTIONS.events);
  await events.createIndex({ deliveryKey: 1 }, { unique: true });
  await events.createIndex({ 'event.account_id': 1, createdAt: -1 });
  await events.createIndex({ deliveredAt: 1, createdAt: 1 });
  return {
    async emit(event: HeraldEvent, deliveryKey: string): Promise<void> {
      try {
        await events.insertOne({ deliveryKey, event, createdAt: new Date(), deliveredAt: null });
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    },
    async list(accountId: string): Promise<StoredEvent[]> {
      const docs = await events.find({ 'event.account_id': accountId }, { projection: { _id: 0 } }).sort({ createdAt: 1 }).toArray();
      return docs as StoredEvent[];
    },
    async pending(limit) {
      const docs = await events.find({ deliveredAt: null }, { projection: { _id: 0 } }).sort({ createdAt: 1 }).limit(limit).toArray();
      return docs.map((d) => ({ key: d.deliveryKey, event: d.event, createdAt: d.createdAt }));
    },
    async markHanded(key, now) {
      await events.updateOne({ deliveryKey: key }, { $set: { deliveredAt: now } });
    },
    async find(key) {
      const doc = await events.findOne({ deliveryKey: key }, { projection: { _id: 0 } });
      return doc ? { key: doc.deliveryKey, event: doc.event, createdAt: doc.createdAt } : null;
    },
    async deleteHandedBefore(before) {
      return (await events.deleteMany({ deliveredAt: { $lt: before } })).deletedCount;
    },
  };
}
