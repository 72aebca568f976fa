import { Binary, type Collection, type Db, type Document } from 'mongodb';
import { addDays, captureKey, type AnalyticsSnapshot, type ImpressionsMetrics } from '../../core/domain/analytics-history';
import {
  dayOfYear, rangeValues, SERIES_DAYS, SERIES_NAMES, seriesFigures, yearOf, yearSpans, type SeriesName,
} from '../../core/domain/analytics-series';
import type { Platform } from '../../core/domain/platforms';
import type {
  AnalyticsSnapshotRepository, PostMetricsCapture, PostMetricsCaptureRepository,
} from '../../core/ports/storage/analytics-history';
import { bucketPage, bucketsOf } from './bucket-list';
import { clean, ensureIndexes, retryDuplicateUpsert, strip, type IdDoc } from './collections';
import { expiryBackfill, expiryKey, expiryKeyDelta, storedExpiryDeltas, sweepExpired, type ExpiryGrain } from './expiry-list';
import { listCountersFor, type CounterDelta, type ListCounters } from './list-counters';

/** One document per (account, profile, network, UTC day): the record. `series` names its month for equality reads. */
export const ANALYTICS_SNAPSHOTS_COLLECTION = 'analytics_snapshots';
/**
 * The range read model (core/domain/analytics-series.ts): one document per (account, profile,
 * year, series), `n.<network>` = that network's year as one BSON Binary of SERIES_DAYS
 * little-endian floats (NaN: no figure; encodeYear). FerretDB's cost is per query, then per
 * document and per BSON element it converts: a year of ten networks' default figure is one
 * document of ~12 elements, so `last_year` is two `_id` gets (not 20 per-network documents,
 * 3,660 day documents or year documents of ~4,000 fields each).
 */
export const ANALYTICS_SERIES_COLLECTION = 'analytics_series';
/** One document per (account, network, post): the last live metrics fetched for it. */
export const POST_METRICS_COLLECTION = 'post_metrics';
/**
 * The expiry keys' grains (adapters/mongo/expiry-list.ts): a day's snapshot taken again the same
 * day keeps its key, a year's series extended day after day changes its key once a month; each
 * goes within a day (a month) after it expired.
 */
const SNAPSHOT_EXPIRY: ExpiryGrain = 'day';
const SERIES_EXPIRY: ExpiryGrain = 'month';
const POST_METRICS_EXPIRY: ExpiryGrain = 'hour';
/** The year documents of the previous design (`d.<MM-DD>`), replaced by ANALYTICS_SERIES_COLLECTION. */
const RETIRED_YEARS_COLLECTION = 'analytics_years';

/** Metric names become field names: only plain identifiers are stored (no `.`, no leading `$`). */
const FIELD = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

const profileKey = (accountId: string, profileUsername: string) => `${encodeURIComponent(accountId)}:${encodeURIComponent(profileUsername)}`;
const monthKey = (accountId: string, profileUsername: string, platform: string, month: string) => `${profileKey(accountId, profileUsername)}:${platform}:${month}`;
const yearKey = (accountId: string, profileUsername: string, year: number) => `${profileKey(accountId, profileUsername)}:${year}`;

/** `_id` of one series document: `<account>:<profile>:<YYYY>:<series>` (exported for the benchmark). */
export const seriesId = (accountId: string, profileUsername: string, year: number, name: SeriesName): string =>
  `${yearKey(accountId, profileUsername, year)}:${encodeURIComponent(name)}`;

/** Every YYYY-MM from `start`'s month to `end`'s, in order. */
function monthsBetween(start: string, end: string): string[] {
  const out: string[] = [];
  let y = Number(start.slice(0, 4));
  let m = Number(start.slice(5, 7));
  const last = end.slice(0, 7);
  for (;;) {
    const month = `${y}-${String(m).padStart(2, '0')}`;
    out.push(month);
    if (month >= last) return out;
    m += 1;
    if (m === 13) { m = 1; y += 1; }
  }
}

/** Runs `fn` over `items`, at most `limit` at a time (a few round trips in flight per request, never hundreds). */
async function mapBounded<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  });
  await Promise.all(lanes);
  return out;
}

/**
 * Calls with the same key run one after another in this process. The series of a profile's year
 * have one writer (the snapshot round, one network at a time); this keeps its own overlapping
 * calls (an activity retried while the first attempt still runs, a rebuild) from losing each
 * other's days.
 */
function serializedByKey() {
  const tails = new Map<string, Promise<unknown>>();
  return async <T>(key: string, fn: () => Promise<T>): Promise<T> => {
    const run = (tails.get(key) ?? Promise.resolve()).then(fn);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    try {
      return await run;
    } finally {
      if (tails.get(key) === tail) tails.delete(key);
    }
  };
}

const emptyYear = () => new Float64Array(SERIES_DAYS).fill(NaN);

/**
 * A year's figures as stored: one Binary of little-endian floats whatever the machine, float32
 * when every figure survives it (counts below 2^24: nearly always), else float64; the length says
 * which. Half the bytes is half of what FerretDB converts (base64 inside its JSONB) per read.
 */
export function encodeYear(values: Float64Array): Binary {
  const narrow = values.every((v) => Number.isNaN(v) || Math.fround(v) === v);
  const width = narrow ? 4 : 8;
  const bytes = new Uint8Array(SERIES_DAYS * width);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < SERIES_DAYS; i += 1) {
    const v = values[i] ?? NaN;
    if (narrow) view.setFloat32(i * 4, v, true);
    else view.setFloat64(i * 8, v, true);
  }
  return new Binary(bytes);
}

function decodeYear(stored: unknown): Float64Array {
  const out = emptyYear();
  if (!(stored instanceof Binary)) return out;
  const bytes = stored.buffer.subarray(0, stored.position);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const narrow = bytes.byteLength === SERIES_DAYS * 4;
  for (let i = 0; i < SERIES_DAYS && (i + 1) * (narrow ? 4 : 8) <= bytes.byteLength; i += 1) {
    out[i] = narrow ? view.getFloat32(i * 4, true) : view.getFloat64(i * 8, true);
  }
  return out;
}

/** The stored document of one series' year of a profile, per network (what `put` writes; bulk loaders such as the benchmark insert it). */
export function seriesDocument(accountId: string, profileUsername: string, year: number, name: SeriesName, networks: ReadonlyMap<Platform, Float64Array>, expiresAt: Date): IdDoc {
  return {
    _id: seriesId(accountId, profileUsername, year, name), n: Object.fromEntries([...networks].map(([p, values]) => [p, encodeYear(values)])),
    expiresAt, xk: expiryKey(ANALYTICS_SERIES_COLLECTION, expiresAt, SERIES_EXPIRY),
  };
}

const fromDoc = (d: Document): AnalyticsSnapshot => ({
  accountId: d.accountId as string, profileUsername: d.profileUsername as string, platform: d.platform as Platform,
  connectionId: d.connectionId as string, date: d.date as string, metrics: d.metrics as AnalyticsSnapshot['metrics'], capturedAt: d.capturedAt as Date,
});

/** The stored document of one day's snapshot (what `put` writes; the scale bench inserts it). */
export function snapshotDocument(s: AnalyticsSnapshot, expiresAt: Date): IdDoc {
  const metrics = Object.fromEntries(Object.entries(s.metrics).filter(([k, v]) => FIELD.test(k) && (typeof v === 'number' || v === null)));
  const series = monthKey(s.accountId, s.profileUsername, s.platform, s.date.slice(0, 7));
  return clean({
    _id: `${series}:${s.date.slice(8, 10)}`, series, accountId: s.accountId, profileUsername: s.profileUsername, platform: s.platform,
    connectionId: s.connectionId, date: s.date, metrics, capturedAt: s.capturedAt, expiresAt, xk: expiryKey(ANALYTICS_SNAPSHOTS_COLLECTION, expiresAt, SNAPSHOT_EXPIRY),
  });
}

/**
 * The counter deltas of a stored snapshot or series document (its expiry list): for the
 * migration's counts of the documents it backfilled (`backfillAnalyticsSnapshot`,
 * `backfillAnalyticsSeries`) and the scale bench's.
 */
export const analyticsSnapshotCounterDeltas = (doc: Document, by = 1): CounterDelta[] =>
  [expiryKeyDelta(expiryKey(ANALYTICS_SNAPSHOTS_COLLECTION, doc.expiresAt as Date, SNAPSHOT_EXPIRY), by)];
export const analyticsSeriesCounterDeltas = (doc: Document, by = 1): CounterDelta[] =>
  [expiryKeyDelta(expiryKey(ANALYTICS_SERIES_COLLECTION, doc.expiresAt as Date, SERIES_EXPIRY), by)];
/** What the migration sets on a snapshot (or series) document written before its expiry key (null: it has it). */
export const backfillAnalyticsSnapshot = (doc: Document): { $set: Document } | null => expiryBackfill(ANALYTICS_SNAPSHOTS_COLLECTION, SNAPSHOT_EXPIRY, doc);
export const backfillAnalyticsSeries = (doc: Document): { $set: Document } | null => expiryBackfill(ANALYTICS_SERIES_COLLECTION, SERIES_EXPIRY, doc);

const later = (a: unknown, b: Date): Date => (a instanceof Date && a > b ? a : b);

/**
 * Snapshots on FerretDB/MongoDB. The record: one document per day, `_id` =
 * `<account>:<profile>:<network>:<YYYY-MM>:<DD>` with its month in `series`, written by one
 * replace of its own document (days never share a document: FerretDB 1.x loses concurrent updates
 * of one document); `latestOnOrBefore` reads it by month (equality on `series`, at most 31
 * documents a month, over the lookback's months). Ranges read the series documents
 * (ANALYTICS_SERIES_COLLECTION): one `_id` get per series and calendar year the range touches
 * (a 30-day or a 365-day range: one or two per series), `concurrency` at a time, never a scan
 * (FerretDB pushes `_id` equality down; `$in` it evaluates over the whole collection). `put`
 * replaces the day's document, then sets the network's array in each series of the year it
 * touches, read-modify-write: one writer per profile (the round takes one network at a time; see
 * the port), and calls for one profile's year are serialized here. Expiry (no TTL indexes): both
 * collections' documents are in expiry lists (`xk`, adapters/mongo/expiry-list.ts), swept by the
 * analytics pool's periodic cleanup hour by hour, by equality.
 */
/** `opts.impressions`: each network's default impressions metric (impressionsMetricsIn over the networks' descriptors). */
export async function createMongoAnalyticsSnapshots(db: Db, opts: { impressions: ImpressionsMetrics; concurrency?: number; counters?: ListCounters }): Promise<AnalyticsSnapshotRepository> {
  const days = db.collection<IdDoc>(ANALYTICS_SNAPSHOTS_COLLECTION);
  const yearSeries = db.collection<IdDoc>(ANALYTICS_SERIES_COLLECTION);
  await ensureIndexes(days, [
    { key: { series: 1 }, name: 'series' },
    { key: { xk: 1 }, name: 'xk' },
  ]);
  await ensureIndexes(yearSeries, [{ key: { xk: 1 }, name: 'xk' }]);
  const counters = opts.counters ?? await listCountersFor(db);
  const concurrency = opts.concurrency ?? 8;
  const serialized = serializedByKey();
  const month = (key: string) => days.find({ series: key }, { projection: { _id: 0, series: 0, expiresAt: 0, xk: 0 } }).toArray();
  const undo = (deltas: CounterDelta[]) => deltas.map((d) => ({ ...d, by: -d.by }));

  const networkOf = (doc: Document | null | undefined, platform: Platform): unknown => (doc?.n as Record<string, unknown> | undefined)?.[platform];

  /**
   * Writes series documents, moving their expiry counts: the new expiry counted before the
   * write, the old one (of the documents as they were read, when counted) uncounted after.
   */
  const writeSeries = async (ops: Parameters<typeof yearSeries.bulkWrite>[0], moves: Array<{ from: Document | null | undefined; to?: string }>) => {
    const moved = moves.filter((m) => m.from?.xk !== m.to);
    const added = moved.flatMap((m) => (m.to ? [expiryKeyDelta(m.to, 1)] : []));
    await counters.add(added);
    try {
      await retryDuplicateUpsert(() => yearSeries.bulkWrite(ops, { ordered: false }), 'analytics series');
    } catch (err) {
      await counters.add(undo(added));
      throw err;
    }
    await counters.add(moved.flatMap((m) => storedExpiryDeltas(m.from, -1)));
  };

  return {
    async put(s, expiresAt) {
      const year = yearOf(s.date);
      await serialized(yearKey(s.accountId, s.profileUsername, year), async () => {
        const { _id, ...doc } = snapshotDocument(s, expiresAt);
        // Counted under its expiry key before it is there, unless the day's snapshot already is.
        const prior = await days.findOne({ _id }, { projection: { xk: 1 } });
        const added = prior?.xk === doc.xk ? [] : storedExpiryDeltas(doc, 1);
        await counters.add(added);
        // The day's earlier snapshot comes back with the replace (FerretDB takes no projection here).
        let replaced: Document | null;
        try {
          replaced = await retryDuplicateUpsert(() => days.findOneAndReplace({ _id }, doc, { upsert: true, returnDocument: 'before' }), 'analytics snapshot');
        } catch (err) {
          await counters.add(undo(added));
          throw err;
        }
        if (replaced?.xk !== doc.xk) await counters.add(storedExpiryDeltas(replaced, -1));
        // The year's series this day changes: the network's array of each read, changed and set
        // (the other networks' arrays are left as they are; the writes in one round trip).
        const figures = [...seriesFigures(s, opts.impressions, replaced?.metrics as AnalyticsSnapshot['metrics'] | undefined)];
        const ids = figures.map(([name]) => seriesId(s.accountId, s.profileUsername, year, name));
        const field = `n.${s.platform}`;
        const current = await mapBounded(ids, concurrency, (id) => yearSeries.findOne({ _id: id }, { projection: { [field]: 1, expiresAt: 1, xk: 1 } }));
        const moves = current.map((from) => ({ from, until: later(from?.expiresAt, expiresAt) })).map((m) => ({ ...m, to: expiryKey(ANALYTICS_SERIES_COLLECTION, m.until, SERIES_EXPIRY) }));
        const ops = figures.map(([, figure], i) => {
          const values = decodeYear(networkOf(current[i], s.platform));
          values[dayOfYear(s.date)] = figure;
          return { updateOne: { filter: { _id: ids[i]! }, update: { $set: { [field]: encodeYear(values), expiresAt: moves[i]!.until, xk: moves[i]!.to } }, upsert: true } };
        });
        await writeSeries(ops, moves);
      });
    },
    async series(accountId, profileUsername, platforms, names, start, end) {
      const spanYears = yearSpans(start, end).map((span) => span.year);
      const ids = names.flatMap((name) => spanYears.map((y) => seriesId(accountId, profileUsername, y, name)));
      const docs = await mapBounded(ids, concurrency, (_id) => yearSeries.findOne({ _id }));
      const found = new Map(docs.filter((d) => d !== null).map((d) => [d._id, d]));
      return platforms.flatMap((platform) => names.map((name) => ({
        platform, name, values: rangeValues(start, end, (y) => {
          const stored = networkOf(found.get(seriesId(accountId, profileUsername, y, name)), platform);
          return stored === undefined ? undefined : decodeYear(stored);
        }),
      })));
    },
    async latestOnOrBefore(accountId, profileUsername, platform, day, lookbackDays) {
      const oldest = addDays(day, -lookbackDays);
      for (const m of monthsBetween(oldest, day).reverse()) {
        const found = (await month(monthKey(accountId, profileUsername, platform, m))).map(fromDoc).filter((s) => s.date >= oldest && s.date <= day);
        if (found.length) return found.sort((a, b) => b.date.localeCompare(a.date))[0]!;
      }
      return null;
    },
    async rebuildSeries(accountId, profileUsername, platforms, year) {
      return serialized(yearKey(accountId, profileUsername, year), async () => {
        const months = platforms.flatMap((p) => monthsBetween(`${year}-01-01`, `${year}-12-31`).map((m) => monthKey(accountId, profileUsername, p, m)));
        const docs = (await mapBounded(months, concurrency, (key) => days.find({ series: key }).toArray())).flat();
        const rebuilt = new Map<SeriesName, { networks: Map<Platform, Float64Array>; expiresAt: Date }>();
        for (const d of docs) {
          const s = fromDoc(d);
          for (const [name, figure] of seriesFigures(s, opts.impressions)) {
            const row = rebuilt.get(name) ?? { networks: new Map<Platform, Float64Array>(), expiresAt: d.expiresAt as Date };
            const values = row.networks.get(s.platform) ?? emptyYear();
            values[dayOfYear(s.date)] = figure;
            row.networks.set(s.platform, values);
            row.expiresAt = later(d.expiresAt, row.expiresAt);
            rebuilt.set(name, row);
          }
        }
        // The series as they are: their expiry counts leave with them.
        const ids = SERIES_NAMES.map((name) => seriesId(accountId, profileUsername, year, name));
        const current = await mapBounded(ids, concurrency, (_id) => yearSeries.findOne({ _id }, { projection: { expiresAt: 1, xk: 1 } }));
        const moves: Array<{ from: Document | null | undefined; to?: string }> = [];
        const ops = SERIES_NAMES.map((name, i) => {
          const row = rebuilt.get(name);
          const _id = ids[i]!;
          if (!row) {
            moves.push({ from: current[i] });
            return { deleteOne: { filter: { _id } } };
          }
          const { _id: _, ...replacement } = seriesDocument(accountId, profileUsername, year, name, row.networks, row.expiresAt);
          moves.push({ from: current[i], to: replacement.xk as string });
          return { replaceOne: { filter: { _id }, replacement, upsert: true } };
        });
        await writeSeries(ops, moves);
        return docs.length;
      });
    },
    async deleteExpired(now) {
      await sweepExpired({ collection: ANALYTICS_SERIES_COLLECTION, col: yearSeries as unknown as Collection<Document>, counters, now });
      return (await sweepExpired({ collection: ANALYTICS_SNAPSHOTS_COLLECTION, col: days as unknown as Collection<Document>, counters, now })).length;
    },
  };
}

/** Drops the year documents of the previous design (`analytics_years`), once the series are rebuilt. Returns whether they existed. */
export async function dropRetiredYearDocuments(db: Db): Promise<boolean> {
  return db.collection(RETIRED_YEARS_COLLECTION).drop().catch(() => false);
}

/** The version of the list keys a post metrics row carries (`lv`); a row without it is the migration's (backfillPostMetrics). */
export const POST_METRICS_LIST_VERSION = 1;
const POST_METRICS_STORAGE_ONLY = ['expiresAt', 'lk', 'xk', 'lv'];

/**
 * The lists a post metrics row is in (docs/storage/lists.md), both by capturedAt, lane `all`:
 * `pm|<account>|` (every network) and `pm|<account>|<network>` (the platform filter). The row
 * keeps both bucket keys in `lk`; `xk` is its expiry key (adapters/mongo/expiry-list.ts).
 */
export const postMetricsList = (accountId: string, platform?: string): string => `pm|${encodeURIComponent(accountId)}|${platform ?? ''}`;

type ListedCapture = { accountId: string; platform: string; capturedAt: Date; expiresAt: Date };

const postMetricsKeys = (c: ListedCapture): Document => ({
  lv: POST_METRICS_LIST_VERSION,
  // Month, day and hour keys of both lists: bucket-list.ts reads whichever size the page needs.
  lk: [postMetricsList(c.accountId), postMetricsList(c.accountId, c.platform)].flatMap((list) => bucketsOf(c.capturedAt).map((b) => `${list}#${b}`)),
  xk: expiryKey(POST_METRICS_COLLECTION, c.expiresAt, POST_METRICS_EXPIRY),
});

/** The stored row of a capture (what `record` writes; the scale bench inserts it). */
export function postMetricsDocument(c: PostMetricsCapture, expiresAt: Date): IdDoc {
  return { _id: captureKey(c.accountId, c.platform, c.platformPostId), ...clean(c), expiresAt, ...postMetricsKeys({ ...c, expiresAt }) };
}

/** The list deltas of a stored row (its two lists), without its expiry. */
const postMetricsListDeltas = (d: Document, by: number): CounterDelta[] =>
  [postMetricsList(d.accountId as string), postMetricsList(d.accountId as string, d.platform as string)].map((list) => ({ list, lane: 'all', at: d.capturedAt as Date, by }));

/**
 * The counter deltas of a stored row entering (`by` 1) or leaving (-1) its lists and its expiry
 * list: for the migration's counts of rows it backfilled, and the scale bench's.
 */
export const postMetricsCounterDeltas = (doc: Document, by = 1): CounterDelta[] =>
  [...postMetricsListDeltas(doc, by), expiryKeyDelta(expiryKey(POST_METRICS_COLLECTION, doc.expiresAt as Date, POST_METRICS_EXPIRY), by)];

/** What the migration sets on a row written before the list keys (null: it has them). */
export function backfillPostMetrics(doc: Document): { $set: Document } | null {
  if (doc.lv === POST_METRICS_LIST_VERSION) return null;
  if (!(doc.capturedAt instanceof Date) || !(doc.expiresAt instanceof Date)) return null;
  return { $set: postMetricsKeys(doc as unknown as ListedCapture) };
}

/**
 * Post metric captures, `_id` = `<account>:<network>:<post id>` (a later fetch replaces the row).
 * The cached endpoint lists an account's rows newest first from hour buckets: a page reads the
 * list's counters and the buckets of the hours it returns (bucketPage), never every row of the
 * account; `since`/`until` cut the edge hours exactly. Expiry: sweepExpired over `xk`.
 */
export async function createMongoPostMetricsCaptures(db: Db, counters?: ListCounters): Promise<PostMetricsCaptureRepository> {
  const listCounters = counters ?? await listCountersFor(db);
  const col = db.collection<IdDoc>(POST_METRICS_COLLECTION);
  await ensureIndexes(col, [
    { key: { lk: 1 }, name: 'lk' },
    { key: { xk: 1 }, name: 'xk' },
  ]);
  const serialized = serializedByKey();
  return {
    async record(c, expiresAt) {
      const { _id, ...doc } = postMetricsDocument(c, expiresAt);
      // One post's fetches in this process one after another: each reads back the row it replaced.
      await serialized(_id, async () => {
        const added = postMetricsCounterDeltas(doc, 1);
        // Counted in its new hour before it is there, uncounted from the old one after (the
        // replace returns the row as it was: no read before the write).
        await listCounters.add(added);
        let before: Document | null;
        try {
          before = await retryDuplicateUpsert(() => col.findOneAndReplace({ _id }, doc, { upsert: true, returnDocument: 'before' }), 'post metrics');
        } catch (err) {
          await listCounters.add(added.map((d) => ({ ...d, by: -d.by })));
          throw err;
        }
        if (before?.lv === POST_METRICS_LIST_VERSION) await listCounters.add([...postMetricsListDeltas(before, -1), ...storedExpiryDeltas(before, -1)]);
      });
    },
    async list(q) {
      const list = postMetricsList(q.accountId, q.platform);
      const page = await bucketPage({
        counts: await listCounters.hours(list), lane: 'all', limit: Math.max(0, Math.floor(q.limit)),
        ...(q.since ? { from: q.since } : {}),
        // until is exclusive; bucketPage's `to` inclusive (times are whole milliseconds).
        ...(q.until ? { to: new Date(q.until.getTime() - 1) } : {}),
        ...(q.after ? { after: q.after } : { offset: 0 }),
        read: (bucket) => col.find({ lk: `${list}#${bucket}` }).toArray(),
        position: (d: Document) => ({ t: (d.capturedAt as Date).getTime(), id: d._id as string }),
      });
      return {
        items: page.items.map((d) => strip(d, ...POST_METRICS_STORAGE_ONLY) as unknown as PostMetricsCapture),
        total: page.total,
        ...(page.next ? { next: page.next } : {}),
      };
    },
    async deleteExpired(now) {
      const removed = await sweepExpired({
        collection: POST_METRICS_COLLECTION, col: col as unknown as Collection<Document>, counters: listCounters, now,
        projection: { accountId: 1, platform: 1, capturedAt: 1, lv: 1 },
        deltas: (d) => (d.lv === POST_METRICS_LIST_VERSION ? postMetricsListDeltas(d, -1) : []),
      });
      return removed.length;
    },
  };
}
