import type { Db } from 'mongodb';
import type { HeraldEvent, Notifier } from '../../core/ports/notifications';
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
 * The unique delivery key makes a retried activity's second emit a no-op.
 */
export async function createMongoEventOutbox(db: Db): Promise<Notifier & { list(accountId: string): Promise<StoredEvent[]> }> {
  const events = db.collection<StoredEvent>(COLLECTIONS.events);
  await events.createIndex({ deliveryKey: 1 }, { unique: true });
  await events.createIndex({ 'event.account_id': 1, createdAt: -1 });
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
  };
}
