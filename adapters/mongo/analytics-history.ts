import type { Db, Document, Filter } from 'mongodb';
import { addDays, captureKey, decodeCaptureCursor, encodeCaptureCursor, type AnalyticsSnapshot } from '../../core/domain/analytics-history';
import type { Platform } from '../../core/domain/platforms';
import type {
  AnalyticsSnapshotRepository, PostMetricsCapture, PostMetricsCaptureRepository,
} from '../../core/ports/storage/analytics-history';
import { clean, ensureIndexes, retryDuplicateUpsert, strip, type IdDoc } from './collections';

/** One document per (account, profile, network, UTC day); `series` and `year` name its month and year for equality reads. */
export const ANALYTICS_SNAPSHOTS_COLLECTION = 'analytics_snapshots';
/** One document per (account, network, post): the last live metrics fetched for it. */
export const POST_METRICS_COLLECTION = 'post_metrics';
/**
 * A year of one network of a profile in one document (`d.<MM-DD>`: the day's metrics, `_c`
 * connection, `_at` capture time), kept beside the day documents for long reads: FerretDB's cost
 * is per document returned (a year of ten networks as day documents: 3,660 of them, seconds on a
 * loaded machine), so a year read is one `_id` get per network and year instead.
 */
export const ANALYTICS_YEARS_COLLECTION = 'analytics_years';

/** Ranges over more months than this are read per year (`year` field), shorter ones per month (`series`). */
const MONTH_READS_UP_TO = 3;

/** Metric names become field names: only plain identifiers are stored (no `.`, no leading `$`). */
const FIELD = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

const seriesOf = (accountId: string, profileUsername: string, platform: string, month: string) =>
  `${encodeURIComponent(accountId)}:${encodeURIComponent(profileUsername)}:${platform}:${month}`;

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

const fromDoc = (d: Document): AnalyticsSnapshot => ({
  accountId: d.accountId as string, profileUsername: d.profileUsername as string, platform: d.platform as Platform,
  connectionId: d.connectionId as string, date: d.date as string, metrics: d.metrics as AnalyticsSnapshot['metrics'], capturedAt: d.capturedAt as Date,
});

/** The stored document of one day's snapshot (also what bulk loaders such as the benchmark insert). */
export function snapshotDocument(s: AnalyticsSnapshot, expiresAt: Date): IdDoc {
  const metrics = Object.fromEntries(Object.entries(s.metrics).filter(([k, v]) => FIELD.test(k) && (typeof v === 'number' || v === null)));
  const series = seriesOf(s.accountId, s.profileUsername, s.platform, s.date.slice(0, 7));
  return clean({
    _id: `${series}:${s.date.slice(8, 10)}`, series, year: seriesOf(s.accountId, s.profileUsername, s.platform, s.date.slice(0, 4)), accountId: s.accountId, profileUsername: s.profileUsername, platform: s.platform,
    connectionId: s.connectionId, date: s.date, metrics, capturedAt: s.capturedAt, expiresAt,
  });
}

/** The year document of one network of a profile holding `days` (bulk loaders: the benchmark). */
export function yearDocument(days: readonly AnalyticsSnapshot[], expiresAt: Date): IdDoc {
  const first = days[0]!;
  return {
    _id: seriesOf(first.accountId, first.profileUsername, first.platform, first.date.slice(0, 4)),
    accountId: first.accountId, profileUsername: first.profileUsername, platform: first.platform, expiresAt,
    d: Object.fromEntries(days.map((s) => [s.date.slice(5), { ...s.metrics, _c: s.connectionId, _at: s.capturedAt }])),
  };
}

/** The equality key of one network's month of a profile (exported for the benchmark's baseline). */
export const snapshotSeries = seriesOf;

/**
 * Snapshots on FerretDB/MongoDB: one document per day, `_id` = `<series>:<DD>` where the series
 * is `<account>:<profile>:<network>:<YYYY-MM>`. A day is written by one upsert of its own document
 * (the key is unique: a second snapshot of the day replaces the first; days never share a
 * document, because FerretDB 1.x loses concurrent updates of one document). A range of up to
 * three months is read as one equality find on `series` per network and month (up to 31 small
 * documents each), a longer one as one find on `year` per network and year (a year of ten
 * networks: 20 indexed finds), `concurrency` at a time; never a scan. FerretDB
 * pushes equality down (ops/ferretdb-tune.sh gives `series` its GIN index); `$in` and ranges it
 * does not. Expiry is a field and the analytics pool's periodic cleanup (no TTL indexes).
 */
export async function createMongoAnalyticsSnapshots(db: Db, opts: { concurrency?: number } = {}): Promise<AnalyticsSnapshotRepository> {
  const col = db.collection<IdDoc>(ANALYTICS_SNAPSHOTS_COLLECTION);
  await ensureIndexes(col, [
    { key: { series: 1 }, name: 'series' },
    { key: { expiresAt: 1 }, name: 'expiresAt' },
  ]);
  const concurrency = opts.concurrency ?? 8;
  const years = db.collection<IdDoc>(ANALYTICS_YEARS_COLLECTION);
  await ensureIndexes(years, [{ key: { expiresAt: 1 }, name: 'expiresAt' }]);
  const yearOf = async (key: string): Promise<AnalyticsSnapshot[]> => {
    const doc = await years.findOne({ _id: key });
    if (!doc) return [];
    const y = key.slice(-4);
    return Object.entries((doc.d ?? {}) as Record<string, Record<string, unknown>>).map(([mmdd, e]) => {
      const { _c, _at, ...metrics } = e;
      return {
        accountId: doc.accountId as string, profileUsername: doc.profileUsername as string, platform: doc.platform as Platform,
        connectionId: _c as string, date: `${y}-${mmdd}`, metrics: metrics as AnalyticsSnapshot['metrics'], capturedAt: _at as Date,
      };
    });
  };
  const month = (series: string) => col.find({ series }, { projection: { _id: 0, series: 0, year: 0, expiresAt: 0 } }).toArray();
  return {
    async put(s, expiresAt) {
      const { _id, year, metrics, ...doc } = snapshotDocument(s, expiresAt);
      await retryDuplicateUpsert(() => col.replaceOne({ _id }, { year, metrics, ...doc }, { upsert: true }), 'analytics snapshot');
      // The year document after the day's own: one writer per profile and network (the snapshot
      // workflow's rounds run one after the other), so FerretDB's lost updates cannot hit it.
      await retryDuplicateUpsert(() => years.updateOne(
        { _id: year as string },
        { $set: { [`d.${s.date.slice(5)}`]: { ...(metrics as object), _c: s.connectionId, _at: s.capturedAt }, accountId: s.accountId, profileUsername: s.profileUsername, platform: s.platform, expiresAt } },
        { upsert: true },
      ), 'analytics year');
    },
    async range(accountId, profileUsername, platforms, start, end) {
      const months = monthsBetween(start, end);
      // Round trips dominate on FerretDB: over a few months, one find per network and year instead of per month.
      const yearKeys = [...new Set(months.map((m) => m.slice(0, 4)))];
      const rows = months.length > MONTH_READS_UP_TO
        ? (await mapBounded(platforms.flatMap((p) => yearKeys.map((y) => seriesOf(accountId, profileUsername, p, y))), concurrency, yearOf)).flat()
        : (await mapBounded(platforms.flatMap((p) => months.map((m) => seriesOf(accountId, profileUsername, p, m))), concurrency, month)).flat().map(fromDoc);
      return rows.filter((s) => s.date >= start && s.date <= end);
    },
    async latestOnOrBefore(accountId, profileUsername, platform, day, lookbackDays) {
      const oldest = addDays(day, -lookbackDays);
      for (const m of monthsBetween(oldest, day).reverse()) {
        const found = (await month(seriesOf(accountId, profileUsername, platform, m))).map(fromDoc).filter((s) => s.date >= oldest && s.date <= day);
        if (found.length) return found.sort((a, b) => b.date.localeCompare(a.date))[0]!;
      }
      return null;
    },
    async deleteExpired(now) {
      await years.deleteMany({ expiresAt: { $lte: now } });
      return (await col.deleteMany({ expiresAt: { $lte: now } })).deletedCount;
    },
  };
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
