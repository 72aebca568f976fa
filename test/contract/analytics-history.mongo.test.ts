import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { createMongoAnalyticsSnapshots, createMongoPostMetricsCaptures } from '../../adapters/mongo/analytics-history';
import { analyticsSnapshotsContract, postMetricsCapturesContract } from './storage/analytics-history.contract';
import type { MakeRepository } from './storage/repository-under-test';

/** The analytics history contracts on the MongoDB-wire server at MONGODB_URI (FerretDB), a database per test. */
const uri = process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017/herald';
let client: Promise<MongoClient> | undefined;
const connect = () => (client ??= MongoClient.connect(uri, { serverSelectionTimeoutMS: 5000 }));

jest.setTimeout(60_000);
afterAll(async () => { await (await client)?.close(); });

const inFreshDatabase = <R>(create: (db: Db) => Promise<R>): MakeRepository<R> => async () => {
  const db = (await connect()).db(`herald_test_${randomBytes(6).toString('hex')}`);
  return { repository: await create(db), cleanup: async () => { await db.dropDatabase(); } };
};

analyticsSnapshotsContract('mongo', inFreshDatabase((db) => createMongoAnalyticsSnapshots(db)));
postMetricsCapturesContract('mongo', inFreshDatabase(createMongoPostMetricsCaptures));
