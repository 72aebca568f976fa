import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { createListCounters } from '../../adapters/mongo/list-counters';
import { createMongoUploads, toUploadDoc, uploadCounterDeltas } from '../../adapters/mongo/uploads';
import type { UploadRequest } from '../../core/domain/upload';
import type { UploadRepository } from '../../core/ports/storage';
import { anUpload, at } from '../support/mothers';

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

beforeAll(async () => {
  client = new MongoClient(uri, { monitorCommands: true, serverSelectionTimeoutMS: 3000 });
  await client.connect();
  client.on('commandSucceeded', (e) => {
    const reply = e.reply as { cursor?: { firstBatch?: unknown[]; nextBatch?: unknown[] }; value?: unknown };
    if (e.commandName === 'find' || e.commandName === 'getMore') docsRead += (reply.cursor?.firstBatch ?? reply.cursor?.nextBatch ?? []).length;
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
