import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { createMongoApiKeys } from '../../adapters/mongo/api-keys';
import { createMongoConnectedAccounts } from '../../adapters/mongo/connected-accounts';
import { createMongoNotificationOutbox } from '../../adapters/mongo/notifications/outbox';
import { createMongoOAuthStates } from '../../adapters/mongo/oauth-states';
import { createMongoOperatorAccounts } from '../../adapters/mongo/operator-accounts';
import { createMongoProfiles } from '../../adapters/mongo/profiles';
import { createMongoQueues } from '../../adapters/mongo/queues';
import { createMongoStorage } from '../../adapters/mongo/storage';
import { createMongoUploads } from '../../adapters/mongo/uploads';
import { anUploadCompletedEvent } from '../support/mothers';
import { storageContracts } from './storage/contracts';
import { notificationOutboxContract } from './storage/notification-outbox.contract';
import type { MakeRepository } from './storage/repository-under-test';

/**
 * The storage and notification outbox contracts on the MongoDB-wire server at MONGODB_URI (FerretDB in
 * dev and CI). Every test gets its own database `herald_test_<random>`, dropped afterwards. An
 * unreachable server fails the tests: it is infrastructure to start, not a reason to skip.
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

/** A repository built by `create` in a database of its own, dropped by the cleanup. */
const inFreshDatabase = <R>(create: (db: Db) => Promise<R>): MakeRepository<R> => async () => {
  const db = (await connect()).db(`herald_test_${randomBytes(6).toString('hex')}`);
  return { repository: await create(db), cleanup: async () => { await db.dropDatabase(); } };
};

storageContracts('mongo', {
  operators: inFreshDatabase(createMongoOperatorAccounts),
  apiKeys: inFreshDatabase(createMongoApiKeys),
  profiles: inFreshDatabase(createMongoProfiles),
  connectedAccounts: inFreshDatabase(createMongoConnectedAccounts),
  uploads: inFreshDatabase(createMongoUploads),
  oauthStates: inFreshDatabase(createMongoOAuthStates),
  queues: inFreshDatabase(createMongoQueues),
});

notificationOutboxContract('mongo', inFreshDatabase(async (db) => {
  const notifier = await createMongoNotificationOutbox(db);
  return { notifier, emitted: async (accountId: string) => (await notifier.list(accountId)).map((stored) => stored.event) };
}));

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
      expect.arrayContaining([{ accountId: 1, jobId: 1 }, { hk: 1 }, { hs_completed: 1 }, { capk: 1 }, { sk: 1 }]),
    );
  });

  it('creates every collection with exactly its named indexes (queries and ops/ferretdb-tune.sh rely on them)', async () => {
    await createMongoStorage(db);

    const names: Record<string, string[]> = {};
    for (const { name } of await db.listCollections().toArray()) {
      names[name] = (await db.collection(name).indexes()).map((i) => i.name!).sort();
    }
    expect(names).toEqual({
      operator_accounts: ['_id_', 'email_unique'],
      api_keys: ['_id_', 'accountId', 'hash_unique'],
      profiles: ['_id_', 'accountId_username_unique'],
      connected_accounts: ['_id_', 'accountId_profileUsername_platform_unique', 'pk'],
      uploads: ['_id_', 'accountId_jobId', 'accountId_requestId_unique', 'capk', 'hk', 'hs_cancelled', 'hs_completed', 'hs_in_progress', 'hs_pending', 'hs_scheduled', 'pq', 'sk', 'xk'],
      list_counters: ['_id_', 'ck'],
      upload_targets: ['_id_', 'accountId_requestId', 'postId_accountId_platform', 'th'],
      oauth_states: ['_id_', 'xh'],
      queue_slots: ['_id_', 'accountId_profile_slotAt'],
    });
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

  it('stores emitted events undelivered, with their delivery key and time, and creates the outbox indexes idempotently', async () => {
    await createMongoNotificationOutbox(db);
    const outbox = await createMongoNotificationOutbox(db);
    const event = anUploadCompletedEvent({ account_id: 'acct-1' });

    await outbox.emit(event, 'k-1');

    const [stored] = await outbox.list('acct-1');
    expect(stored).toEqual({ deliveryKey: 'k-1', event, createdAt: expect.any(Date), deliveredAt: null });
    const unique = (await db.collection('events').indexes()).filter((i) => i.unique).map((i) => i.key);
    expect(unique).toEqual([{ deliveryKey: 1 }]);
  });
});
