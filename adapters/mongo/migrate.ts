import type { Db, Document } from 'mongodb';
import { COLLECTIONS } from './collections';
import { hourBucket, type CounterDelta, type ListCounters } from './list-counters';
import { MEDIA_MIGRATION_STEPS } from './migrate-media';
import type { MigrationStep } from './migration-step';
import { listedFromDoc, listKeys, listLists, storedCounterDeltas, UPLOAD_LIST_VERSION } from './uploads';

export type { MigrationStep } from './migration-step';

/**
 * Versioned, idempotent, resumable migrations of stored data (`npm run herald -- migrate`,
 * docs/storage/migrations.md). Each step records its progress in `herald_migrations` (`_id` = step
 * id) after every account it finishes, so an interrupted run goes on where it stopped; a finished
 * step is not run again (unless asked to recount). Steps read one account's records at a time by
 * equality and write each record once: the run reads every stored record once, as a migration
 * must, and nothing on a request path does.
 *
 * Run it with the daemons stopped (ops/start.sh runs it before starting them): the counters of
 * an account are rebuilt from its records, and a write by a live daemon meanwhile could be lost
 * from them.
 */
export const MIGRATIONS = 'herald_migrations';

export interface StepReport {
  id: string;
  status: 'done' | 'already done' | 'dry run';
  accounts: number;
  changed: number;
  counted: number;
}

/** Counts of one account's lists, built in memory from its records, then written at once (replace). */
function tally() {
  const counts = new Map<string, CounterDelta>();
  const lists = new Set<string>();
  return {
    add(deltas: CounterDelta[]) {
      for (const d of deltas) {
        lists.add(d.list);
        const k = `${d.list}\u0000${d.lane}\u0000${hourBucket(d.at)}`;
        const prev = counts.get(k);
        if (prev) prev.by += d.by;
        else counts.set(k, { ...d });
      }
    },
    lists: () => [...lists],
    deltas: () => [...counts.values()].filter((d) => d.by !== 0),
  };
}

/** v1: uploads get their list keys (hour buckets) and every upload list its counters. */
export const uploadListsStep: MigrationStep = {
  id: '2026-12-upload-lists',
  description: 'uploads: hour-bucket list keys (history, status lanes, external ids, caps, schedule) and their counters',
  async account(db, counters, accountId, opts) {
    const col = db.collection<Document>(COLLECTIONS.uploads);
    const t = tally();
    let changed = 0;
    let counted = 0;
    for await (const doc of col.find({ accountId })) {
      const listed = listedFromDoc(doc);
      if (doc.lv !== UPLOAD_LIST_VERSION) {
        const pendingSince = doc.status === 'pending' ? ((doc.pendingSince ?? doc.updatedAt ?? doc.createdAt) as Date) : undefined;
        const unset: Document = { capDay: '' };
        for (const st of ['scheduled', 'pending', 'in_progress', 'completed', 'cancelled']) if (st !== listed.status) unset[`hs_${st}`] = '';
        if (listed.status !== 'scheduled') unset.sk = '';
        if (listed.status !== 'pending') Object.assign(unset, { pq: '', pendingSince: '' });
        await col.updateOne({ _id: doc._id }, { $set: listKeys(listed, pendingSince), $unset: unset });
        changed += 1;
      }
      // Counted as it is now: entering its lists from nothing.
      t.add(storedCounterDeltas(listed));
      counted += 1;
    }
    // Counters exist only for uploads written by this version: cleared first when any was (or on a recount).
    await counters.replace([...new Set([...t.lists(), ...listLists(accountId)])], t.deltas(), { clear: opts.recount || changed < counted });
    return { changed, counted };
  },
  async finish(db) {
    // The indexes the bucket lists replaced: each one only slowed every write down.
    const col = db.collection(COLLECTIONS.uploads);
    const names = new Set((await col.indexes().catch(() => [])).map((i) => i.name));
    for (const name of ['accountId_createdAt', 'status_createdAt', 'connectionIds_capDay']) {
      if (names.has(name)) await col.dropIndex(name);
    }
  },
};

/** Every step, in the order they run. Steps of other collections join this list. */
export const MIGRATION_STEPS: MigrationStep[] = [uploadListsStep, ...MEDIA_MIGRATION_STEPS];

/**
 * Runs the steps not yet done (all of them again with `recount`). The accounts are the operator
 * accounts, in id order; progress is saved after each.
 */
export async function migrate(
  db: Db, counters: ListCounters,
  opts: { recount?: boolean; dryRun?: boolean; steps?: MigrationStep[]; log?: (line: string) => void } = {},
): Promise<StepReport[]> {
  const state = db.collection<Document>(MIGRATIONS);
  const steps = opts.steps ?? MIGRATION_STEPS;
  const log = opts.log ?? (() => undefined);
  const reports: StepReport[] = [];
  const accounts = (await db.collection<Document>(COLLECTIONS.operators).find({}, { projection: { _id: 1 } }).toArray())
    .map((d) => String(d._id)).sort();
  for (const step of steps) {
    const saved = await state.findOne({ _id: step.id as unknown as Document['_id'] });
    if (saved?.done && !opts.recount) {
      reports.push({ id: step.id, status: 'already done', accounts: 0, changed: 0, counted: 0 });
      continue;
    }
    if (opts.dryRun) {
      reports.push({ id: step.id, status: 'dry run', accounts: accounts.length, changed: 0, counted: 0 });
      continue;
    }
    // A recount starts over; an interrupted run goes on after the last account it finished.
    const after = opts.recount || saved?.done ? '' : String(saved?.lastAccount ?? '');
    const report: StepReport = { id: step.id, status: 'done', accounts: 0, changed: Number(saved?.changed ?? 0), counted: 0 };
    if (opts.recount || saved?.done) report.changed = 0;
    for (const accountId of accounts) {
      if (after && accountId <= after) continue;
      const r = await step.account(db, counters, accountId, { recount: opts.recount === true });
      report.accounts += 1;
      report.changed += r.changed;
      report.counted += r.counted;
      await state.updateOne(
        { _id: step.id as unknown as Document['_id'] },
        { $set: { lastAccount: accountId, changed: report.changed, done: false, updatedAt: new Date() } },
        { upsert: true },
      );
      if (r.counted > 0) log(`${step.id}: ${accountId} (${r.counted} records, ${r.changed} changed)`);
    }
    await step.finish?.(db);
    await state.updateOne(
      { _id: step.id as unknown as Document['_id'] },
      { $set: { done: true, finishedAt: new Date(), changed: report.changed, description: step.description } },
      { upsert: true },
    );
    reports.push(report);
  }
  return reports;
}

/** The steps not done yet (the API warns at start-up while any is); none on a database without accounts. */
export async function pendingMigrations(db: Db, steps: MigrationStep[] = MIGRATION_STEPS): Promise<string[]> {
  if (!(await db.collection(COLLECTIONS.operators).findOne({}, { projection: { _id: 1 } }))) return [];
  const state = db.collection<Document>(MIGRATIONS);
  const pending: string[] = [];
  for (const step of steps) {
    const saved = await state.findOne({ _id: step.id as unknown as Document['_id'] });
    if (!saved?.done) pending.push(step.id);
  }
  return pending;
}
