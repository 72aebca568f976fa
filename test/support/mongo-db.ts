import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';

/** The MongoDB-wire server the contract tier runs against (FerretDB in dev and CI). */
export const MONGODB_URI = process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017/herald';

/** A database name no other suite or run uses. */
export const testDatabaseName = (): string => `herald_test_${randomBytes(6).toString('hex')}`;

/**
 * A database of the suite's own at MONGODB_URI: connected before its tests, dropped after them.
 * Call at the top of a test file; the returned function gives the database inside tests.
 */
export function useTestDatabase(): () => Db {
  let client: MongoClient | undefined;
  let db: Db | undefined;
  beforeAll(async () => {
    client = new MongoClient(MONGODB_URI, { serverSelectionTimeoutMS: 5000 });
    await client.connect();
    db = client.db(testDatabaseName());
  });
  afterAll(async () => {
    await db?.dropDatabase().catch(() => undefined);
    await client?.close();
  });
  return () => {
    if (!db) throw new Error('the test database is used before beforeAll connected it');
    return db;
  };
}

let shared: Promise<MongoClient> | undefined;
let closing = false;

/**
 * The storage contracts' factory: each call of the returned function gives a repository in a
 * database of its own (dropped by `cleanup`), on one client per test file, closed after its tests.
 * Call at the top of a test file (it registers the afterAll).
 */
export function inFreshDatabase<R>(create: (db: Db) => Promise<R>): () => Promise<{ repository: R; cleanup(): Promise<void> }> {
  if (!closing) {
    closing = true;
    afterAll(async () => {
      await (await shared)?.close();
      shared = undefined;
    });
  }
  return async () => {
    const db = (await (shared ??= MongoClient.connect(MONGODB_URI, { serverSelectionTimeoutMS: 5000 }))).db(testDatabaseName());
    return { repository: await create(db), cleanup: async () => { await db.dropDatabase(); } };
  };
}
