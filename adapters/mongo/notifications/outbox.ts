import type { Db, Document } from 'mongodb';
import type { HeraldEvent, Notifier } from '../../../core/ports/notifications';
import type { NotificationOutboxRepository, OutboxEvent } from '../../../core/ports/storage/notification-outbox';
import { COLLECTIONS, isDuplicateKey, retryDuplicateUpsert } from '../collections';
import { createHourSweep, HOUR_SWEEPS, hourStart, nextHour, type HourSweepOptions } from '../hour-sweep';
import { hourBucket } from '../list-counters';

export interface StoredEvent {
  deliveryKey: string;
  event: HeraldEvent;
  createdAt: Date;
  /** Set by the notification dispatcher once the event is handed to every channel. */
  deliveredAt: Date | null;
  /** While pending: the hour of createdAt (`YYYY-MM-DDTHH`), the dispatcher's equality key. */
  pk?: string;
  /** Once handed: the hour of deliveredAt, the cleanup's equality key. */
  hh?: string;
}

/** The cursor of the pending walk in `hour_sweeps`: the last hour known to hold no pending event. */
export const PENDING_CURSOR = 'events:pending';
const HANDED_SWEEP = 'events:hh';
const HOUR_MS = 3600_000;
/**
 * The pending walk leaves an hour behind only this long after it ended: an event is stamped with
 * its emitter's clock, so one emitted a little before the hour ended (or by a process whose clock
 * is a little behind) may be stored after it.
 */
const SETTLE_MS = 15 * 60_000;
/** Where the pending walk starts without a cursor (a first start: events of today's code are newer). */
const PENDING_LOOKBACK_HOURS = 7 * 24;

const outboxEvent = (d: Document): OutboxEvent => ({ key: d.deliveryKey, event: d.event, createdAt: d.createdAt });
const oldestFirst = (a: Document, b: Document) => (a.createdAt as Date).getTime() - (b.createdAt as Date).getTime() || String(a.deliveryKey).localeCompare(String(b.deliveryKey));

/**
 * The stored document of an event (the repository's emit; tests and benches that write events
 * directly): pending with its hour key `pk`, or, given `handedAt`, handed with `hh`.
 */
export function toOutboxEventDoc(event: HeraldEvent, deliveryKey: string, createdAt: Date, handedAt: Date | null = null): StoredEvent {
  return handedAt
    ? { deliveryKey, event, createdAt, deliveredAt: handedAt, hh: hourBucket(handedAt) }
    : { deliveryKey, event, createdAt, deliveredAt: null, pk: hourBucket(createdAt) };
}

/**
 * The migration's keys for an event written before them: `pk` on a pending one, `hh` on a handed
 * one; null when it has its key. Events are not counted (no counter deltas).
 */
export function backfillEvent(doc: Document): { $set: { pk: string } | { hh: string } } | null {
  if (doc.deliveredAt === null || doc.deliveredAt === undefined) {
    return doc.pk === undefined && doc.createdAt instanceof Date ? { $set: { pk: hourBucket(doc.createdAt) } } : null;
  }
  return doc.hh === undefined && doc.deliveredAt instanceof Date ? { $set: { hh: hourBucket(doc.deliveredAt) } } : null;
}

/**
 * Events go to an outbox collection first; delivery to webhooks and chat channels reads it.
 * The unique delivery key makes a retried activity's second emit a no-op.
 *
 * Pending events carry `pk` (their hour) until handed; the dispatcher walks those hours oldest
 * first from the last hour known to be empty (`hour_sweeps` `events:pending`, kept in the process
 * too) up to now, reading at most `limit` events an hour (one equality query each). A round thus
 * costs one query per hour from the oldest hour that still holds a pending event to now (one or two
 * when the outbox keeps up) and at most `limit` documents, however many events are stored.
 * Within an hour events come in stored order (insertion order on FerretDB), sorted by createdAt.
 *
 * A handed event drops `pk` and gets `hh` (the hour of the hand-over): the cleanup deletes by that
 * key hour by hour (adapters/mongo/hour-sweep.ts). Marking is one writer per document.
 */
export async function createMongoNotificationOutbox(db: Db, opts: { sweep?: HourSweepOptions } = {}): Promise<Notifier & NotificationOutboxRepository & { list(accountId: string): Promise<StoredEvent[]> }> {
  const events = db.collection<Document>(COLLECTIONS.events);
  const cursors = db.collection<Document>(HOUR_SWEEPS);
  await events.createIndex({ deliveryKey: 1 }, { unique: true });
  // The pending walk's and the cleanup's keys (FerretDB: the GIN indexes of ops/ferretdb-tune.sh).
  await events.createIndex({ pk: 1 }, { name: 'pk' });
  await events.createIndex({ hh: 1 }, { name: 'hh' });
  const sweepHanded = createHourSweep(db, {
    name: HANDED_SWEEP, col: events, field: 'hh', projection: { _id: 1, deliveredAt: 1 },
    due: (d, before) => d.deliveredAt instanceof Date && d.deliveredAt.getTime() < before.getTime(),
  }, opts.sweep);
  /** The first hour that may hold a pending event (this process's view; null until read). */
  let from: string | null = null;
  return {
    async emit(event: HeraldEvent, deliveryKey: string): Promise<void> {
      try {
        await events.insertOne(toOutboxEventDoc(event, deliveryKey, new Date()));
      } catch (err) {
        if (!isDuplicateKey(err)) throw err;
      }
    },
    /**
     * Test-only (the contract tests and e2e checks of what was emitted): an account's events,
     * oldest first, at most 1,000. No request or background path reads it.
     */
    async list(accountId: string): Promise<StoredEvent[]> {
      const docs = await events.find({ 'event.account_id': accountId }, { projection: { _id: 0, pk: 0, hh: 0 } }).limit(1000).toArray();
      return docs.sort(oldestFirst) as unknown as StoredEvent[];
    },
    async pending(limit) {
      const n = Math.max(0, Math.floor(limit));
      if (n === 0) return [];
      const now = Date.now();
      const current = hourBucket(new Date(now));
      if (from === null) {
        const cursor = await cursors.findOne({ _id: PENDING_CURSOR as unknown as Document['_id'] });
        from = cursor ? nextHour(cursor.hour as string) : hourBucket(new Date(now - PENDING_LOOKBACK_HOURS * HOUR_MS));
      }
      const found: Document[] = [];
      let settled: string | null = null;
      let empty = true;
      for (let hour = from; hour <= current && found.length < n; hour = nextHour(hour)) {
        const docs = await events.find({ pk: hour }, { projection: { _id: 0 } }).limit(n - found.length).toArray();
        found.push(...docs.filter((d) => d.deliveredAt === null).sort(oldestFirst));
        if (empty && docs.length === 0 && hourStart(hour) + HOUR_MS + SETTLE_MS <= now) settled = hour;
        else empty = false;
      }
      if (settled !== null) {
        const last = settled;
        from = nextHour(last);
        await retryDuplicateUpsert(() => cursors.updateOne({ _id: PENDING_CURSOR as unknown as Document['_id'] }, { $max: { hour: last } }, { upsert: true }));
      }
      return found.map(outboxEvent);
    },
    async markHanded(keys, now) {
      // One command for the round (each statement an equality update of one event).
      const update = { $set: { deliveredAt: now, hh: hourBucket(now) }, $unset: { pk: '' } };
      for (let i = 0; i < keys.length; i += 500) {
        await events.bulkWrite(keys.slice(i, i + 500).map((key) => ({ updateOne: { filter: { deliveryKey: key }, update } })), { ordered: false });
      }
    },
    async find(key) {
      const doc = await events.findOne({ deliveryKey: key }, { projection: { _id: 0 } });
      return doc ? outboxEvent(doc) : null;
    },
    deleteHandedBefore: (before) => sweepHanded(before),
  };
}
