import type { Collection, Db, Document } from 'mongodb';
import { retryDuplicateUpsert } from './collections';
import { hourBucket } from './list-counters';

/**
 * Cleanups without scans (docs/storage/lists.md, "Expiry"): a record that goes at some time
 * carries that time's UTC hour as an equality key (`xh: 'YYYY-MM-DDTHH'` of expiresAt, or the
 * outbox's `hh` of the hand-over), and the cleanup deletes hour by hour from the last hour it
 * finished up to now. No range over the collection, no sort: each step is one equality query
 * on one hour, and a run walks at most `maxHours` hours and deletes at most about `budget`
 * records (the rest waits for the next run).
 *
 * Where the walk stands is one small document per swept collection in `hour_sweeps`
 * (`_id` = the sweep's name, `hour` = the last hour wholly deleted). Sweeps of several processes
 * may run at once: deletes by equality are idempotent, the cursor only moves by `$max`, and a
 * lost cursor update only means walking an hour again. A sweep that has no cursor yet starts
 * `lookbackHours` back (records of today's code cannot be due earlier than the sweep first
 * ran; older records get their key from the migration, see the adapters' `backfill…`).
 *
 * Hours wholly past are deleted by `deleteMany({ <field>: hour })`; in the hour `upTo` falls in,
 * one batch of records is read and the due ones deleted one by one by `_id`, so that
 * `deleteExpired(now)` removes exactly what is due. Collections whose records are counted
 * (`onDeleted`) are deleted one by one in every hour, so the counters are decremented only by the
 * process that deleted each record.
 */
export const HOUR_SWEEPS = 'hour_sweeps';

export interface HourSweepOptions {
  /** Where a sweep without a cursor starts: this many hours before `upTo` (default 7 days). */
  lookbackHours?: number;
  /** Hours walked per run at most (default 14 days' worth: a daemon down for a week catches up in one run). */
  maxHours?: number;
  /** Records read per query in a counted or the current hour (default 500). */
  batch?: number;
  /** A run stops after the hour in which it has deleted this many records (default 50,000). */
  budget?: number;
}

export interface HourSweepSpec {
  /** The cursor's id (one per swept collection and key). */
  name: string;
  col: Collection<Document>;
  /** The hour key field. */
  field: string;
  /** True when a record of the current hour is due at `upTo` (exact check of the hour `upTo` cuts). */
  due(doc: Document, upTo: Date): boolean;
  /** Fields `due` and `onDeleted` read (the rest of the record is not fetched). */
  projection: Document;
  /** Counted records: called with the records this process deleted (counter decrements). */
  onDeleted?(docs: Document[]): Promise<void>;
}

const HOUR_MS = 3600_000;
/** The first instant (ms) of an hour bucket `YYYY-MM-DDTHH`. */
export const hourStart = (hour: string): number => Date.parse(`${hour}:00:00.000Z`);
/** The hour after `hour`. */
export const nextHour = (hour: string): string => hourBucket(new Date(hourStart(hour) + HOUR_MS));

export function createHourSweep(db: Db, spec: HourSweepSpec, opts: HourSweepOptions = {}): (upTo: Date) => Promise<number> {
  const cursors = db.collection<Document>(HOUR_SWEEPS);
  const lookback = opts.lookbackHours ?? 7 * 24;
  const maxHours = opts.maxHours ?? 14 * 24;
  const batch = opts.batch ?? 500;
  const budget = opts.budget ?? 50_000;
  const { col, field } = spec;

  /** Deletes the listed records one by one; returns those this call deleted. */
  const deleteEach = async (docs: Document[]): Promise<Document[]> => {
    const gone: Document[] = [];
    for (const d of docs) if ((await col.deleteOne({ _id: d._id })).deletedCount === 1) gone.push(d);
    if (gone.length && spec.onDeleted) await spec.onDeleted(gone);
    return gone;
  };

  /** Every record of a wholly past hour; returns how many went (stops early past the budget). */
  const clearHour = async (hour: string, left: number): Promise<{ deleted: number; done: boolean }> => {
    if (!spec.onDeleted) return { deleted: (await col.deleteMany({ [field]: hour })).deletedCount, done: true };
    let deleted = 0;
    for (;;) {
      const docs = await col.find({ [field]: hour }, { projection: spec.projection }).limit(batch).toArray();
      const gone = (await deleteEach(docs)).length;
      deleted += gone;
      if (docs.length < batch) return { deleted, done: true };
      // A full batch none of which this process could delete: another sweep is on this hour; leave it the rest.
      if (deleted >= left || gone === 0) return { deleted, done: false };
    }
  };

  return async (upTo) => {
    const current = hourBucket(upTo);
    const cursor = await cursors.findOne({ _id: spec.name as unknown as Document['_id'] });
    let hour = cursor ? nextHour(cursor.hour as string) : hourBucket(new Date(upTo.getTime() - lookback * HOUR_MS));
    let finished: string | null = null;
    let deleted = 0;
    let walked = 0;
    let stopped = false;
    for (; hour < current && walked < maxHours && deleted < budget; hour = nextHour(hour), walked += 1) {
      const step = await clearHour(hour, budget - deleted);
      deleted += step.deleted;
      if (!step.done) { stopped = true; break; }
      finished = hour;
    }
    if (finished !== null) {
      const last = finished;
      await retryDuplicateUpsert(() => cursors.updateOne({ _id: spec.name as unknown as Document['_id'] }, { $max: { hour: last } }, { upsert: true }));
    }
    // The hour `upTo` falls in, once the walk has reached it: the due records of one batch.
    if (!stopped && hour >= current && deleted < budget) {
      const docs = await col.find({ [field]: current }, { projection: spec.projection }).limit(batch).toArray();
      deleted += (await deleteEach(docs.filter((d) => spec.due(d, upTo)))).length;
    }
    return deleted;
  };
}

/**
 * Moves a cursor back so that the walk (the sweep, or the outbox's pending walk) visits `hour`
 * again: for the migration, after it gave older records their hour key. Idempotent (`$min`).
 */
export async function rewindHourCursor(db: Db, name: string, hour: string): Promise<void> {
  const before = hourBucket(new Date(hourStart(hour) - HOUR_MS));
  await retryDuplicateUpsert(() => db.collection<Document>(HOUR_SWEEPS).updateOne({ _id: name as unknown as Document['_id'] }, { $min: { hour: before } }, { upsert: true }));
}

/** The expiry-hour key of a record (`xh`). */
export const expiryHour = (expiresAt: Date): string => hourBucket(expiresAt);

/**
 * The sweep of a collection whose records carry `expiresAt` and its hour key `xh`: what
 * `deleteExpired(now)` runs (records with `expiresAt <= now` go).
 */
export function expirySweep(db: Db, col: Collection<Document>, opts: HourSweepOptions & { name?: string; onDeleted?: HourSweepSpec['onDeleted']; projection?: Document } = {}): (now: Date) => Promise<number> {
  return createHourSweep(db, {
    name: opts.name ?? `${col.collectionName}:xh`,
    col,
    field: 'xh',
    projection: opts.projection ?? { _id: 1, expiresAt: 1 },
    due: (d, now) => d.expiresAt instanceof Date && d.expiresAt.getTime() <= now.getTime(),
    ...(opts.onDeleted ? { onDeleted: opts.onDeleted } : {}),
  }, opts);
}

/** The migration's key for an expiring record written before `xh` existed; null when it has it (or no expiry). */
export function backfillExpiryHour(doc: Document): { $set: { xh: string } } | null {
  if (doc.xh !== undefined || !(doc.expiresAt instanceof Date)) return null;
  return { $set: { xh: expiryHour(doc.expiresAt) } };
}
