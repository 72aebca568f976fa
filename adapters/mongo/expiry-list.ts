import type { Collection, Document } from 'mongodb';
import { hourBucket, laneHours, type CounterDelta, type ListCounters } from './list-counters';

/**
 * Expiry without a scan (FerretDB has no TTL indexes and evaluates `expiresAt <= now` over every
 * document of a collection): a document that expires carries `xk` = `x|<collection>#<due hour>`
 * and is counted in the list `x|<collection>` at that hour (docs/storage/lists.md). The due hour
 * is the hour (or, coarser, the last hour of the UTC day or month) in which the document's
 * expiresAt falls, expiresAt itself excluded; once it has passed, every document of its bucket is
 * due. The cleanup reads the list's counters, then only the buckets of the hours that have
 * passed, each once, by equality: its cost is what expired, not what is stored. A document
 * therefore goes within an hour (a day, a month) of its expiresAt, never before.
 *
 * A coarse grain spares counter writes to documents whose expiresAt moves a little at every
 * write (a day's snapshot taken again, a year's series extended by a day): their key stays.
 *
 * A document is counted once it carries `xk` (a document without it, written by an earlier
 * version, is the migration's: `expiryBackfill`). A write that moves the key counts the new
 * hour before it writes and uncounts the old one after.
 */
export type ExpiryGrain = 'hour' | 'day' | 'month';

export const expiryList = (collection: string): string => `x|${collection}`;

/** The hour (`YYYY-MM-DDTHH`) after which a document expiring at `expiresAt` is due, at that grain. */
export function dueHour(expiresAt: Date, grain: ExpiryGrain): string {
  const last = new Date(expiresAt.getTime() - 1);
  if (grain === 'hour') return hourBucket(last);
  if (grain === 'day') return `${last.toISOString().slice(0, 10)}T23`;
  const monthEnd = new Date(Date.UTC(last.getUTCFullYear(), last.getUTCMonth() + 1, 0));
  return `${monthEnd.toISOString().slice(0, 10)}T23`;
}

const hourStart = (hour: string) => new Date(`${hour}:00:00.000Z`);

export const expiryKey = (collection: string, expiresAt: Date, grain: ExpiryGrain): string => `${expiryList(collection)}#${dueHour(expiresAt, grain)}`;

/** The expiry list's counter delta of a document with this key (`xk`). */
export function expiryKeyDelta(xk: string, by: number): CounterDelta {
  const i = xk.lastIndexOf('#');
  return { list: xk.slice(0, i), lane: 'all', at: hourStart(xk.slice(i + 1)), by };
}

export const expiryDelta = (collection: string, expiresAt: Date, grain: ExpiryGrain, by: number): CounterDelta =>
  expiryKeyDelta(expiryKey(collection, expiresAt, grain), by);

/** The expiry counter delta of a stored document, when it is counted (carries `xk`); none otherwise. */
export const storedExpiryDeltas = (doc: Document | null | undefined, by: number): CounterDelta[] =>
  doc && typeof doc.xk === 'string' && doc.xk.includes('#') ? [expiryKeyDelta(doc.xk, by)] : [];

/** What the migration sets on a document of today's code without its expiry key (null: nothing to do). */
export function expiryBackfill(collection: string, grain: ExpiryGrain, doc: Document): { $set: Document } | null {
  if (!(doc.expiresAt instanceof Date)) return null;
  const xk = expiryKey(collection, doc.expiresAt, grain);
  return doc.xk === xk ? null : { $set: { xk } };
}

export interface SweepOptions {
  collection: string;
  col: Collection<Document>;
  counters: ListCounters;
  now: Date;
  /** Deletes per counter update. */
  batch?: number;
  /** Deletes at once. */
  concurrency?: number;
  /** At most this many documents per call (the rest waits for the next cleanup, still counted). */
  max?: number;
  /** The fields the caller needs of each removed document (beyond `_id`, `xk`). */
  projection?: Document;
  /** Further counter deltas to undo for a removed document (the lists it was in). */
  deltas?: (doc: Document) => CounterDelta[];
}

/**
 * Removes the documents whose due hour has passed by `now` and uncounts them; returns them
 * (projected). Each passed hour's bucket is read once (FerretDB 1.x applies `limit` after reading
 * everything the filter selects, so reading it in limited batches would read it again and again)
 * and its documents deleted `batch` at a time, oldest hour first, up to `max` per call. A
 * document rewritten meanwhile (a new `xk`) is not deleted: each delete names the key it was read
 * under. A passed hour whose count outlived its documents (a write that crashed between counting
 * and writing) is set back to zero: no write puts a document in a passed hour.
 */
export async function sweepExpired(o: SweepOptions): Promise<Document[]> {
  const batch = o.batch ?? 200;
  const concurrency = o.concurrency ?? 8;
  const max = o.max ?? 50_000;
  const list = expiryList(o.collection);
  const current = hourBucket(o.now);
  const removed: Document[] = [];
  const projection = { _id: 1, xk: 1, ...(o.projection ?? {}) };
  const passed = laneHours(await o.counters.hours(list), 'all').filter(([hour]) => hour < current).reverse();
  for (const [hour, counted] of passed) {
    if (removed.length >= max) break;
    const xk = `${list}#${hour}`;
    const docs = await o.col.find({ xk }, { projection }).toArray();
    let done = 0;
    while (done < docs.length && removed.length < max) {
      const chunk = docs.slice(done, done + Math.min(batch, max - removed.length));
      const deleted = await deleteEach(o.col, chunk, xk, concurrency);
      if (deleted.length > 0) await o.counters.add(deleted.flatMap((d) => [expiryKeyDelta(xk, -1), ...(o.deltas?.(d) ?? [])]));
      removed.push(...deleted);
      done += chunk.length;
    }
    // The whole bucket went (deleted, or moved on by its writer): a count beyond what it held is stale.
    if (done === docs.length && counted > docs.length) await o.counters.add([expiryKeyDelta(xk, docs.length - counted)]);
  }
  return removed;
}

async function deleteEach(col: Collection<Document>, docs: Document[], xk: string, concurrency: number): Promise<Document[]> {
  const deleted: Document[] = [];
  let next = 0;
  const lane = async () => {
    while (next < docs.length) {
      const d = docs[next++]!;
      if ((await col.deleteOne({ _id: d._id, xk })).deletedCount === 1) deleted.push(d);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, docs.length) }, lane));
  return deleted;
}
