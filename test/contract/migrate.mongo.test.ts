import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { clean } from '../../adapters/mongo/collections';
import { createListCounters } from '../../adapters/mongo/list-counters';
import { analyticsListsStep, MIGRATION_STEPS, notificationListsStep, MIGRATIONS, migrate, pendingMigrations, uploadListsStep, uploadTargetKeysStep, type MigrationStep } from '../../adapters/mongo/migrate';
import { createMongoUploads } from '../../adapters/mongo/uploads';
import { createMongoPostMetricsCaptures, POST_METRICS_COLLECTION, postMetricsDocument } from '../../adapters/mongo/analytics-history';
import { aCapture } from './storage/analytics-history.contract';
import { createMongoNotificationDeliveryLog } from '../../adapters/mongo/notifications/delivery-log';
import { createMongoNotificationOutbox } from '../../adapters/mongo/notifications/outbox';
import type { UploadRequest } from '../../core/domain/upload';
import { anUpload, at } from '../support/mothers';

/**
 * The migration on a database written by the version before bucket lists: uploads in that
 * version's shape (platforms, connectionIds, capDay; no list keys, no counters), then migrate,
 * then every list and count reads right; again is a no-op; an interrupted run resumes.
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

/** The upload document as the previous version wrote it (adapters/mongo/uploads.ts before the bucket lists). */
function previousVersionDoc(upload: UploadRequest) {
  const { results: _r, dispatches: _d, operations: _o, ...rest } = clean(upload);
  void _r; void _d; void _o;
  return {
    ...rest,
    platforms: upload.targets.map((t) => t.platform),
    connectionIds: upload.targets.map((t) => t.connectedAccountId),
    capDay: (upload.scheduledFor ?? upload.createdAt).toISOString().slice(0, 10),
  };
}

async function writeOldDatabase(): Promise<UploadRequest[]> {
  await db.collection('operator_accounts').insertMany([
    { _id: 'acct-a' as never, email: 'a@example.test', plan: 'business', createdAt: at(0) },
    { _id: 'acct-b' as never, email: 'b@example.test', plan: 'business', createdAt: at(0) },
  ]);
  const uploads: UploadRequest[] = [];
  for (let i = 0; i < 90; i += 1) {
    const accountId = i % 3 === 0 ? 'acct-b' : 'acct-a';
    const scheduled = i % 10 === 0;
    uploads.push(anUpload({
      accountId, requestId: `r-${String(i).padStart(3, '0')}`, createdAt: at(i * 41), profileUsername: i % 2 ? 'alice' : 'bob',
      status: scheduled ? 'scheduled' : i % 4 === 0 ? 'pending' : 'completed', ...(scheduled ? { jobId: `j-${i}`, scheduledFor: at(10_000 + i) } : {}),
      ...(i % 7 === 0 ? { externalId: 'ext' } : {}),
      targets: [{ platform: i % 2 ? 'x' : 'bluesky', connectedAccountId: `${accountId}-c`, title: 't', settings: {} }],
    }));
  }
  await db.collection('uploads').insertMany(uploads.map(previousVersionDoc));
  // The previous version's indexes, which the migration drops.
  await db.collection('uploads').createIndex({ accountId: 1, createdAt: -1 }, { name: 'accountId_createdAt' });
  await db.collection('uploads').createIndex({ status: 1, createdAt: 1 }, { name: 'status_createdAt' });
  return uploads;
}

const newestFirst = (xs: UploadRequest[]) => [...xs].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime()).map((u) => u.requestId);

async function expectListsRight(all: UploadRequest[]) {
  const repo = await createMongoUploads(db, counters);
  for (const accountId of ['acct-a', 'acct-b']) {
    const mine = all.filter((u) => u.accountId === accountId);
    const page = await repo.history({ accountId, page: 1, limit: 100 });
    expect({ accountId, ids: page.items.map((u) => u.requestId), total: page.total }).toEqual({ accountId, ids: newestFirst(mine), total: mine.length });
    const completed = mine.filter((u) => u.status === 'completed');
    expect((await repo.history({ accountId, status: 'completed', platform: 'x', page: 1, limit: 100 })).items.map((u) => u.requestId))
      .toEqual(newestFirst(completed.filter((u) => u.targets[0]!.platform === 'x')));
    expect((await repo.history({ accountId, externalId: 'ext', page: 1, limit: 100 })).total).toBe(mine.filter((u) => u.externalId === 'ext').length);
    expect((await repo.listScheduled(accountId, { limit: 100 })).items.map((u) => u.requestId))
      .toEqual(mine.filter((u) => u.status === 'scheduled').sort((a, b) => a.scheduledFor!.getTime() - b.scheduledFor!.getTime()).map((u) => u.requestId));
    expect(await repo.countSince(accountId, at(0))).toBe(mine.length);
    expect(await repo.countForConnection(`${accountId}-c`, at(0), at(20_000))).toBe(mine.length);
    expect((await repo.listStalePending(at(90 * 41 + 60), 100)).filter((u) => u.accountId === accountId).length).toBe(mine.filter((u) => u.status === 'pending').length);
  }
  // A status change after the migration moves the migrated upload between lanes.
  const pending = all.find((u) => u.status === 'pending' && u.accountId === 'acct-a')!;
  await repo.markInProgress('acct-a', pending.requestId, at(50_000));
  expect((await repo.history({ accountId: 'acct-a', status: 'in_progress', page: 1, limit: 10 })).items.map((u) => u.requestId)).toEqual([pending.requestId]);
}

it('migrates uploads written by the previous version: lists, counts and lanes read right, old indexes gone', async () => {
  const all = await writeOldDatabase();
  expect(await pendingMigrations(db)).toEqual(MIGRATION_STEPS.map((s) => s.id));
  // Before the migration the bucket lists know nothing of the old uploads.
  expect((await (await createMongoUploads(db, counters)).history({ accountId: 'acct-a', page: 1, limit: 10 })).total).toBe(0);

  const [report] = await migrate(db, counters);

  expect(report).toEqual({ id: uploadListsStep.id, status: 'done', accounts: 2, changed: 90, counted: 90 });
  expect(await pendingMigrations(db)).toEqual([]);
  const names = (await db.collection('uploads').indexes()).map((i) => i.name);
  expect(names).not.toContain('accountId_createdAt');
  expect(names).not.toContain('status_createdAt');
  expect(await db.collection('uploads').countDocuments({ capDay: { $exists: true } })).toBe(0);
  await expectListsRight(all);
});

it('is idempotent: a second run does nothing, a recount rebuilds counters that were lost', async () => {
  const all = await writeOldDatabase();
  await migrate(db, counters);
  expect((await migrate(db, counters)).map((r) => r.status)).toEqual(MIGRATION_STEPS.map(() => 'already done'));
  await db.collection('list_counters').deleteMany({});
  const [recount] = await migrate(db, counters, { recount: true });
  expect(recount).toMatchObject({ status: 'done', accounts: 2, changed: 0, counted: 90 });
  await expectListsRight(all);
});

it('resumes an interrupted run after the last account it finished', async () => {
  const all = await writeOldDatabase();
  const seen: string[] = [];
  let failOn: string | null = 'acct-b';
  const flaky: MigrationStep = {
    ...uploadListsStep,
    async account(d, c, accountId, opts) {
      seen.push(accountId);
      if (accountId === failOn) throw new Error('killed');
      return uploadListsStep.account!(d, c, accountId, opts);
    },
  };
  await expect(migrate(db, counters, { steps: [flaky] })).rejects.toThrow('killed');
  expect(await db.collection(MIGRATIONS).findOne({ _id: uploadListsStep.id as never })).toMatchObject({ lastAccount: 'acct-a', done: false });
  failOn = null;
  const [report] = await migrate(db, counters, { steps: [flaky] });
  expect(seen).toEqual(['acct-a', 'acct-b', 'acct-b']);
  expect(report).toMatchObject({ status: 'done', accounts: 1, changed: 90 });
  await expectListsRight(all);
});

it('migrates cached post metrics of the previous version: listed again, expired rows deleted, old indexes gone', async () => {
  const now = Date.now();
  const live = [0, 1, 2].map((i) => aCapture({ platformPostId: `p${i}`, capturedAt: new Date(now - (i + 1) * 3600_000) }));
  const expired = aCapture({ platformPostId: 'old', capturedAt: new Date(now - 90 * 24 * 3600_000) });
  const previous = (c: ReturnType<typeof aCapture>, expiresAt: Date) => {
    const { lk: _lk, xk: _xk, lv: _lv, ...rest } = postMetricsDocument(c, expiresAt) as Record<string, unknown>;
    void _lk; void _xk; void _lv;
    return rest;
  };
  await db.collection('operator_accounts').insertOne({ _id: 'acct-1' as never, email: 'm@example.test', plan: 'business', createdAt: at(0) });
  await db.collection(POST_METRICS_COLLECTION).insertMany([
    ...live.map((c) => previous(c, new Date(now + 24 * 3600_000))),
    previous(expired, new Date(now - 3600_000)),
  ] as never[]);
  await db.collection(POST_METRICS_COLLECTION).createIndex({ expiresAt: 1 }, { name: 'expiresAt' });

  const reports = await migrate(db, counters);

  expect(reports.find((r) => r.id === analyticsListsStep.id)).toMatchObject({ status: 'done', changed: 4, counted: 3 });
  const captures = await createMongoPostMetricsCaptures(db, counters);
  const page = await captures.list({ accountId: live[0]!.accountId, limit: 10 });
  expect(page.items.map((c) => c.platformPostId)).toEqual(['p0', 'p1', 'p2']);
  expect(await db.collection(POST_METRICS_COLLECTION).countDocuments({})).toBe(3);
  expect((await db.collection(POST_METRICS_COLLECTION).indexes()).map((i) => i.name)).not.toContain('expiresAt');
});

it('migrates delivery attempts and events of the previous version: listed, pending events dispatched, expired attempts deleted', async () => {
  const now = Date.now();
  await db.collection('operator_accounts').insertOne({ _id: 'acct-n' as never, email: 'n@example.test', plan: 'business', createdAt: at(0) });
  const attempt = (id: string, ageH: number, expiresInH: number) => ({
    _id: id, accountId: 'acct-n', deliveryId: `dl-${id}`, event: 'upload_completed', channel: 'webhook', outcome: 'delivered', attempt: 1,
    createdAt: new Date(now - ageH * 3600_000), expiresAt: new Date(now + expiresInH * 3600_000),
  });
  await db.collection('delivery_attempts').insertMany([attempt('a1', 1, 24), attempt('a2', 30, 24), attempt('a3', 800, -5)] as never[]);
  await db.collection('events').insertOne({ deliveryKey: 'k1', event: { type: 'upload_completed', account_id: 'acct-n' }, createdAt: new Date(now - 3600_000), deliveredAt: null });

  const reports = await migrate(db, counters);

  expect(reports.find((r) => r.id === notificationListsStep.id)).toMatchObject({ status: 'done', changed: 4, counted: 3 });
  const log = await createMongoNotificationDeliveryLog(db);
  const page = await log.list({ accountId: 'acct-n', page: 1, limit: 10 });
  expect(page.items.map((r) => r.id)).toEqual(['a1', 'a2']);
  expect(await db.collection('delivery_attempts').countDocuments({})).toBe(2);
  const outbox = await createMongoNotificationOutbox(db);
  expect((await outbox.pending(10)).map((e) => e.key)).toEqual(['k1']);
});

it('gives the targets of uploads of the previous version their hour keys: a history page then reads them together', async () => {
  const all = await writeOldDatabase();
  // The previous version's target documents: a result for each completed upload, none keyed.
  const done = all.filter((u) => u.status === 'completed');
  await db.collection('upload_targets').insertMany(done.map((u) => ({
    _id: `${u.accountId}:${u.requestId}:${u.targets[0]!.platform}` as never, accountId: u.accountId, requestId: u.requestId, platform: u.targets[0]!.platform,
    result: { platform: u.targets[0]!.platform, success: true, post_id: `p-${u.requestId}`, warnings: [], finished_at: at(0).toISOString() },
  })));
  // And one pending upload whose target already has a result (a precheck at the accept).
  const early = all.find((u) => u.status === 'pending')!;
  await db.collection('upload_targets').insertOne({ _id: `${early.accountId}:${early.requestId}:x` as never, accountId: early.accountId, requestId: early.requestId, platform: 'x',
    result: { platform: 'x', success: false, error: 'refused', error_code: 'invalid_content', warnings: [], finished_at: at(0).toISOString() } });

  const reports = await migrate(db, counters);
  expect(reports.find((r) => r.id === uploadTargetKeysStep.id)).toEqual({ id: uploadTargetKeysStep.id, status: 'done', accounts: 2, changed: 90, counted: 90 });
  expect(await db.collection('upload_targets').countDocuments({ th: { $exists: false } })).toBe(0);
  expect(await db.collection('uploads').countDocuments({ tv: { $exists: false } })).toBe(0);
  expect(await db.collection('uploads').findOne({ requestId: early.requestId })).toMatchObject({ tr: true });

  const repo = await createMongoUploads(db, counters);
  for (const accountId of ['acct-a', 'acct-b']) {
    const page = await repo.history({ accountId, page: 1, limit: 100 });
    for (const u of page.items) {
      if (u.status === 'completed') expect(u.results[u.targets[0]!.platform]?.post_id).toBe(`p-${u.requestId}`);
    }
  }
  const stillPending = await repo.history({ accountId: early.accountId, status: 'pending', page: 1, limit: 100 });
  expect(stillPending.items.find((u) => u.requestId === early.requestId)!.results.x?.error_code).toBe('invalid_content');
  // Again: nothing to do.
  expect((await migrate(db, counters)).find((r) => r.id === uploadTargetKeysStep.id)!.status).toBe('already done');
});
