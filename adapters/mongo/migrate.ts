import type { Db, Document } from 'mongodb';
import { COLLECTIONS } from './collections';
import { sumDeltas, type CounterDelta, type ListCounters } from './list-counters';
import { listedFromDoc, listKeys, listLists, storedCounterDeltas, targetKeysOfDoc, TARGETS_KEYED, UPLOAD_LIST_VERSION } from './uploads';
import {
  ANALYTICS_SERIES_COLLECTION, ANALYTICS_SNAPSHOTS_COLLECTION, analyticsSeriesCounterDeltas, analyticsSnapshotCounterDeltas, backfillAnalyticsSeries,
  backfillAnalyticsSnapshot, backfillPostMetrics, POST_METRICS_COLLECTION, postMetricsCounterDeltas,
} from './analytics-history';
import { expiryList } from './expiry-list';
import { backfillDeliveryAttempt, deliveryAttemptCounterDeltas } from './notifications/delivery-log';
import { backfillEvent } from './notifications/outbox';
import { backfillExpiryHour } from './hour-sweep';
import { CONNECT_LINKS } from './connect-links';
import { CONNECT_SESSIONS } from './connect-sessions';
import { AGENT_OAUTH_COLLECTIONS } from './agent-oauth';
import { PLATFORMS } from '../../core/domain/platforms';
import { backfillConnectedAccount, connectedAccountCounterDeltas, platformList } from './connected-accounts';
import { backfillMediaJob, MEDIA_JOBS_COLLECTION, mediaJobCounterDeltas, mediaJobList } from './media-jobs';
import { backfillMediaUsage, MEDIA_USAGE_COLLECTION, mediaUsageCounterDeltas } from './media-usage';
import { profileCounterDeltas, profileList } from './profiles';

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

export interface MigrationStep {
  id: string;
  description: string;
  /** Migrates one account's records; returns how many records it changed and counted. */
  account?(db: Db, counters: ListCounters, accountId: string, opts: { recount: boolean }): Promise<{ changed: number; counted: number }>;
  /** Or, for lists that span accounts (expiry lists): every record at once. */
  all?(db: Db, counters: ListCounters, opts: { recount: boolean }): Promise<{ changed: number; counted: number }>;
  /** Once every account is done (dropping what the step replaced, e.g. obsolete indexes). */
  finish?(db: Db): Promise<void>;
}

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
      for (const d of deltas) lists.add(d.list);
      sumDeltas(counts, deltas);
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

/**
 * v2: the target documents of each upload get `th`, the hour keys of the upload's history lists,
 * and the upload `tv` (and `tr` when a target has a document although the upload has not
 * started): a history page then reads the targets of one list hour in one query. Uploads not yet
 * migrated are read one by one, as before, so the step may run while nothing else does or later.
 */
export const uploadTargetKeysStep: MigrationStep = {
  id: '2026-12-upload-target-keys',
  description: 'upload targets: the hour keys of their upload\'s history lists (th), so a history page reads its targets together',
  async account(db, _counters, accountId) {
    const col = db.collection<Document>(COLLECTIONS.uploads);
    const targets = db.collection<Document>(COLLECTIONS.uploadTargets);
    let changed = 0;
    let counted = 0;
    for await (const doc of col.find({ accountId })) {
      counted += 1;
      if (doc.tv === TARGETS_KEYED) continue;
      const res = await targets.updateMany({ accountId, requestId: doc.requestId }, { $set: { th: targetKeysOfDoc(doc) } });
      const early = res.matchedCount > 0 && ['scheduled', 'pending', 'cancelled'].includes(doc.status as string);
      await col.updateOne({ _id: doc._id }, { $set: { tv: TARGETS_KEYED, ...(early ? { tr: true } : {}) } });
      changed += 1;
    }
    return { changed, counted };
  },
};

/**
 * A collection whose records each get keys (`backfill`) and counts (`deltas`), read in one pass:
 * for lists that span accounts (expiry lists). A record already expired is deleted instead (a
 * cleanup would never see it: its hour has passed).
 */
export interface CollectionBackfill {
  collection: string;
  backfill(doc: Document): { $set: Document } | null;
  deltas(doc: Document): CounterDelta[];
  /** Lists that exist whatever the records are (a recount clears them too). */
  lists?: string[];
  expired?(doc: Document, now: Date): boolean;
}

export function collectionsStep(id: string, description: string, collections: CollectionBackfill[], dropIndexes: Record<string, string[]> = {}): MigrationStep {
  return {
    id,
    description,
    async all(db, counters) {
      const t = tally();
      let changed = 0;
      let counted = 0;
      const now = new Date();
      for (const c of collections) {
        for (const list of c.lists ?? []) t.add([{ list, lane: 'all', at: now, by: 0 }]);
        const col = db.collection<Document>(c.collection);
        for await (const doc of col.find({})) {
          if (c.expired?.(doc, now)) {
            await col.deleteOne({ _id: doc._id });
            changed += 1;
            continue;
          }
          const set = c.backfill(doc);
          if (set) {
            await col.updateOne({ _id: doc._id }, set);
            Object.assign(doc, set.$set);
            changed += 1;
          }
          t.add(c.deltas(doc));
          counted += 1;
        }
      }
      await counters.replace(t.lists(), t.deltas(), { clear: true });
      return { changed, counted };
    },
    async finish(db) {
      for (const [collection, names] of Object.entries(dropIndexes)) {
        const col = db.collection(collection);
        const have = new Set((await col.indexes().catch(() => [])).map((i) => i.name));
        for (const name of names) if (have.has(name)) await col.dropIndex(name);
      }
    },
  };
}

const expiredBy = (doc: Document, now: Date) => doc.expiresAt instanceof Date && doc.expiresAt.getTime() <= now.getTime();

export const analyticsListsStep = collectionsStep(
  '2026-12-analytics-lists',
  'cached post metrics: hour-bucket list keys and counters; post metrics, snapshots and series: expiry keys',
  [
    { collection: POST_METRICS_COLLECTION, backfill: backfillPostMetrics, deltas: (d) => postMetricsCounterDeltas(d), lists: [expiryList(POST_METRICS_COLLECTION)], expired: expiredBy },
    { collection: ANALYTICS_SNAPSHOTS_COLLECTION, backfill: backfillAnalyticsSnapshot, deltas: (d) => analyticsSnapshotCounterDeltas(d), lists: [expiryList(ANALYTICS_SNAPSHOTS_COLLECTION)], expired: expiredBy },
    { collection: ANALYTICS_SERIES_COLLECTION, backfill: backfillAnalyticsSeries, deltas: (d) => analyticsSeriesCounterDeltas(d), lists: [expiryList(ANALYTICS_SERIES_COLLECTION)], expired: expiredBy },
  ],
  {
    [POST_METRICS_COLLECTION]: ['accountId_capturedAt', 'accountId_platform_capturedAt', 'expiresAt'],
    [ANALYTICS_SNAPSHOTS_COLLECTION]: ['expiresAt'],
    [ANALYTICS_SERIES_COLLECTION]: ['expiresAt'],
  },
);

/** Writes the keys each of the account's records in `collection` lacks; counts every record with `count`. */
async function backfillAccount(db: Db, collection: string, accountId: string, keys: (doc: Document) => { $set: Document } | null, count: (doc: Document) => void) {
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

/** Media jobs get their list keys (`jk`), media-minute entries theirs (`uk`); the job list and every month of minutes their counters. */
export const mediaListsStep: MigrationStep = {
  id: '2026-12-media-lists',
  description: 'media jobs and media minutes: bucket list keys (jk, uk) and their counters (job list; per month reserved and settled seconds, entries)',
  async account(db, counters, accountId) {
    const t = tally();
    const jobs = await backfillAccount(db, MEDIA_JOBS_COLLECTION, accountId, backfillMediaJob, (doc) => t.add(mediaJobCounterDeltas(doc)));
    const entries = await backfillAccount(db, MEDIA_USAGE_COLLECTION, accountId, backfillMediaUsage, (doc) => t.add(mediaUsageCounterDeltas(doc)));
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

/**
 * Media jobs get their ten-minute slot key (the fourth `jk` key) and the job list its slot counts
 * (lanes `all_a` … `all_f`): a burst hour is then read by the slots a page needs. Until then an
 * hour whose slot counts do not add up is read whole, as before.
 */
export const mediaJobSlotsStep: MigrationStep = {
  id: '2026-12-media-job-slots',
  description: 'media jobs: the ten-minute slot bucket key (jk) and the job list slot counters',
  async account(db, counters, accountId) {
    const t = tally();
    // Counted as migrated: every job has its slot key once backfillMediaJob's update is written.
    const jobs = await backfillAccount(db, MEDIA_JOBS_COLLECTION, accountId, backfillMediaJob, (doc) => t.add(mediaJobCounterDeltas(doc)));
    await counters.replace([...new Set([...t.lists(), mediaJobList(accountId)])], t.deltas(), { clear: true });
    return jobs;
  },
};

/** Every account's profiles counted (the plan-limit check and `count` read the counts). */
export const profileCountsStep: MigrationStep = {
  id: '2026-12-profile-counts',
  description: 'profiles: the profile count of every account (the plan-limit check reads it)',
  async account(db, counters, accountId) {
    const t = tally();
    const { counted } = await backfillAccount(db, COLLECTIONS.profiles, accountId, () => null, (doc) => t.add(profileCounterDeltas(doc)));
    await counters.replace([profileList(accountId)], t.deltas(), { clear: true });
    return { changed: 0, counted };
  },
};

/** Connections get their sweep key (`pk`, at their connectedAt); each network's sweep list (shared by the accounts) its counters. */
export const connectionSweepStep = collectionsStep(
  '2026-12-connection-sweep',
  'connected accounts: the sweep list key (pk) and the per-network counters the refresh-ahead back-fill and the analytics snapshots walk',
  [{ collection: COLLECTIONS.connectedAccounts, backfill: backfillConnectedAccount, deltas: (d) => connectedAccountCounterDeltas(d), lists: PLATFORMS.map(platformList) }],
);

/**
 * The delivery log's lists, the outbox's pending and handed hours, and the expiry hours of
 * states, links, sessions and agent grants. An event still pending gets its hour (else it would
 * never be dispatched: the pending walk starts 7 days back, older pending events stay undelivered).
 * Records already expired are deleted here: the sweeps only walk hours from their first run on.
 */
export const notificationListsStep = collectionsStep(
  '2026-12-notification-lists',
  'delivery attempts: list keys and counters; events: pending and handed hours; states, links, sessions, agent grants: expiry hours',
  [
    { collection: COLLECTIONS.deliveryAttempts, backfill: backfillDeliveryAttempt, deltas: (d) => deliveryAttemptCounterDeltas(d as never), expired: expiredBy },
    { collection: COLLECTIONS.events, backfill: backfillEvent, deltas: () => [] },
    ...[COLLECTIONS.oauthStates, CONNECT_LINKS, CONNECT_SESSIONS, AGENT_OAUTH_COLLECTIONS.codes, AGENT_OAUTH_COLLECTIONS.tokens]
      .map((collection) => ({ collection, backfill: backfillExpiryHour, deltas: () => [], expired: expiredBy })),
  ],
  {
    [COLLECTIONS.deliveryAttempts]: ['accountId_createdAt', 'expiresAt'],
    [COLLECTIONS.events]: ['deliveredAt_1_createdAt_1', 'event.account_id_1_createdAt_-1'],
  },
);

/** Every step, in the order they run. Steps of other collections join this list. */
export const MIGRATION_STEPS: MigrationStep[] = [uploadListsStep, analyticsListsStep, mediaListsStep, profileCountsStep, connectionSweepStep, notificationListsStep, uploadTargetKeysStep, mediaJobSlotsStep];

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
    if (step.all) {
      const r = await step.all(db, counters, { recount: opts.recount === true });
      report.changed += r.changed;
      report.counted += r.counted;
      if (r.counted > 0) log(`${step.id}: ${r.counted} records, ${r.changed} changed`);
    }
    for (const accountId of step.account ? accounts : []) {
      if (after && accountId <= after) continue;
      const r = await step.account!(db, counters, accountId, { recount: opts.recount === true });
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
