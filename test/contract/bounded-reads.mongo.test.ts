import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { createListCounters } from '../../adapters/mongo/list-counters';
import { createMongoUploads, toUploadDoc, uploadCounterDeltas } from '../../adapters/mongo/uploads';
import type { UploadRequest } from '../../core/domain/upload';
import type { UploadRepository } from '../../core/ports/storage';
import { aTargetResult, anUpload, at } from '../support/mothers';

/**
 * What a list read costs on the MongoDB-wire server, in documents: the driver's command
 * monitoring counts the documents every `find` returns. A page must read the same number of
 * documents whether the account holds 60 uploads or 1,200, and whether other accounts hold many.
 */
const uri = process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017/herald';

let client: MongoClient;
let db: Db;
let uploads: UploadRepository;
let counters: Awaited<ReturnType<typeof createListCounters>>;
let docsRead = 0;
/** `find` commands per collection since the last reset. */
let finds: Record<string, number> = {};

beforeAll(async () => {
  client = new MongoClient(uri, { monitorCommands: true, serverSelectionTimeoutMS: 3000 });
  await client.connect();
  client.on('commandSucceeded', (e) => {
    const reply = e.reply as { cursor?: { firstBatch?: unknown[]; nextBatch?: unknown[] }; value?: unknown };
    if (e.commandName === 'find' || e.commandName === 'getMore') docsRead += (reply.cursor?.firstBatch ?? reply.cursor?.nextBatch ?? []).length;
  });
  client.on('commandStarted', (e) => {
    if (e.commandName === 'find') finds[String(e.command.find)] = (finds[String(e.command.find)] ?? 0) + 1;
  });
  db = client.db(`herald_test_${randomBytes(6).toString('hex')}`);
  counters = await createListCounters(db);
  uploads = await createMongoUploads(db, counters);
});

afterAll(async () => {
  counters.stop();
  await db.dropDatabase();
  await client.close();
});

/** Bulk-writes `n` uploads of an account, `perHour` per hour going back from `start`, as the bench seeds them. */
async function seed(accountId: string, n: number, perHour: number, prefix: string): Promise<UploadRequest[]> {
  const made: UploadRequest[] = [];
  for (let i = 0; i < n; i += 1) {
    made.push(anUpload({
      accountId, requestId: `${prefix}-${String(i).padStart(5, '0')}`, createdAt: at(-Math.floor(i / perHour) * 60 - (i % perHour)),
      status: i % 7 === 0 ? 'pending' : 'completed', profileUsername: i % 2 ? 'alice' : 'bob',
      targets: [{ platform: 'x', connectedAccountId: `${accountId}-x`, title: 't', settings: {} }],
    }));
  }
  await counters.add(made.flatMap(uploadCounterDeltas));
  await db.collection('uploads').insertMany(made.map(toUploadDoc));
  return made;
}

async function cost(read: () => Promise<unknown>): Promise<number> {
  docsRead = 0;
  await read();
  return docsRead;
}

it('reads a bounded number of documents per history page, schedule page and count, whatever the history holds', async () => {
  await seed('small', 60, 3, 's');
  const small = {
    first: await cost(() => uploads.history({ accountId: 'small', page: 1, limit: 10 })),
    middle: await cost(() => uploads.history({ accountId: 'small', page: 3, limit: 10 })),
    status: await cost(() => uploads.history({ accountId: 'small', status: 'pending', page: 1, limit: 5 })),
    quota: await cost(() => uploads.countSince('small', at(-600))),
  };
  await seed('large', 1200, 3, 'l');
  await seed('other', 1200, 3, 'o');
  const large = {
    first: await cost(() => uploads.history({ accountId: 'large', page: 1, limit: 10 })),
    middle: await cost(() => uploads.history({ accountId: 'large', page: 60, limit: 10 })),
    status: await cost(() => uploads.history({ accountId: 'large', status: 'pending', page: 1, limit: 5 })),
    quota: await cost(() => uploads.countSince('large', at(-600))),
  };
  const smallAgain = await cost(() => uploads.history({ accountId: 'small', page: 1, limit: 10 }));
  // The documents a page reads: the list's counter documents, the buckets it touches, one target query per upload.
  expect(large.first).toBeLessThanOrEqual(small.first + 3);
  expect(large.middle).toBeLessThanOrEqual(small.middle + 3);
  expect(large.status).toBeLessThanOrEqual(small.status + 24);
  expect(large.quota).toBeLessThanOrEqual(small.quota + 3);
  expect(smallAgain).toBe(small.first);
  // And the page holds what it should: the 60th page of the large account, newest first.
  const page = await uploads.history({ accountId: 'large', page: 60, limit: 10 });
  expect(page.items.map((u) => u.requestId)).toEqual(Array.from({ length: 10 }, (_, k) => `l-${String(590 + k).padStart(5, '0')}`));
  expect(page.total).toBe(1200);
});

it('reads the targets of a page together: one query for a list hour, none for uploads that have not started, early results kept', async () => {
  // 40 published uploads, 20 an hour, each through the repository's own writes (results keyed by th).
  const created: UploadRequest[] = [];
  for (let i = 0; i < 40; i += 1) {
    const upload = anUpload({ accountId: 'dense', requestId: `d-${String(i).padStart(2, '0')}`, createdAt: at(-120 + Math.floor(i / 20) * 60 + i), profileUsername: 'alice' });
    await uploads.insert(upload);
    const begun = await uploads.begin('dense', upload.requestId, at(10));
    expect(begun?.upload?.results).toEqual({});
    await uploads.recordResult('dense', upload.requestId, aTargetResult({ post_id: `p-${i}` }), at(11), begun!.upload!);
    await uploads.markCompleted('dense', upload.requestId, at(12));
    created.push(upload);
  }
  // 10 scheduled and 3 pending ones that have not started; one pending with a result from the accept (a precheck).
  for (let i = 0; i < 10; i += 1) {
    await uploads.insert(anUpload({ accountId: 'dense', requestId: `s-${i}`, createdAt: at(-5), status: 'scheduled', scheduledFor: at(600 + i), profileUsername: 'alice' }));
  }
  for (let i = 0; i < 3; i += 1) await uploads.insert(anUpload({ accountId: 'dense', requestId: `q-${i}`, createdAt: at(-4), profileUsername: 'alice' }));
  const early = anUpload({ accountId: 'dense', requestId: 'q-early', createdAt: at(-4), profileUsername: 'alice' });
  await uploads.insert(early);
  await uploads.recordResult('dense', 'q-early', aTargetResult({ success: false, error: 'refused', error_code: 'invalid_content', post_id: undefined, url: undefined }), at(-4), early);

  finds = {};
  const page = await uploads.history({ accountId: 'dense', status: 'completed', page: 1, limit: 20 });
  expect(page.items.map((u) => u.results.x?.post_id)).toEqual(Array.from({ length: 20 }, (_, k) => `p-${39 - k}`));
  // The counters, one hour bucket, and the page's targets in one query instead of twenty.
  expect(finds.upload_targets).toBe(1);

  finds = {};
  const profile = await uploads.history({ accountId: 'dense', profileUsername: 'alice', page: 2, limit: 20 });
  expect(profile.items.every((u) => u.status !== 'completed' || u.results.x?.success === true)).toBe(true);
  expect(finds.upload_targets ?? 0).toBeLessThanOrEqual(2);

  finds = {};
  const scheduled = await uploads.listScheduled('dense', { limit: 50 });
  expect(scheduled.items).toHaveLength(10);
  expect(finds.upload_targets ?? 0).toBe(0);

  finds = {};
  const pending = await uploads.history({ accountId: 'dense', status: 'pending', page: 1, limit: 10 });
  expect(pending.items.map((u) => u.requestId).sort()).toEqual(['q-0', 'q-1', 'q-2', 'q-early']);
  expect(pending.items.find((u) => u.requestId === 'q-early')!.results.x).toMatchObject({ success: false, error_code: 'invalid_content' });
  // Only the upload with an early result has its targets read.
  expect(finds.upload_targets).toBe(1);
  expect((await uploads.find('dense', 'q-early'))!.results.x?.error_code).toBe('invalid_content');
  // Begun, it comes with that result (the publish sees it is done).
  expect((await uploads.begin('dense', 'q-early', at(20)))!.upload!.results.x?.error_code).toBe('invalid_content');
});
