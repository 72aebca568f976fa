import type { Db, Document } from 'mongodb';
import type { PagePosition } from '../../../core/domain/page-cursor';
import type { DeliveryAttemptRecord, NotificationDeliveryLogQuery, NotificationDeliveryLogRepository } from '../../../core/ports/storage/notification-delivery-log';
import type { ListPage } from '../../../core/ports/storage/uploads';
import { bucketPage, bucketsOf } from '../bucket-list';
import { COLLECTIONS, ensureIndexes, fromIdDoc, toIdDoc } from '../collections';
import { expiryHour, expirySweep, type HourSweepOptions } from '../hour-sweep';
import { hourBucket, listCountersFor, type CounterDelta, type ListCounters } from '../list-counters';

/**
 * The delivery log's lists (docs/storage/lists.md, "The delivery log"). Every attempt is in the
 * lists of each combination of the route's equality filters event, channel and outcome
 * (`d|<account>|<event or empty>|<channel or empty>|<outcome or empty>`: 8 lists), sorted by
 * createdAt, lane `all`. Its keys `<list>#<createdAt month, day and hour>` are `dk`. The date range
 * (`since`/`until`) is the page walker's `from`/`to` over those lists.
 *
 * `delivery_id` is an exact filter: the attempts of one delivery are read by equality
 * (`accountId`, `deliveryId`) and filtered and paged here. They are bounded by what makes
 * attempts of one delivery: one automatic attempt when its channel's breaker workflow sends it
 * (or a `skipped` row when the breaker is open or the channel off), plus one per redelivery an
 * operator asks for by hand; not by the account's history.
 *
 * Expiry: `xh` (the hour of `expiresAt`), deleted hour by hour (adapters/mongo/hour-sweep.ts);
 * each deleted attempt is uncounted from its lists by the process that deleted it.
 */
const enc = encodeURIComponent;

/** The version of the list keys an attempt document carries (`lv`); the migration fills older ones. */
export const DELIVERY_LIST_VERSION = 1;
const STORAGE_ONLY = ['dk', 'xh', 'lv'];

type Listed = Pick<DeliveryAttemptRecord, 'accountId' | 'event' | 'channel' | 'outcome' | 'createdAt'>;

export const deliveryList = (accountId: string, f: { event?: string | undefined; channel?: string | undefined; outcome?: string | undefined } = {}): string =>
  `d|${enc(accountId)}|${f.event !== undefined ? enc(f.event) : ''}|${f.channel ?? ''}|${f.outcome ?? ''}`;

/** The 8 lists an attempt is in: each of event, channel, outcome given or not. */
export function deliveryLists(r: Listed): string[] {
  const out: string[] = [];
  for (const event of [undefined, r.event]) for (const channel of [undefined, r.channel]) for (const outcome of [undefined, r.outcome]) {
    out.push(deliveryList(r.accountId, { event, channel, outcome }));
  }
  return out;
}

/**
 * The counter deltas of an attempt entering its lists (`by` +1; -1 when it leaves them). Takes a
 * record or a stored document (the same field names): the migration counts existing attempts
 * with it, the scale bench the seeded ones.
 */
export function deliveryAttemptCounterDeltas(r: Listed, by = 1): CounterDelta[] {
  return deliveryLists(r).map((list) => ({ list, lane: 'all', at: r.createdAt, by }));
}

/** The list and expiry keys of an attempt (insert, migration). */
function deliveryKeys(r: Listed & Pick<DeliveryAttemptRecord, 'expiresAt'>): Document {
  // Month, day and hour keys of each list: bucket-list.ts reads whichever size the page needs.
  const buckets = bucketsOf(r.createdAt);
  return { lv: DELIVERY_LIST_VERSION, dk: deliveryLists(r).flatMap((list) => buckets.map((b) => `${list}#${b}`)), xh: expiryHour(r.expiresAt) };
}

/** The stored document of an attempt (the repository's insert, the scale bench's seeding). */
export function toDeliveryAttemptDoc(record: DeliveryAttemptRecord): Document {
  return { ...toIdDoc(record), ...deliveryKeys(record) };
}

/**
 * The migration's keys for an attempt document written before the lists (no `lv`): `{ $set }` of
 * `dk`, `xh` and `lv`, or null when the document has them. Count it with
 * `deliveryAttemptCounterDeltas(doc)` (or recount the lists).
 */
export function backfillDeliveryAttempt(doc: Document): { $set: Document } | null {
  if (doc.lv === DELIVERY_LIST_VERSION) return null;
  if (!(doc.createdAt instanceof Date) || !(doc.expiresAt instanceof Date) || typeof doc.accountId !== 'string') return null;
  return { $set: deliveryKeys(doc as unknown as Listed & Pick<DeliveryAttemptRecord, 'expiresAt'>) };
}

const fromDoc = (d: Document): DeliveryAttemptRecord => {
  const record = fromIdDoc<DeliveryAttemptRecord>(d)! as unknown as Record<string, unknown>;
  for (const field of STORAGE_ONLY) delete record[field];
  return record as unknown as DeliveryAttemptRecord;
};
const positionOf = (r: DeliveryAttemptRecord) => ({ t: r.createdAt.getTime(), id: r.id });
const newestFirst = (a: DeliveryAttemptRecord, b: DeliveryAttemptRecord) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

function matches(r: DeliveryAttemptRecord, q: NotificationDeliveryLogQuery): boolean {
  return (q.event === undefined || r.event === q.event)
    && (q.channel === undefined || r.channel === q.channel)
    && (q.outcome === undefined || r.outcome === q.outcome)
    && (q.since === undefined || r.createdAt.getTime() >= q.since.getTime())
    && (q.until === undefined || r.createdAt.getTime() < q.until.getTime());
}

/** A page of records already in memory (the attempts of one delivery), newest first, page or cursor form. */
export function pageOfAttempts(records: DeliveryAttemptRecord[], q: Pick<NotificationDeliveryLogQuery, 'page' | 'limit' | 'after'>): ListPage<DeliveryAttemptRecord> {
  const all = [...records].sort(newestFirst);
  const limit = Math.max(0, Math.floor(q.limit));
  let from = Math.max(0, (Math.max(1, Math.floor(q.page)) - 1) * limit);
  if (q.after) {
    const after: PagePosition = q.after;
    from = all.findIndex((r) => r.createdAt.getTime() < after.t || (r.createdAt.getTime() === after.t && r.id < after.id));
    if (from < 0) from = all.length;
  }
  const items = all.slice(from, from + limit);
  const last = items[items.length - 1];
  const next = from + limit < all.length && last ? { hour: hourBucket(last.createdAt), ...positionOf(last) } : undefined;
  return { items, total: all.length, ...(next ? { next } : {}) };
}

/**
 * The delivery log, one document per attempt (`_id` = attempt id), so concurrent attempts never
 * update one document. Lists in hour buckets with per-writer counters (above); expiry is `xh`
 * plus the worker's hour-by-hour cleanup (FerretDB has no TTL indexes).
 */
export async function createMongoNotificationDeliveryLog(db: Db, opts: { counters?: ListCounters; sweep?: HourSweepOptions } = {}): Promise<NotificationDeliveryLogRepository> {
  const counters = opts.counters ?? await listCountersFor(db);
  const col = db.collection<Document>(COLLECTIONS.deliveryAttempts);
  await ensureIndexes(col, [
    { key: { accountId: 1, deliveryId: 1 }, name: 'accountId_deliveryId' },
    // The list and expiry keys (FerretDB: the GIN indexes of ops/ferretdb-tune.sh serve their equalities).
    { key: { dk: 1 }, name: 'dk' },
    { key: { xh: 1 }, name: 'xh' },
  ]);
  const ofDelivery = async (accountId: string, deliveryId: string) => (await col.find({ accountId, deliveryId }).toArray()).map(fromDoc);
  const sweep = expirySweep(db, col, {
    ...opts.sweep,
    projection: { _id: 1, expiresAt: 1, accountId: 1, event: 1, channel: 1, outcome: 1, createdAt: 1 },
    onDeleted: (docs) => counters.add(docs.flatMap((d) => deliveryAttemptCounterDeltas(d as unknown as Listed, -1))),
  });
  return {
    async insert(record) {
      // Counted before it is stored, uncounted if the insert fails: a count is never too low.
      const deltas = deliveryAttemptCounterDeltas(record);
      await counters.add(deltas);
      try {
        await col.insertOne(toDeliveryAttemptDoc(record));
      } catch (err) {
        await counters.add(deltas.map((d) => ({ ...d, by: -d.by })));
        throw err;
      }
    },
    async list(q) {
      if (q.deliveryId !== undefined) {
        // The attempts of one delivery (bounded, see above), filtered and paged here.
        return pageOfAttempts((await ofDelivery(q.accountId, q.deliveryId)).filter((r) => matches(r, q)), q);
      }
      const list = deliveryList(q.accountId, q);
      const limit = Math.max(0, Math.floor(q.limit));
      const page = await bucketPage({
        counts: await counters.hours(list), lane: 'all', limit,
        ...(q.since ? { from: q.since } : {}),
        // `until` is exclusive, the walker's `to` inclusive (times are whole milliseconds).
        ...(q.until ? { to: new Date(q.until.getTime() - 1) } : {}),
        ...(q.after ? { after: q.after } : { offset: (Math.max(1, Math.floor(q.page)) - 1) * limit }),
        read: async (bucket) => (await col.find({ dk: `${list}#${bucket}` }).toArray()).map(fromDoc),
        position: positionOf,
      });
      return { items: page.items, total: page.total, ...(page.next ? { next: page.next } : {}) };
    },
    async latest(accountId, deliveryId) {
      const [newest] = (await ofDelivery(accountId, deliveryId)).sort(newestFirst);
      return newest ?? null;
    },
    deleteExpired: (now) => sweep(now),
  };
}
