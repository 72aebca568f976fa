import type { Db, Document } from 'mongodb';
import { PLATFORMS } from '../../core/domain/platforms';
import { COLLECTIONS } from './collections';
import { backfillConnectedAccount, connectedAccountCounterDeltas, platformList } from './connected-accounts';
import { createListCounters, hourBucket, type CounterDelta } from './list-counters';
import { backfillMediaJob, MEDIA_JOBS_COLLECTION, mediaJobCounterDeltas, mediaJobList } from './media-jobs';
import { backfillMediaUsage, MEDIA_USAGE_COLLECTION, mediaUsageCounterDeltas } from './media-usage';
import type { MigrationStep } from './migration-step';
import { profileCounterDeltas, profileList } from './profiles';

/**
 * Migration steps for the lists of media jobs, media minutes, profiles and connections
 * (docs/storage/lists.md), in the shape of adapters/mongo/migrate.ts's steps: each account's
 * records read once by equality, the keys a record lacks written once, the account's counters
 * rebuilt from its records (run with the daemons stopped, as every step). MIGRATION_STEPS runs
 * them after the uploads' step.
 */

/** Counts built in memory from the records, then written at once. */
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

/** Writes each record's missing keys; returns how many records it read and changed. */
async function backfill(db: Db, collection: string, accountId: string, keys: (doc: Document) => { $set: Document } | null, count: (doc: Document) => void) {
  const col = db.collection<Document>(collection);
  let changed = 0;
  let counted = 0;
  for await (const doc of col.find({ accountId })) {
    const update = keys(doc);
    if (update) {
      await col.updateOne({ _id: doc._id }, update);
      changed += 1;
    }
    count(doc);
    counted += 1;
  }
  return { changed, counted };
}

/** Media jobs get their list keys (`jk`), ledger entries theirs (`uk`); the job list and every month of minutes their counters. */
export const mediaListsStep: MigrationStep = {
  id: '2026-12-media-lists',
  description: 'media jobs and media minutes: bucket list keys (jk, uk) and their counters (job list, monthly reserved/settled seconds and entries)',
  async account(db, counters, accountId) {
    const t = tally();
    const jobs = await backfill(db, MEDIA_JOBS_COLLECTION, accountId, backfillMediaJob, (doc) => t.add(mediaJobCounterDeltas(doc)));
    const entries = await backfill(db, MEDIA_USAGE_COLLECTION, accountId, backfillMediaUsage, (doc) => t.add(mediaUsageCounterDeltas(doc)));
    // Rebuilt from the records: what a daemon of this version counted before is replaced, not added to.
    await counters.replace([...new Set([...t.lists(), mediaJobList(accountId)])], t.deltas(), { clear: true });
    return { changed: jobs.changed + entries.changed, counted: jobs.counted + entries.counted };
  },
  async finish(db) {
    // The indexes the lists replaced (the job list's sort, the month's lookup): each only slowed writes down.
    for (const [collection, name] of [[MEDIA_JOBS_COLLECTION, 'accountId_createdAt'], [MEDIA_USAGE_COLLECTION, 'accountId_month']] as const) {
      const col = db.collection(collection);
      const names = new Set((await col.indexes().catch(() => [])).map((i) => i.name));
      if (names.has(name)) await col.dropIndex(name);
    }
  },
};

/** Every account's profiles counted (the plan-limit check reads the counts). */
export const profileCountsStep: MigrationStep = {
  id: '2026-12-profile-counts',
  description: 'profiles: the profile count of every account (the plan-limit check reads it)',
  async account(db, counters, accountId) {
    const t = tally();
    const { counted } = await backfill(db, COLLECTIONS.profiles, accountId, () => null, (doc) => t.add(profileCounterDeltas(doc)));
    await counters.replace([profileList(accountId)], t.deltas(), { clear: true });
    return { changed: 0, counted };
  },
};

/**
 * Connections get their sweep key (`pk`, at their connectedAt); the sweep lists, one per network
 * and shared by every account, are recounted from every connection once all accounts are done.
 */
export const connectionSweepStep: MigrationStep = {
  id: '2026-12-connection-sweep',
  description: 'connected accounts: the sweep list key (pk) and the per-network counters the refresh-ahead back-fill and the snapshots walk',
  async account(db, _counters, accountId) {
    void _counters;
    return backfill(db, COLLECTIONS.connectedAccounts, accountId, backfillConnectedAccount, () => undefined);
  },
  async finish(db) {
    const t = tally();
    for await (const doc of db.collection<Document>(COLLECTIONS.connectedAccounts).find({}, { projection: { platform: 1, pk: 1, connectedAt: 1 } })) {
      t.add(connectedAccountCounterDeltas(doc));
    }
    const counters = await createListCounters(db);
    try {
      await counters.replace([...new Set([...t.lists(), ...PLATFORMS.map(platformList)])], t.deltas(), { clear: true });
    } finally {
      counters.stop();
    }
  },
};

export const MEDIA_MIGRATION_STEPS: MigrationStep[] = [mediaListsStep, profileCountsStep, connectionSweepStep];
