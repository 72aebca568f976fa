import { NETWORK_IMPRESSIONS } from '../../adapters/platforms';
import { randomBytes } from 'node:crypto';
import { BUCKET_QUERY_COST, bucketReadBound } from '../../adapters/mongo/bucket-list';
import { Binary, MongoClient, type Db } from 'mongodb';
import {
  analyticsSeriesCounterDeltas, analyticsSnapshotCounterDeltas, ANALYTICS_SERIES_COLLECTION, ANALYTICS_SNAPSHOTS_COLLECTION, backfillAnalyticsSeries,
  backfillAnalyticsSnapshot, backfillPostMetrics, createMongoAnalyticsSnapshots, createMongoPostMetricsCaptures, postMetricsCounterDeltas,
  postMetricsDocument, POST_METRICS_COLLECTION, seriesId, snapshotDocument,
} from '../../adapters/mongo/analytics-history';
import type { IdDoc } from '../../adapters/mongo/collections';
import { hourBucket, laneHours, listCountersFor, LIST_COUNTERS } from '../../adapters/mongo/list-counters';
import { addDays } from '../../core/domain/analytics-history';
import { IMPRESSIONS_SERIES } from '../../core/domain/analytics-series';
import type { PostMetricsCapture } from '../../core/ports/storage/analytics-history';
import { aCapture, analyticsSnapshotsContract, aSnapshot, postMetricsCapturesContract } from './storage/analytics-history.contract';
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

analyticsSnapshotsContract('mongo', inFreshDatabase((db) => createMongoAnalyticsSnapshots(db, { impressions: NETWORK_IMPRESSIONS })));
postMetricsCapturesContract('mongo', inFreshDatabase(createMongoPostMetricsCaptures));

describe('Mongo analytics series: the stored shape and the rebuild from day documents (migration)', () => {
  let db: Db;
  beforeEach(async () => { db = (await connect()).db(`herald_test_${randomBytes(6).toString('hex')}`); });
  afterEach(async () => { await db.dropDatabase(); });

  it('stores a year of one series as one document with a Binary per network, and rebuilds lost series from the day documents', async () => {
    const snapshots = await createMongoAnalyticsSnapshots(db, { impressions: NETWORK_IMPRESSIONS });
    const far = new Date('2030-01-01T00:00:00Z');
    for (const [i, date] of ['2026-01-01', '2026-01-02', '2026-02-10'].entries()) {
      await snapshots.put(aSnapshot({ date, metrics: { reach: i + 1, followers: 50 } }), far);
      await snapshots.put(aSnapshot({ date, platform: 'x', metrics: { impressions: 7 } }), far);
    }
    const doc = await db.collection(ANALYTICS_SERIES_COLLECTION).findOne({ _id: seriesId('acct-1', 'alice', 2026, IMPRESSIONS_SERIES) as never });
    expect(Object.keys(doc!).sort()).toEqual(['_id', 'expiresAt', 'n', 'xk']);
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
    const snapshots = await createMongoAnalyticsSnapshots(db, { impressions: NETWORK_IMPRESSIONS });
    const figures = [0.1, 16_777_217, 2 ** 40 + 1, 3];
    for (const [i, reach] of figures.entries()) await snapshots.put(aSnapshot({ date: `2026-05-0${i + 1}`, metrics: { reach } }), new Date('2030-01-01'));
    const [reach] = await snapshots.series('acct-1', 'alice', ['instagram'], ['reach'], '2026-05-01', '2026-05-04');
    expect([...reach!.values]).toEqual(figures);
  });
});

/**
 * What one call costs on the server: the find commands (and getMores) per collection and the
 * documents they returned, from the driver's command monitoring. FerretDB reads what the
 * equality part of a filter selects; with equality-only filters that is what comes back.
 */
interface Reads { finds: number; docs: number }
function commandLog(c: MongoClient) {
  const started = new Map<number, string>();
  let log = new Map<string, Reads>();
  let counting = false;
  c.on('commandStarted', (e) => {
    if (!counting || (e.commandName !== 'find' && e.commandName !== 'getMore')) return;
    started.set(e.requestId, String(e.commandName === 'find' ? e.command.find : e.command.collection));
  });
  c.on('commandSucceeded', (e) => {
    const collection = started.get(e.requestId);
    if (collection === undefined) return;
    started.delete(e.requestId);
    const cursor = (e.reply as { cursor?: { firstBatch?: unknown[]; nextBatch?: unknown[] } }).cursor;
    const r = log.get(collection) ?? { finds: 0, docs: 0 };
    r.finds += 1;
    r.docs += (cursor?.firstBatch ?? cursor?.nextBatch ?? []).length;
    log.set(collection, r);
  });
  return async <T>(fn: () => Promise<T>): Promise<{ result: T; reads: Record<string, Reads> }> => {
    log = new Map();
    counting = true;
    try {
      const result = await fn();
      return { result, reads: Object.fromEntries(log) };
    } finally {
      counting = false;
    }
  };
}

describe('Mongo analytics: what a read costs is bounded by its page, not by the history', () => {
  let monitored: MongoClient;
  let db: Db;
  let measure: ReturnType<typeof commandLog>;
  beforeAll(async () => {
    monitored = new MongoClient(uri, { serverSelectionTimeoutMS: 5000, monitorCommands: true });
    await monitored.connect();
    measure = commandLog(monitored);
  });
  afterAll(async () => { await monitored.close(); });
  beforeEach(() => { db = monitored.db(`herald_test_${randomBytes(6).toString('hex')}`); });
  afterEach(async () => { await db.dropDatabase(); });

  const PER_HOUR = 20;
  const HOURS = 150;
  const LIMIT = 200;
  const start = Date.parse('2026-01-30T00:00:00Z');
  const far = new Date('2030-01-01T00:00:00Z');

  /** 3,000 captures of one account, 20 an hour over 150 hours, one in four on x; one of another account. */
  async function seedCaptures(): Promise<PostMetricsCapture[]> {
    const rows: PostMetricsCapture[] = [];
    for (let h = 0; h < HOURS; h += 1) {
      for (let i = 0; i < PER_HOUR; i += 1) {
        const n = h * PER_HOUR + i;
        rows.push(aCapture({ platform: n % 4 === 0 ? 'x' : 'tiktok', platformPostId: `p_${n}`, capturedAt: new Date(start + h * 3600_000 + i * 60_000 + (n % 7)) }));
      }
    }
    rows.push(aCapture({ accountId: 'acct-2', capturedAt: new Date(start + 3600_000) }));
    const docs = rows.map((r) => postMetricsDocument(r, far));
    const counters = await listCountersFor(db);
    for (let i = 0; i < docs.length; i += 1000) {
      const slice = docs.slice(i, i + 1000);
      await counters.add(slice.flatMap((d) => postMetricsCounterDeltas(d)));
      await db.collection<IdDoc>(POST_METRICS_COLLECTION).insertMany(slice);
    }
    return rows.filter((r) => r.accountId === 'acct-1').sort((a, b) => b.capturedAt.getTime() - a.capturedAt.getTime());
  }

  /**
   * A page may read the list's counter documents and the buckets of the hours it returns, and one
   * more hour at each end; a whole day or month read instead of its hours costs no more than those
   * hours would (a query counted as BUCKET_QUERY_COST records).
   */
  const withinPage = (reads: Record<string, Reads>, perHour: number, limit: number) => {
    const metrics = reads[POST_METRICS_COLLECTION]!;
    const hours = Math.ceil(limit / perHour) + 2;
    expect(metrics.finds).toBeLessThanOrEqual(hours);
    expect(metrics.docs + BUCKET_QUERY_COST * metrics.finds).toBeLessThanOrEqual(hours * (BUCKET_QUERY_COST + perHour));
    expect(metrics.docs).toBeLessThanOrEqual(bucketReadBound(limit));
    expect(reads[LIST_COUNTERS]).toEqual({ finds: 1, docs: expect.any(Number) });
    expect(reads[LIST_COUNTERS]!.docs).toBeLessThanOrEqual(2);
    expect(Object.keys(reads).sort()).toEqual([LIST_COUNTERS, POST_METRICS_COLLECTION].sort());
  };

  it('the cached post metrics: page 1, a middle and the last cursor page, a platform page and a range read a page, not the 3,000 rows', async () => {
    const expected = await seedCaptures();
    const captures = await createMongoPostMetricsCaptures(db);
    const first = await measure(() => captures.list({ accountId: 'acct-1', limit: LIMIT }));
    expect(first.result.total).toBe(HOURS * PER_HOUR);
    expect(first.result.items.map((c) => c.platformPostId)).toEqual(expected.slice(0, LIMIT).map((c) => c.platformPostId));
    withinPage(first.reads, PER_HOUR, LIMIT);

    // The walk: every row once, in order; the middle and the last page cost what the first did.
    let page = first.result;
    const seen = [...page.items];
    const costs: Array<Record<string, Reads>> = [];
    while (page.next) {
      const after = page.next;
      const { result, reads } = await measure(() => captures.list({ accountId: 'acct-1', limit: LIMIT, after }));
      costs.push(reads);
      seen.push(...result.items);
      page = result;
    }
    expect(seen.map((c) => c.platformPostId)).toEqual(expected.map((c) => c.platformPostId));
    expect(costs.length).toBe(HOURS * PER_HOUR / LIMIT - 1);
    for (const reads of [costs[Math.floor(costs.length / 2)]!, costs[costs.length - 1]!]) withinPage(reads, PER_HOUR, LIMIT);

    const x = await measure(() => captures.list({ accountId: 'acct-1', platform: 'x', limit: LIMIT }));
    expect(x.result.items.map((c) => c.platformPostId)).toEqual(expected.filter((c) => c.platform === 'x').slice(0, LIMIT).map((c) => c.platformPostId));
    withinPage(x.reads, PER_HOUR / 4, LIMIT);

    // A range ending mid-hour, deep in the history: exact, and still a page's worth.
    const since = new Date(start + 20 * 3600_000 + 30 * 60_000);
    const until = new Date(start + 30 * 3600_000 + 15 * 60_000);
    const ranged = await measure(() => captures.list({ accountId: 'acct-1', since, until, limit: 100 }));
    const inRange = expected.filter((c) => c.capturedAt >= since && c.capturedAt < until);
    expect(ranged.result.total).toBe(inRange.length);
    expect(ranged.result.items.map((c) => c.platformPostId)).toEqual(inRange.slice(0, 100).map((c) => c.platformPostId));
    withinPage(ranged.reads, PER_HOUR, 100 + 2 * PER_HOUR);
  });

  it('writes what the exported builders and counter deltas say, and the backfill gives a row of the previous version its keys', async () => {
    const captures = await createMongoPostMetricsCaptures(db);
    const c = aCapture({ capturedAt: new Date('2026-03-10T10:20:00Z') });
    await captures.record(c, far);
    const stored = await db.collection(POST_METRICS_COLLECTION).findOne({});
    expect(stored).toEqual(postMetricsDocument(c, far));
    const { lk, xk, lv, ...legacy } = stored!;
    expect(backfillPostMetrics(legacy)).toEqual({ $set: { lk, xk, lv } });
    expect(backfillPostMetrics(stored!)).toBeNull();
    const counters = await listCountersFor(db);
    for (const d of postMetricsCounterDeltas(stored!)) expect(laneHours(await counters.hours(d.list), 'all')).toEqual([[hourBucket(d.at), 1]]);

    const snapshots = await createMongoAnalyticsSnapshots(db, { impressions: NETWORK_IMPRESSIONS });
    const s = aSnapshot();
    await snapshots.put(s, far);
    const day = await db.collection(ANALYTICS_SNAPSHOTS_COLLECTION).findOne({});
    expect(day).toEqual(snapshotDocument(s, far));
    expect(backfillAnalyticsSnapshot({ ...day!, xk: undefined })).toEqual({ $set: { xk: day!.xk } });
    expect(backfillAnalyticsSnapshot(day!)).toBeNull();
    const [snapshotDelta] = analyticsSnapshotCounterDeltas(day!);
    expect(laneHours(await counters.hours(snapshotDelta!.list), 'all')).toEqual([[hourBucket(snapshotDelta!.at), 1]]);
    const series = await db.collection(ANALYTICS_SERIES_COLLECTION).find({}).toArray();
    expect(series.map((d) => backfillAnalyticsSeries(d))).toEqual(series.map(() => null));
    const [seriesDelta] = analyticsSeriesCounterDeltas(series[0]!);
    expect(laneHours(await counters.hours(seriesDelta!.list), 'all')).toEqual([[hourBucket(seriesDelta!.at), series.length]]);
  });

  it('a 30-day and a 365-day series read are a few `_id` gets per series, whatever the days stored', async () => {
    const snapshots = await createMongoAnalyticsSnapshots(db, { impressions: NETWORK_IMPRESSIONS });
    const platforms = ['instagram', 'x', 'tiktok'] as const;
    const docs = [];
    for (let i = 0; i < 400; i += 1) for (const platform of platforms) docs.push(snapshotDocument(aSnapshot({ platform, date: addDays('2025-03-01', i) }), far));
    await db.collection<IdDoc>(ANALYTICS_SNAPSHOTS_COLLECTION).insertMany(docs);
    for (const y of [2025, 2026]) expect(await snapshots.rebuildSeries('acct-1', 'alice', [...platforms], y)).toBeGreaterThan(0);
    const year = await measure(() => snapshots.series('acct-1', 'alice', [...platforms], [IMPRESSIONS_SERIES, 'reach'], '2025-04-04', '2026-04-04'));
    expect(year.reads).toEqual({ [ANALYTICS_SERIES_COLLECTION]: { finds: 4, docs: 4 } });
    expect(year.result.every((s) => s.values.length === 366)).toBe(true);
    const month = await measure(() => snapshots.series('acct-1', 'alice', [...platforms], [IMPRESSIONS_SERIES], '2026-03-01', '2026-03-30'));
    expect(month.reads).toEqual({ [ANALYTICS_SERIES_COLLECTION]: { finds: 1, docs: 1 } });
    expect(month.result.map((s) => s.values.filter((v) => !Number.isNaN(v)).length)).toEqual([30, 30, 30]);
  });

  it('the cleanup reads what expired (a day of snapshots), not the 4,000 kept', async () => {
    const snapshots = await createMongoAnalyticsSnapshots(db, { impressions: NETWORK_IMPRESSIONS });
    const counters = await listCountersFor(db);
    const now = new Date('2026-06-01T12:00:00Z');
    const docs = [];
    // 100 profiles: a day expired, 40 days kept.
    for (let p = 0; p < 100; p += 1) {
      for (let d = 0; d <= 40; d += 1) {
        const expiresAt = new Date(Date.parse('2026-05-31T06:00:00Z') + d * 86_400_000);
        docs.push(snapshotDocument(aSnapshot({ profileUsername: `p${p}`, date: addDays('2026-01-01', d) }), expiresAt));
      }
    }
    await counters.add(docs.flatMap((d) => analyticsSnapshotCounterDeltas(d)));
    await db.collection<IdDoc>(ANALYTICS_SNAPSHOTS_COLLECTION).insertMany(docs);
    const swept = await measure(() => snapshots.deleteExpired(now));
    expect(swept.result).toBe(100);
    expect(swept.reads[ANALYTICS_SNAPSHOTS_COLLECTION]!.docs).toBe(100);
    expect(swept.reads[ANALYTICS_SNAPSHOTS_COLLECTION]!.finds).toBeLessThanOrEqual(3);
    expect(await db.collection(ANALYTICS_SNAPSHOTS_COLLECTION).countDocuments()).toBe(4000);
    expect((await measure(() => snapshots.deleteExpired(now))).reads[ANALYTICS_SNAPSHOTS_COLLECTION]).toBeUndefined();
  });
});
