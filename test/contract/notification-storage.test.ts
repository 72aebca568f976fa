import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import { createMemoryNotificationStorage } from '../../adapters/memory/notifications';
import { createMongoNotificationStorage } from '../../adapters/mongo/notifications';
import { notificationStorageContract } from './storage/notifications.contract';

/** The notification repositories' contract on memory and on the MongoDB-wire server at MONGODB_URI (FerretDB). */
const uri = process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017/herald';
let client: MongoClient | undefined;

afterAll(async () => {
  await client?.close();
});

notificationStorageContract('memory', async () => ({ repository: createMemoryNotificationStorage(), cleanup: async () => {} }));

notificationStorageContract('mongo', async () => {
  client ??= await MongoClient.connect(uri, { serverSelectionTimeoutMS: 5000 });
  const db = client.db(`herald_test_${randomBytes(6).toString('hex')}`);
  return { repository: await createMongoNotificationStorage(db), cleanup: async () => { await db.dropDatabase(); } };
});
