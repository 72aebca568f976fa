import type { Db, Document } from 'mongodb';
import type { MediaUsageEntry } from '../../core/domain/media-job';
import type { MediaUsageRepository } from '../../core/ports/storage/media-usage';
import { bucketPage, bucketsOf } from './bucket-list';
import { ensureIndexes, mapDuplicate, strip, type IdDoc } from './collections';
import { listCountersFor, type CounterDelta, type ListCounters } from './list-counters';

/** The media-minute ledger (`_id` = job id). */
export const MEDIA_USAGE_COLLECTION = 'media_usage';

/**
 * The month of an account (docs/storage/lists.md): list id `mu|<account>|<YYYY-MM>` (a list per
 * month: the quota check and the consumption read touch only the current month's counter
 * documents, one per writer), sorted by createdAt. Lanes, per hour of the entry's creation:
 * - `reserved`: seconds of the entries whose job has not ended (`by` = seconds),
 * - `settled`: seconds of the settled entries (`by` = seconds),
 * - `requests`: entries (`by` = 1), the lane the history pages walk.
 * An entry carries its bucket keys `uk` = `mu|<account>|<YYYY-MM>#<bucket>` for the month, day
 * and hour of its creation (bucket-list.ts reads whichever a page needs).
 */
export const mediaUsageList = (accountId: string, month: string): string => `mu|${encodeURIComponent(accountId)}|${month}`;
const USAGE_STORAGE_ONLY = ['uk'];

type Listed = Pick<MediaUsageEntry, 'accountId' | 'month' | 'seconds' | 'settled' | 'createdAt'>;

/** The list keys of a stored entry document. */
export const mediaUsageListKeys = (entry: Pick<MediaUsageEntry, 'accountId' | 'month' | 'createdAt'>): { uk: string[] } =>
  ({ uk: bucketsOf(entry.createdAt).map((b) => `${mediaUsageList(entry.accountId, entry.month)}#${b}`) });

/** The stored document of a new entry (the repository's reserve, the scale bench's seeding). */
export const toMediaUsageDoc = (entry: MediaUsageEntry): IdDoc => ({ ...entry, _id: entry.jobId, ...mediaUsageListKeys(entry) });

/** The counter deltas of an entry entering (+1) or leaving (-1) its month; a stored document will do. */
export function mediaUsageCounterDeltas(entry: Listed | Document, by = 1): CounterDelta[] {
  const list = mediaUsageList(String(entry.accountId), String(entry.month));
  const at = entry.createdAt as Date;
  return [
    { list, lane: entry.settled === true ? 'settled' : 'reserved', at, by: by * Number(entry.seconds ?? 0) },
    { list, lane: 'requests', at, by },
  ];
}

/** Migration: the list keys an entry document written before them lacks (null when it has them). */
export function backfillMediaUsage(doc: Document): { $set: Document } | null {
  if (typeof doc.accountId !== 'string' || typeof doc.month !== 'string' || !(doc.createdAt instanceof Date)) return null;
  const keys = mediaUsageListKeys({ accountId: doc.accountId, month: doc.month, createdAt: doc.createdAt });
  return Array.isArray(doc.uk) && doc.uk.length === keys.uk.length && doc.uk.every((k: unknown, i: number) => k === keys.uk[i]) ? null : { $set: keys };
}

const fromUsageDoc = (d: Document): MediaUsageEntry => ({ ...strip(d, ...USAGE_STORAGE_ONLY), jobId: d._id }) as unknown as MediaUsageEntry;
const listedOf = (d: Document): Listed => ({ accountId: d.accountId, month: d.month, seconds: Number(d.seconds ?? 0), settled: d.settled === true, createdAt: d.createdAt });

/**
 * The ledger. Its writes keep the counters so that a crash between the two can only leave a
 * month's total too high, never too low (docs/storage/lists.md): an entry is counted before it is
 * inserted and uncounted after it is deleted; a settlement (never more than the reservation)
 * moves its seconds from `reserved` to `settled` after the entry is written.
 */
export async function createMongoMediaUsage(db: Db, counters?: ListCounters): Promise<MediaUsageRepository> {
  counters ??= await listCountersFor(db);
  const entries = db.collection<IdDoc>(MEDIA_USAGE_COLLECTION);
  await ensureIndexes(entries, [{ key: { uk: 1 }, name: 'uk' }]);
  return {
    async reserve(entry) {
      await counters.add(mediaUsageCounterDeltas(entry));
      try {
        await mapDuplicate('media usage entry', () => entries.insertOne(toMediaUsageDoc(entry)));
      } catch (err) {
        await counters.add(mediaUsageCounterDeltas(entry, -1));
        throw err;
      }
    },
    async totals(accountId, month) {
      const counts = await counters.hours(mediaUsageList(accountId, month));
      const sum = (lane: string) => [...(counts.get(lane)?.values() ?? [])].reduce((n, c) => n + c, 0);
      return { reservedSeconds: sum('reserved'), settledSeconds: sum('settled'), requests: sum('requests') };
    },
    async history(accountId, month, page) {
      const list = mediaUsageList(accountId, month);
      const found = await bucketPage({
        counts: await counters.hours(list), lane: 'requests', limit: Math.max(0, Math.floor(page.limit)),
        ...(page.after ? { after: page.after } : { offset: page.skip ?? 0 }),
        read: (bucket) => entries.find({ uk: `${list}#${bucket}` }).toArray(),
        position: (d: Document) => ({ t: (d.createdAt as Date).getTime(), id: d._id as string }),
      });
      return { items: found.items.map(fromUsageDoc), total: found.total, ...(found.next ? { next: found.next } : {}) };
    },
    async settle(jobId, seconds) {
      // FerretDB's findAndModify takes no projection: the whole entry comes back (a small document).
      const before = await entries.findOneAndUpdate({ _id: jobId }, { $set: { seconds, settled: true } }, { returnDocument: 'before' });
      if (!before) return;
      const was = listedOf(before);
      await counters.add([...mediaUsageCounterDeltas(was, -1), ...mediaUsageCounterDeltas({ ...was, seconds, settled: true })]);
    },
    async release(jobId) {
      const gone = await entries.findOneAndDelete({ _id: jobId });
      if (gone) await counters.add(mediaUsageCounterDeltas(listedOf(gone), -1));
    },
  };
}
