import type { Db } from 'mongodb';
import { bucketReadBound } from '../../adapters/mongo/bucket-list';
import { COLLECTIONS, type IdDoc } from '../../adapters/mongo/collections';
import { connectedAccountCounterDeltas, createMongoConnectedAccounts, toConnectedAccountDoc } from '../../adapters/mongo/connected-accounts';
import { listCountersFor } from '../../adapters/mongo/list-counters';
import { createMongoMediaJobs, MEDIA_JOBS_COLLECTION, mediaJobCounterDeltas, toMediaJobDoc } from '../../adapters/mongo/media-jobs';
import { createMongoMediaUsage, MEDIA_USAGE_COLLECTION, mediaUsageCounterDeltas, toMediaUsageDoc } from '../../adapters/mongo/media-usage';
import { createMongoProfiles, profileCounterDeltas, toProfileDoc } from '../../adapters/mongo/profiles';
import { quotaMonth, type MediaJob, type MediaUsageEntry } from '../../core/domain/media-job';
import { equalityOnly, monitoredDatabase, type SeenCommand } from '../support/command-monitor';
import { aConnectedAccount, aProfile } from '../support/mothers';
import { aMediaJob } from './storage/media-jobs.contract';

/**
 * The lists of media jobs, media minutes, profiles and connections on FerretDB read a number of
 * documents that depends on the page, not on what is stored (docs/storage/lists.md): every
 * command a call sends is counted with the driver's command monitoring, with the documents its
 * reply carries; every find is a plain equality (what FerretDB pushes down to PostgreSQL's
 * indexes), with no sort, skip or count.
 */
const start = Date.UTC(2026, 0, 1);
const hour = 3600_000;
/** 600 jobs of one account, 3 in each of 200 hours 11 hours apart (about three months), and 200 of another. */
const JOBS = 600;
const PER_HOUR = 3;

let env: Awaited<ReturnType<typeof monitoredDatabase>>;
let db: Db;
const big: MediaJob[] = [];
const burst: MediaJob[] = [];

beforeAll(async () => {
  env = await monitoredDatabase();
  db = env.db;
  const counters = await listCountersFor(db);
  for (let i = 0; i < JOBS; i += 1) {
    const createdAt = new Date(start + Math.floor(i / PER_HOUR) * 11 * hour + (i % PER_HOUR) * 60_000);
    big.push(aMediaJob({ id: `mj_${String(i).padStart(4, '0')}`, accountId: 'acct-big', createdAt, month: quotaMonth(createdAt), reservedSeconds: 10 + (i % 7) }));
  }
  const other = Array.from({ length: 200 }, (_, i) => aMediaJob({ id: `mo_${i}`, accountId: 'acct-other', createdAt: new Date(start + i * hour) }));
  // A burst: 120 jobs in the newest hour of an account (the hour is the smallest bucket with a count; its ten-minute slots are counted too).
  burst.push(...Array.from({ length: 120 }, (_, i) => aMediaJob({ id: `mb_${String(i).padStart(3, '0')}`, accountId: 'acct-burst', createdAt: new Date(start + 30 * 24 * hour + i * 29_000) })));
  other.push(...burst, ...Array.from({ length: 60 }, (_, i) => aMediaJob({ id: `mc_${i}`, accountId: 'acct-burst', createdAt: new Date(start + i * 7 * hour) })));
  const entries: MediaUsageEntry[] = [...big, ...other].map((j) => ({ jobId: j.id, accountId: j.accountId, month: quotaMonth(j.createdAt), seconds: j.reservedSeconds, settled: j.id.endsWith('0'), type: 'ffmpeg_job', createdAt: j.createdAt }));
  await db.collection<IdDoc>(MEDIA_JOBS_COLLECTION).insertMany([...big, ...other].map(toMediaJobDoc));
  await db.collection<IdDoc>(MEDIA_USAGE_COLLECTION).insertMany(entries.map(toMediaUsageDoc));
  const connections = Array.from({ length: 900 }, (_, i) => aConnectedAccount({ id: `c_${String(i).padStart(4, '0')}`, accountId: `acct-${i % 30}`, profileUsername: `p${i}`, platform: i % 3 ? 'tiktok' : 'x', connectedAt: new Date(start + Math.floor(i / 3) * hour) }));
  await db.collection<IdDoc>(COLLECTIONS.connectedAccounts).insertMany(connections.map(toConnectedAccountDoc));
  const profiles = Array.from({ length: 40 }, (_, i) => aProfile({ accountId: 'acct-big', username: `u${i}`, createdAt: new Date(start + i * 5 * hour) }));
  await db.collection(COLLECTIONS.profiles).insertMany(profiles.map(toProfileDoc));
  await counters.add([
    ...[...big, ...other].flatMap((j) => mediaJobCounterDeltas(j)),
    ...entries.flatMap((e) => mediaUsageCounterDeltas(e)),
    ...connections.flatMap((c) => connectedAccountCounterDeltas(toConnectedAccountDoc(c))),
    ...profiles.flatMap((p) => profileCounterDeltas(p)),
  ]);
}, 120_000);

afterAll(async () => {
  (await listCountersFor(db)).stop();
  await env.close();
});

/** What `call` sent: the commands, the documents they returned, and whether all were plain equality finds. */
async function reads<T>(call: () => Promise<T>): Promise<{ result: T; commands: SeenCommand[]; documents: number }> {
  env.reset();
  const result = await call();
  const commands = [...env.seen];
  for (const c of commands) {
    expect({ command: c.name, collection: c.collection, sort: c.sort, skip: c.skip }).toEqual({ command: expect.stringMatching(/^(find|getMore|findAndModify|insert|update|delete)$/), collection: c.collection, sort: undefined, skip: undefined });
    if (!equalityOnly(c.filter)) throw new Error(`not an equality filter: ${JSON.stringify(c.filter)}`);
  }
  return { result, commands, documents: commands.reduce((n, c) => n + c.documents, 0) };
}

const newestFirst = (a: MediaJob, b: MediaJob) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1);

/**
 * What a page of `limit` may read (bucket-list.ts): the list's counter documents (one per month
 * and writer), the page and one record more (to know whether another page follows), and what
 * whole buckets read instead of many hours add (bucketReadBound); nothing that grows with the list.
 */
const bound = (limit: number, counterDocs: number) => bucketReadBound(limit) + counterDocs;
const cost: Record<string, number> = {};

afterAll(() => {
  // The figures, for the record (the bench measures the times).
  process.stdout.write(`documents read: ${JSON.stringify(cost)}\n`);
});

describe('bounded list reads on FerretDB (command monitoring)', () => {
  // 600 jobs over four months: a page of 20 may read 21 × 9 + 4 counter documents.
  const BOUND = bound(20, 4);

  it('media job pages (first, middle, last, cursor) read the buckets the page falls in, whichever page', async () => {
    const jobs = await createMongoMediaJobs(db);
    const expected = [...big].sort(newestFirst).map((j) => j.id);
    for (const skip of [0, 300, 580]) {
      const { result, documents } = await reads(() => jobs.list('acct-big', { limit: 20, skip }));
      expect(result.total).toBe(JOBS);
      expect(result.items.map((j) => j.id)).toEqual(expected.slice(skip, skip + 20));
      expect(documents).toBeLessThanOrEqual(BOUND);
      cost[`jobs skip ${skip}`] = documents;
    }
    const first = await jobs.list('acct-big', { limit: 20 });
    const { result: second, documents } = await reads(() => jobs.list('acct-big', { limit: 20, after: first.next! }));
    expect(second.items.map((j) => j.id)).toEqual(expected.slice(20, 40));
    expect(documents).toBeLessThanOrEqual(BOUND);
    cost['jobs cursor page 2'] = documents;
  });

  it('a page inside a burst hour reads the ten-minute slots it needs, not the hour', async () => {
    const jobs = await createMongoMediaJobs(db);
    const expected = [...burst].sort(newestFirst).map((j) => j.id);
    for (const skip of [0, 50]) {
      const { result, documents } = await reads(() => jobs.list('acct-burst', { limit: 20, skip }));
      expect(result.items.map((j) => j.id)).toEqual(expected.slice(skip, skip + 20));
      // The hour holds 120: its slots hold about 20 each; a page needs two or three of them.
      expect(documents).toBeLessThanOrEqual(3 * 21 + 4);
      cost[`burst hour skip ${skip}`] = documents;
    }
  });

  it('the month\'s media minutes are counters; a history page reads its buckets only', async () => {
    const usage = await createMongoMediaUsage(db);
    const month = '2026-02';
    const inMonth = big.filter((j) => quotaMonth(j.createdAt) === month);
    const { result: totals, commands, documents } = await reads(() => usage.totals('acct-big', month));
    expect(totals.requests).toBe(inMonth.length);
    expect(totals.reservedSeconds + totals.settledSeconds).toBe(inMonth.reduce((n, j) => n + j.reservedSeconds, 0));
    expect(totals.settledSeconds).toBe(inMonth.filter((j) => j.id.endsWith('0')).reduce((n, j) => n + j.reservedSeconds, 0));
    expect(commands.every((c) => c.collection === 'list_counters')).toBe(true);
    expect(documents).toBeLessThanOrEqual(1);
    cost['consumption totals'] = documents;
    const page = await reads(() => usage.history('acct-big', month, { limit: 20, skip: 100 }));
    expect(page.result.items.map((e) => e.jobId)).toEqual([...inMonth].sort(newestFirst).slice(100, 120).map((j) => j.id));
    expect(page.documents).toBeLessThanOrEqual(bound(20, 1));
    cost['consumption history skip 100'] = page.documents;
  });

  it('the profile count and the plan-limit check of an insert read counters, not profiles', async () => {
    const profiles = await createMongoProfiles(db);
    const counted = await reads(() => profiles.count('acct-big'));
    expect(counted.result).toBe(40);
    expect(counted.commands.map((c) => c.collection)).toEqual(['list_counters']);
    cost['profile count'] = counted.documents;
    const refused = await reads(() => profiles.insert(aProfile({ accountId: 'acct-big', username: 'one-too-many' }), { limit: 40 }).catch((e: Error) => e.name));
    expect(refused.result).toBe('ProfileLimitError');
    expect(refused.commands.filter((c) => c.collection === COLLECTIONS.profiles)).toEqual([]);
  });

  it('a sweep page of a network\'s connections reads the buckets the page falls in', async () => {
    const connections = await createMongoConnectedAccounts(db);
    let afterId: string | undefined;
    let seen = 0;
    for (;;) {
      const { result, documents } = await reads(() => connections.listByPlatform('tiktok', { limit: 50, ...(afterId ? { afterId } : {}) }));
      // 600 tiktok connections over two months, two an hour.
      expect(documents).toBeLessThanOrEqual(bound(50, 2));
      cost[`sweep page ${afterId ? 'n' : '1'}`] = Math.max(cost[`sweep page ${afterId ? 'n' : '1'}`] ?? 0, documents);
      seen += result.items.length;
      if (!result.next) break;
      afterId = result.next;
    }
    expect(seen).toBe(600);
  });

  it('the seeding builders write what the repositories write', async () => {
    const jobs = await createMongoMediaJobs(db);
    const job = aMediaJob({ id: 'mj_builder', accountId: 'acct-builder', createdAt: new Date(start + 5 * hour) });
    await jobs.insert(job);
    expect(await db.collection(MEDIA_JOBS_COLLECTION).findOne({ _id: 'mj_builder' as never })).toEqual(toMediaJobDoc(job));
    const usage = await createMongoMediaUsage(db);
    const entry: MediaUsageEntry = { jobId: 'mj_builder', accountId: 'acct-builder', month: '2026-01', seconds: 9, settled: false, type: 'ffmpeg_job', createdAt: job.createdAt };
    await usage.reserve(entry);
    expect(await db.collection(MEDIA_USAGE_COLLECTION).findOne({ _id: 'mj_builder' as never })).toEqual(toMediaUsageDoc(entry));
    const connections = await createMongoConnectedAccounts(db);
    const connection = aConnectedAccount({ id: 'c_builder', accountId: 'acct-builder', profileUsername: 'b', platform: 'bluesky', capabilities: ['post'] });
    await connections.upsert(connection);
    expect(await db.collection(COLLECTIONS.connectedAccounts).findOne({ _id: 'c_builder' as never })).toEqual(toConnectedAccountDoc(connection));
    const profiles = await createMongoProfiles(db);
    const profile = aProfile({ accountId: 'acct-builder', username: 'b', uiLabels: { 'connect.title': 'B' } });
    await profiles.insert(profile);
    const { _id, ...stored } = (await db.collection(COLLECTIONS.profiles).findOne({ accountId: 'acct-builder' }))!;
    void _id;
    expect(stored).toEqual(toProfileDoc(profile));
  });
});
