import { randomBytes } from 'node:crypto';
import { Binary, MongoClient, type Db } from 'mongodb';
import {
  ANALYTICS_SERIES_COLLECTION, createMongoAnalyticsSnapshots, createMongoPostMetricsCaptures, seriesId,
} from '../../adapters/mongo/analytics-history';
import { IMPRESSIONS_SERIES } from '../../core/domain/analytics-series';
import { analyticsSnapshotsContract, aSnapshot, postMetricsCapturesContract } from './storage/analytics-history.contract';
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

describe('Mongo analytics series: the stored shape and the rebuild from day documents (migration)', () => {
  let db: Db;
  beforeEach(async () => { db = (await connect()).db(`herald_test_${randomBytes(6).toString('hex')}`); });
  afterEach(async () => { await db.dropDatabase(); });

  it('stores a year of one series as one document with a Binary per network, and rebuilds lost series from the day documents', async () => {
    const snapshots = await createMongoAnalyticsSnapshots(db);
    const far = new Date('2030-01-01T00:00:00Z');
    for (const [i, date] of ['2026-01-01', '2026-01-02', '2026-02-10'].entries()) {
      await snapshots.put(aSnapshot({ date, metrics: { reach: i + 1, followers: 50 } }), far);
      await snapshots.put(aSnapshot({ date, platform: 'x', metrics: { impressions: 7 } }), far);
    }
    const doc = await db.collection(ANALYTICS_SERIES_COLLECTION).findOne({ _id: seriesId('acct-1', 'alice', 2026, IMPRESSIONS_SERIES) as never });
    expect(Object.keys(doc!).sort()).toEqual(['_id', 'expiresAt', 'n']);
    expect(Object.keys(doc!.n).sort()).toEqual(['instagram', 'x']);
    expect(doc!.n.x).toBeInstanceOf(Binary);
    // Counts fit float32 exactly: 4 bytes a day.
    expect((doc!.n.x as Binary).length()).toBe(366 * 4);
    // @impressions, reach, followers, impressions: one document each for the profile's year.
    expect(await db.collection(ANALYTICS_SERIES_COLLECTION).countDocuments()).toBe(4);

    const read = () => snapshots.series('acct-1', 'alice', ['instagram', 'x'], [IMPRESSIONS_SERIES, 'reach', 'followers'], '2026-01-01', '2026-02-10');
    const before = await read();
    await db.collection(ANALYTICS_SERIES_COLLECTION).deleteMany({});
    expect((await read()).every((s) => s.values.every(Number.isNaN))).toBe(true);
    expect(await snapshots.rebuildSeries('acct-1', 'alice', ['instagram', 'x'], 2026)).toBe(6);
    expect(await read()).toEqual(before);
    expect(before[1]!.values[40]).toBe(3);
    expect(before[3]!.values[40]).toBe(7);
  });

  it('keeps figures float32 cannot hold exactly (float64 then)', async () => {
    const snapshots = await createMongoAnalyticsSnapshots(db);
    const figures = [0.1, 16_777_217, 2 ** 40 + 1, 3];
    for (const [i, reach] of figures.entries()) await snapshots.put(aSnapshot({ date: `2026-05-0${i + 1}`, metrics: { reach } }), new Date('2030-01-01'));
    const [reach] = await snapshots.series('acct-1', 'alice', ['instagram'], ['reach'], '2026-05-01', '2026-05-04');
    expect([...reach!.values]).toEqual(figures);
  });
});
