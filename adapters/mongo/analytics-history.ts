import { Binary, type Db, type Document, type Filter } from 'mongodb';
import { addDays, captureKey, decodeCaptureCursor, encodeCaptureCursor, type AnalyticsSnapshot } from '../../core/domain/analytics-history';
import {
  dayOfYear, rangeValues, SERIES_DAYS, SERIES_NAMES, seriesFigures, yearOf, yearSpans, type SeriesName,
} from '../../core/domain/analytics-series';
import type { Platform } from '../../core/domain/platforms';
import type {
  AnalyticsSnapshotRepository, PostMetricsCapture, PostMetricsCaptureRepository,
} from '../../core/ports/storage/analytics-history';
import { clean, ensureIndexes, retryDuplicateUpsert, strip, type IdDoc } from './collections';

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
  return { _id: seriesId(accountId, profileUsername, year, name), n: Object.fromEntries([...networks].map(([p, values]) => [p, encodeYear(values)])), expiresAt };
}

const fromDoc = (d: Document): AnalyticsSnapshot => ({
  accountId: d.accountId as string, profileUsername: d.profileUsername as string, platform: d.platform as Platform,
  connectionId: d.connectionId as string, date: d.date as string, metrics: d.metrics as AnalyticsSnapshot['metrics'], capturedAt: d.capturedAt as Date,
});

function snapshotDocument(s: AnalyticsSnapshot, expiresAt: Date): IdDoc {
  const metrics = Object.fromEntries(Object.entries(s.metrics).filter(([k, v]) => FIELD.test(k) && (typeof v === 'number' || v === null)));
  const series = monthKey(s.accountId, s.profileUsername, s.platform, s.date.slice(0, 7));
  return clean({
    _id: `${series}:${s.date.slice(8, 10)}`, series, accountId: s.accountId, profileUsername: s.profileUsername, platform: s.platform,
    connectionId: s.connectionId, date: s.date, metrics, capturedAt: s.capturedAt, expiresAt,
  });
}

const later = (a: unknown, b: Date): Date => (a instanceof Date && a > b ? a : b);

/**
 * Snapshots on FerretDB/MongoDB. The record: one document per day, `_id` =
 * `<account>:<profile>:<network>:<YYYY-MM>:<DD>` with its month in `series`, written by one
 * replace of its own document (days never share a document: FerretDB 1.x loses concurrent updates
 * of one document); `latestOnOrBefore` reads it by month (equality on `series`). Ranges read the
 * series documents (ANALYTICS_SERIES_COLLECTION): one `_id` get per series and year, `concurrency`
 * at a time, never a scan (FerretDB pushes `_id` equality down; `$in` it evaluates over the whole
 * collection). `put` replaces the day's document, then sets the network's array in each series of
 * the year it touches, read-modify-write: one writer per profile (the round takes one network
 * at a time; see the port), and calls for one profile's year are serialized here. Expiry is a
 * field and the analytics pool's periodic cleanup (no TTL indexes).
 */
export async function createMongoAnalyticsSnapshots(db: Db, opts: { concurrency?: number } = {}): Promise<AnalyticsSnapshotRepository> {
  const days = db.collection<IdDoc>(ANALYTICS_SNAPSHOTS_COLLECTION);
  const yearSeries = db.collection<IdDoc>(ANALYTICS_SERIES_COLLECTION);
  await ensureIndexes(days, [
    { key: { series: 1 }, name: 'series' },
    { key: { expiresAt: 1 }, name: 'expiresAt' },
  ]);
  await ensureIndexes(yearSeries, [{ key: { expiresAt: 1 }, name: 'expiresAt' }]);
  const concurrency = opts.concurrency ?? 8;
  const serialized = serializedByKey();
  const month = (key: string) => days.find({ series: key }, { projection: { _id: 0, series: 0, expiresAt: 0 } }).toArray();

  const networkOf = (doc: Document | null | undefined, platform: Platform): unknown => (doc?.n as Record<string, unknown> | undefined)?.[platform];

  return {
    async put(s, expiresAt) {
      const year = yearOf(s.date);
      await serialized(yearKey(s.accountId, s.profileUsername, year), async () => {
        const { _id, ...doc } = snapshotDocument(s, expiresAt);
        // The day's earlier snapshot comes back with the replace (FerretDB takes no projection here).
        const replaced = await retryDuplicateUpsert(() => days.findOneAndReplace({ _id }, doc, { upsert: true, returnDocument: 'before' }), 'analytics snapshot');
        // The year's series this day changes: the network's array of each read, changed and set
        // (the other networks' arrays are left as they are; the writes in one round trip).
        const figures = [...seriesFigures(s, replaced?.metrics as AnalyticsSnapshot['metrics'] | undefined)];
        const ids = figures.map(([name]) => seriesId(s.accountId, s.profileUsername, year, name));
        const field = `n.${s.platform}`;
        const current = await mapBounded(ids, concurrency, (id) => yearSeries.findOne({ _id: id }, { projection: { [field]: 1, expiresAt: 1 } }));
        const ops = figures.map(([, figure], i) => {
          const values = decodeYear(networkOf(current[i], s.platform));
          values[dayOfYear(s.date)] = figure;
          return { updateOne: { filter: { _id: ids[i]! }, update: { $set: { [field]: encodeYear(values), expiresAt: later(current[i]?.expiresAt, expiresAt) } }, upsert: true } };
        });
        await retryDuplicateUpsert(() => yearSeries.bulkWrite(ops, { ordered: false }), 'analytics series');
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
          for (const [name, figure] of seriesFigures(s)) {
            const row = rebuilt.get(name) ?? { networks: new Map<Platform, Float64Array>(), expiresAt: d.expiresAt as Date };
            const values = row.networks.get(s.platform) ?? emptyYear();
            values[dayOfYear(s.date)] = figure;
            row.networks.set(s.platform, values);
            row.expiresAt = later(d.expiresAt, row.expiresAt);
            rebuilt.set(name, row);
          }
        }
        const ops = SERIES_NAMES.map((name) => {
          const row = rebuilt.get(name);
          const _id = seriesId(accountId, profileUsername, year, name);
          if (!row) return { deleteOne: { filter: { _id } } };
          const { _id: _, ...replacement } = seriesDocument(accountId, profileUsername, year, name, row.networks, row.expiresAt);
          return { replaceOne: { filter: { _id }, replacement, upsert: true } };
        });
        await retryDuplicateUpsert(() => yearSeries.bulkWrite(ops, { ordered: false }), 'analytics series');
        return docs.length;
      });
    },
    async deleteExpired(now) {
      await yearSeries.deleteMany({ expiresAt: { $lte: now } });
      return (await days.deleteMany({ expiresAt: { $lte: now } })).deletedCount;
    },
  };
}

/** Drops the year documents of the previous design (`analytics_years`), once the series are rebuilt. Returns whether they existed. */
export async function dropRetiredYearDocuments(db: Db): Promise<boolean> {
  return db.collection(RETIRED_YEARS_COLLECTION).drop().catch(() => false);
}

/**
 * Post metric captures, `_id` = `<account>:<network>:<post id>` (a later fetch replaces the row).
 * The cached endpoint lists an account's rows newest first with a keyset cursor (capture time,
 * then `_id`), so a page costs one indexed find however deep it is.
 */
export async function createMongoPostMetricsCaptures(db: Db): Promise<PostMetricsCaptureRepository> {
  const col = db.collection<IdDoc>(POST_METRICS_COLLECTION);
  await ensureIndexes(col, [
    { key: { accountId: 1, capturedAt: -1 }, name: 'accountId_capturedAt' },
    { key: { accountId: 1, platform: 1, capturedAt: -1 }, name: 'accountId_platform_capturedAt' },
    { key: { expiresAt: 1 }, name: 'expiresAt' },
  ]);
  return {
    async record(c, expiresAt) {
      const _id = captureKey(c.accountId, c.platform, c.platformPostId);
      await retryDuplicateUpsert(() => col.replaceOne({ _id }, { ...clean(c), expiresAt }, { upsert: true }), 'post metrics');
    },
    async list(q) {
      const after = q.cursor !== undefined ? decodeCaptureCursor(q.cursor) : undefined;
      const filter: Filter<IdDoc> = { accountId: q.accountId };
      if (q.platform !== undefined) filter.platform = q.platform;
      if (q.since !== undefined || q.until !== undefined) {
        filter.capturedAt = { ...(q.since !== undefined ? { $gte: q.since } : {}), ...(q.until !== undefined ? { $lt: q.until } : {}) };
      }
      if (after) {
        const at = new Date(after.at);
        filter.$or = [{ capturedAt: { $lt: at } }, { capturedAt: at, _id: { $lt: after.key } }];
      }
      const docs = await col.find(filter).sort({ capturedAt: -1, _id: -1 }).limit(q.limit + 1).toArray();
      const page = docs.slice(0, q.limit);
      const last = page[page.length - 1];
      return {
        items: page.map((d) => strip(d, 'expiresAt') as unknown as PostMetricsCapture),
        nextCursor: docs.length > q.limit && last ? encodeCaptureCursor({ at: (last.capturedAt as Date).getTime(), key: last._id }) : null,
      };
    },
    async deleteExpired(now) {
      return (await col.deleteMany({ expiresAt: { $lte: now } })).deletedCount;
    },
  };
}
