import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { createMongoStorage } from '../../adapters/mongo/storage';
import { storageContract } from './storage.contract';

/**
 * The storage contract on the MongoDB-wire server at MONGODB_URI (FerretDB in dev and CI).
 * Every test gets its own database `herald_test_<random>`, dropped afterwards. An unreachable
 * server fails the tests: it is infrastructure to start, not a reason to skip.
 */
const uri = process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017/herald';

let client: MongoClient | undefined;
let connecting: Promise<MongoClient> | undefined;

async function connect(): Promise<MongoClient> {
  if (client) return client;
  connecting ??= (async () => {
    const candidate = new MongoClient(uri, { serverSelectionTimeoutMS: 3000, connectTimeoutMS: 3000 });
    try {
      await candidate.connect();
      await candidate.db('admin').command({ ping: 1 });
    } catch (err) {
      await candidate.close().catch(() => {});
      throw new Error(
        `MongoDB-wire server unreachable at ${uri} (${(err as Error).message}). ` +
          'Start the local infrastructure with `bash ops/infra.sh up` (or set MONGODB_URI).',
      );
    }
    client = candidate;
    return candidate;
  })();
  try {
    return await connecting;
  } catch (err) {
    connecting = undefined;
    throw err;
  }
}

afterAll(async () => {
  await client?.close();
});

storageContract('mongo', async () => {
  const mongo = await connect();
  const db = mongo.db(`herald_test_${randomBytes(6).toString('hex')}`);
  const storage = await createMongoStorage(db);
  return {
    storage,
    cleanup: async () => {
      await db.dropDatabase();
    },
  };
});

describe('createMongoStorage (mongo only)', () => {
  let db: ReturnType<MongoClient['db']>;

  beforeEach(async () => {
    db = (await connect()).db(`herald_test_${randomBytes(6).toString('hex')}`);
  });

  afterEach(async () => {
    await db.dropDatabase();
  });

  it('creates its indexes idempotently, unique where the contract needs it', async () => {
    await createMongoStorage(db);
    await createMongoStorage(db);

    const unique = async (collection: string) =>
      (await db.collection(collection).indexes())
        .filter((i) => i.unique)
        .map((i) => i.key)
        .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    expect(await unique('operator_accounts')).toEqual([{ email: 1 }]);
    expect(await unique('api_keys')).toEqual([{ hash: 1 }]);
    expect(await unique('profiles')).toEqual([{ accountId: 1, username: 1 }]);
    expect(await unique('connected_accounts')).toEqual([{ accountId: 1, profileUsername: 1, platform: 1 }]);
    expect(await unique('uploads')).toEqual([{ accountId: 1, requestId: 1 }]);
    const uploadKeys = (await db.collection('uploads').indexes()).map((i) => i.key);
    expect(uploadKeys).toEqual(
      expect.arrayContaining([{ accountId: 1, jobId: 1 }, { accountId: 1, createdAt: -1 }, { status: 1, createdAt: 1 }]),
    );
  });

  it('stores ids as _id and denormalizes upload platforms, without leaking either back', async () => {
    const storage = await createMongoStorage(db);
    await storage.operators.insert({ id: 'op-1', email: 'op@example.test', plan: 'free', createdAt: new Date(0) });
    await storage.uploads.insert({
      accountId: 'op-1',
      requestId: 'r-1',
      profileUsername: 'alice',
      mediaType: 'text',
      content: { title: 't' },
      targets: [
        { platform: 'x', connectedAccountId: 'c1', title: 't', settings: {} },
        { platform: 'bluesky', connectedAccountId: 'c2', title: 't', settings: {} },
      ],
      status: 'pending',
      async: false,
      results: {},
      dispatches: {},
      warnings: [],
      createdAt: new Date(0),
      updatedAt: new Date(0),
    });

    expect(await db.collection('operator_accounts').findOne({ email: 'op@example.test' })).toMatchObject({
      _id: 'op-1',
    });
    expect(await db.collection('operator_accounts').findOne({ email: 'op@example.test' })).not.toHaveProperty('id');
    expect(await db.collection('uploads').findOne({ requestId: 'r-1' })).toMatchObject({ platforms: ['x', 'bluesky'] });
    const upload = await storage.uploads.find('op-1', 'r-1');
    expect(upload).not.toHaveProperty('platforms');
    expect(upload).not.toHaveProperty('_id');
  });
});
