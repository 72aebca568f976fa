import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { COLLECTIONS, toIdDoc } from '../../adapters/mongo/collections';
import { createMongoConnectedAccounts } from '../../adapters/mongo/connected-accounts';
import { createListCounters } from '../../adapters/mongo/list-counters';
import { bucketsOf, slotLane } from '../../adapters/mongo/bucket-list';
import { createMongoMediaJobs, MEDIA_JOBS_COLLECTION, mediaJobList, mediaJobListKeys, toMediaJobDoc } from '../../adapters/mongo/media-jobs';
import { createMongoMediaUsage, MEDIA_USAGE_COLLECTION } from '../../adapters/mongo/media-usage';
import { connectionSweepStep, mediaJobSlotsStep, mediaListsStep, MIGRATIONS, migrate, profileCountsStep } from '../../adapters/mongo/migrate';
import { createMongoProfiles, toProfileDoc } from '../../adapters/mongo/profiles';
import { quotaMonth, type MediaJob, type MediaUsageEntry } from '../../core/domain/media-job';
import { ProfileLimitError } from '../../core/ports/storage';
import { aConnectedAccount, aProfile } from '../support/mothers';
import { aMediaJob } from './storage/media-jobs.contract';

const MEDIA_MIGRATION_STEPS = [mediaListsStep, profileCountsStep, connectionSweepStep];

/**
 * The media, profile and connection steps on a database written by the version before their
 * lists: media jobs and ledger entries without keys, profiles and connections without counters
 * or sweep keys. After the migration every list, total and check reads right; again is a no-op;
 * a recount rebuilds lost counters.
 */
const uri = process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017/herald';
let client: MongoClient;
let db: Db;
let counters: Awaited<ReturnType<typeof createListCounters>>;

beforeAll(async () => {
  client = new MongoClient(uri, { serverSelectionTimeoutMS: 3000 });
  await client.connect();
});
beforeEach(async () => {
  db = client.db(`herald_test_${randomBytes(6).toString('hex')}`);
  counters = await createListCounters(db);
});
afterEach(async () => {
  counters.stop();
  await db.dropDatabase();
});
afterAll(async () => {
  await client.close();
});

const start = Date.UTC(2026, 0, 20);
const hour = 3600_000;

async function writeOldDatabase() {
  await db.collection('operator_accounts').insertMany([
    { _id: 'acct-a' as never, email: 'a@example.test', plan: 'free', createdAt: new Date(0) },
    { _id: 'acct-b' as never, email: 'b@example.test', plan: 'free', createdAt: new Date(0) },
  ]);
  const jobs: MediaJob[] = [];
  const entries: MediaUsageEntry[] = [];
  for (let i = 0; i < 60; i += 1) {
    const createdAt = new Date(start + i * 7 * hour);
    const job = aMediaJob({ id: `mj_${String(i).padStart(3, '0')}`, accountId: i % 3 ? 'acct-a' : 'acct-b', createdAt, month: quotaMonth(createdAt), reservedSeconds: 10 + i });
    jobs.push(job);
    entries.push({ jobId: job.id, accountId: job.accountId, month: job.month, seconds: job.reservedSeconds, settled: i % 2 === 0, type: 'ffmpeg_job', createdAt });
  }
  // As the previous version wrote them (adapters/mongo/media-jobs.ts and media-usage.ts before the lists).
  await db.collection(MEDIA_JOBS_COLLECTION).insertMany(jobs.map((j) => toIdDoc(j)) as never[]);
  await db.collection(MEDIA_USAGE_COLLECTION).insertMany(entries.map((e) => ({ ...e, _id: e.jobId })) as never[]);
  // The previous version's indexes, which the migration drops.
  await db.collection(MEDIA_JOBS_COLLECTION).createIndex({ accountId: 1, createdAt: -1 }, { name: 'accountId_createdAt' });
  await db.collection(MEDIA_USAGE_COLLECTION).createIndex({ accountId: 1, month: 1 }, { name: 'accountId_month' });
  await db.collection(COLLECTIONS.profiles).insertMany([aProfile({ accountId: 'acct-a', username: 'a1' }), aProfile({ accountId: 'acct-a', username: 'a2' })].map(toProfileDoc));
  const connections = Array.from({ length: 12 }, (_, i) => aConnectedAccount({ id: `c-${String(i).padStart(2, '0')}`, accountId: i % 2 ? 'acct-a' : 'acct-b', profileUsername: `p${i}`, platform: 'tiktok', connectedAt: new Date(start + i * 30 * 60_000) }));
  await db.collection(COLLECTIONS.connectedAccounts).insertMany(connections.map((c) => { const { id, ...rest } = c; return { _id: id, ...rest }; }) as never[]);
  return { jobs, entries, connections };
}

async function expectListsRight(old: Awaited<ReturnType<typeof writeOldDatabase>>) {
  const jobRepo = await createMongoMediaJobs(db, counters);
  const usage = await createMongoMediaUsage(db, counters);
  for (const accountId of ['acct-a', 'acct-b']) {
    const mine = old.jobs.filter((j) => j.accountId === accountId).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    const page = await jobRepo.list(accountId, { limit: 100 });
    expect({ accountId, ids: page.items.map((j) => j.id), total: page.total }).toEqual({ accountId, ids: mine.map((j) => j.id), total: mine.length });
    for (const month of ['2026-01', '2026-02']) {
      const of = old.entries.filter((e) => e.accountId === accountId && e.month === month);
      const sum = (settled: boolean) => of.filter((e) => e.settled === settled).reduce((n, e) => n + e.seconds, 0);
      expect(await usage.totals(accountId, month)).toEqual({ reservedSeconds: sum(false), settledSeconds: sum(true), requests: of.length });
      expect((await usage.history(accountId, month, { limit: 100 })).items.map((e) => e.jobId).sort()).toEqual(of.map((e) => e.jobId).sort());
    }
  }
  const profiles = await createMongoProfiles(db, counters);
  expect(await profiles.count('acct-a')).toBe(2);
  // The free plan's two profiles are there: the limit check sees them.
  await expect(profiles.insert(aProfile({ accountId: 'acct-a', username: 'a3' }), { limit: 2 })).rejects.toBeInstanceOf(ProfileLimitError);
  const sweep = await createMongoConnectedAccounts(db, counters);
  const seen: string[] = [];
  let afterId: string | undefined;
  for (;;) {
    const page = await sweep.listByPlatform('tiktok', { limit: 5, ...(afterId ? { afterId } : {}) });
    seen.push(...page.items.map((c) => c.id));
    if (!page.next) break;
    afterId = page.next;
  }
  expect(seen).toEqual(old.connections.map((c) => c.id));
}

it('migrates media jobs, minutes, profiles and connections written by the previous version', async () => {
  const old = await writeOldDatabase();
  expect((await (await createMongoMediaJobs(db, counters)).list('acct-a', { limit: 10 })).total).toBe(0);
  const reports = await migrate(db, counters, { steps: MEDIA_MIGRATION_STEPS });
  expect(reports).toEqual([
    { id: '2026-12-media-lists', status: 'done', accounts: 2, changed: 120, counted: 120 },
    { id: '2026-12-profile-counts', status: 'done', accounts: 2, changed: 0, counted: 2 },
    { id: '2026-12-connection-sweep', status: 'done', accounts: 0, changed: 12, counted: 12 },
  ]);
  expect((await db.collection(MEDIA_JOBS_COLLECTION).indexes()).map((i) => i.name)).not.toContain('accountId_createdAt');
  expect((await db.collection(MEDIA_USAGE_COLLECTION).indexes()).map((i) => i.name)).not.toContain('accountId_month');
  await expectListsRight(old);
});

it('is idempotent, and a recount rebuilds counters that were lost without counting twice', async () => {
  const old = await writeOldDatabase();
  await migrate(db, counters, { steps: MEDIA_MIGRATION_STEPS });
  expect((await migrate(db, counters, { steps: MEDIA_MIGRATION_STEPS })).map((r) => r.status)).toEqual(['already done', 'already done', 'already done']);
  await db.collection('list_counters').deleteMany({});
  const recount = await migrate(db, counters, { steps: MEDIA_MIGRATION_STEPS, recount: true });
  expect(recount.map((r) => r.changed)).toEqual([0, 0, 0]);
  await expectListsRight(old);
  // A recount over counters that are there replaces them (the counts stay, not doubled).
  await migrate(db, counters, { steps: MEDIA_MIGRATION_STEPS, recount: true });
  await expectListsRight(old);
});

describe('2026-12-media-job-slots', () => {
  /** Jobs as `2026-12-media-lists` left them: month, day and hour keys, counted by hour only; 40 of them in one hour. */
  async function writeMigratedBeforeSlots() {
    await db.collection('operator_accounts').insertOne({ _id: 'acct-a' as never, email: 'a@example.test', plan: 'free', createdAt: new Date(0) });
    const jobs = Array.from({ length: 70 }, (_, i) => {
      const createdAt = new Date(i < 40 ? start + 5 * hour + i * 89_000 : start + (i - 40) * 13 * hour);
      return aMediaJob({ id: `mj_${String(i).padStart(3, '0')}`, accountId: 'acct-a', createdAt, month: quotaMonth(createdAt) });
    });
    const list = mediaJobList('acct-a');
    await db.collection(MEDIA_JOBS_COLLECTION).insertMany(jobs.map((j) => ({ ...toMediaJobDoc(j), jk: bucketsOf(j.createdAt).map((b) => `${list}#${b}`) })) as never[]);
    await counters.add(jobs.map((j) => ({ list, lane: 'all', at: j.createdAt, by: 1 })));
    return jobs;
  }

  it('gives every job its slot key and the list its slot counts; pages stay right; again is a no-op', async () => {
    const jobs = await writeMigratedBeforeSlots();
    const want = [...jobs].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)).map((j) => j.id);
    const walk = async () => {
      const repo = await createMongoMediaJobs(db, counters);
      const pages: string[][] = [];
      for (let skip = 0; skip < 70; skip += 15) pages.push((await repo.list('acct-a', { limit: 15, skip })).items.map((j) => j.id));
      return pages.flat();
    };
    // Before: the slot counts do not add up, every hour is read whole, the pages are right.
    expect(await walk()).toEqual(want);
    const reports = await migrate(db, counters, { steps: [mediaJobSlotsStep] });
    expect(reports).toEqual([{ id: '2026-12-media-job-slots', status: 'done', accounts: 1, changed: 70, counted: 70 }]);
    const stored = await db.collection(MEDIA_JOBS_COLLECTION).find({}).toArray();
    for (const d of stored) expect(d.jk).toEqual(mediaJobListKeys({ accountId: 'acct-a', createdAt: d.createdAt as Date }).jk);
    const counts = await counters.hours(mediaJobList('acct-a'));
    const burstHour = new Date(start + 5 * hour).toISOString().slice(0, 13);
    const slots = Array.from({ length: 6 }, (_, k) => counts.get(slotLane('all', k))?.get(burstHour) ?? 0);
    expect(slots.reduce((n, c) => n + c, 0)).toBe(counts.get('all')!.get(burstHour));
    expect(await walk()).toEqual(want);
    expect((await migrate(db, counters, { steps: [mediaJobSlotsStep] })).map((r) => r.status)).toEqual(['already done']);
    const recount = await migrate(db, counters, { steps: [mediaJobSlotsStep], recount: true });
    expect(recount.map((r) => r.changed)).toEqual([0]);
    expect(await counters.hours(mediaJobList('acct-a'))).toEqual(counts);
    expect(await walk()).toEqual(want);
  });

  it('resumes after the last account it finished', async () => {
    await writeMigratedBeforeSlots();
    await db.collection('operator_accounts').insertOne({ _id: 'acct-b' as never, email: 'b@example.test', plan: 'free', createdAt: new Date(0) });
    await db.collection(MIGRATIONS).insertOne({ _id: '2026-12-media-job-slots' as never, lastAccount: 'acct-a', changed: 70 });
    const reports = await migrate(db, counters, { steps: [mediaJobSlotsStep] });
    expect(reports[0]).toMatchObject({ id: '2026-12-media-job-slots', status: 'done', accounts: 1 });
    // acct-a was skipped: its jobs keep their three keys.
    expect((await db.collection(MEDIA_JOBS_COLLECTION).findOne({}))!.jk).toHaveLength(3);
  });
});
