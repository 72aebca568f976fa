import type { Db, Document, Filter } from 'mongodb';
import { addDays, captureKey, decodeCaptureCursor, encodeCaptureCursor, type AnalyticsSnapshot } from '../../core/domain/analytics-history';
import type { Platform } from '../../core/domain/platforms';
import type {
  AnalyticsSnapshotRepository, PostMetricsCapture, PostMetricsCaptureRepository,
} from '../../core/ports/storage/analytics-history';
import { clean, ensureIndexes, retryDuplicateUpsert, strip, type IdDoc } from './collections';

/** One document per (account, profile, network, UTC month), the days inside (`days.<DD>`). */
export const ANALYTICS_SNAPSHOTS_COLLECTION = 'analytics_snapshots';
/** One document per (account, network, post): the last live metrics fetched for it. */
export const POST_METRICS_COLLECTION = 'post_metrics';

/** Metric names become field names: only plain identifiers are stored (no `.`, no leading `$`). */
const FIELD = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;

const monthId = (accountId: string, profileUsername: string, platform: string, month: string) =>
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

interface DayEntry { connectionId: string; metrics: Record<string, number | null>; capturedAt: Date }

function snapshotsOf(doc: Document | null, from?: string, to?: string): AnalyticsSnapshot[] {
  if (!doc) return [];
  const days = (doc.days ?? {}) as Record<string, DayEntry>;
  return Object.entries(days)
    .map(([dd, e]) => ({
      accountId: doc.accountId as string, profileUsername: doc.profileUsername as string, platform: doc.platform as Platform,
      connectionId: e.connectionId, date: `${doc.month as string}-${dd}`, metrics: e.metrics, capturedAt: e.capturedAt,
    }))
    .filter((s) => (from === undefined || s.date >= from) && (to === undefined || s.date <= to));
}

/**
 * Snapshots on FerretDB/MongoDB: a month of one network of one profile per document, keyed
 * `<account>:<profile>:<network>:<YYYY-MM>`. Writing a day is one upsert of `days.<DD>` (the key
 * is unique: a second snapshot of the day replaces the first); reading a range is one `_id`
 * equality get per network and month, `concurrency` at a time. FerretDB 1.x pushes `_id`
 * equality down to its primary key; `$in` and range filters over a big collection it does not.
 * Expiry is a field (`expiresAt`, the newest day's) and the analytics pool's periodic cleanup.
 */
export async function createMongoAnalyticsSnapshots(db: Db, opts: { concurrency?: number } = {}): Promise<AnalyticsSnapshotRepository> {
  const col = db.collection<IdDoc>(ANALYTICS_SNAPSHOTS_COLLECTION);
  await ensureIndexes(col, [{ key: { expiresAt: 1 }, name: 'expiresAt' }]);
  const concurrency = opts.concurrency ?? 8;
  const get = (id: string) => col.findOne({ _id: id });
  return {
    async put(s, expiresAt) {
      const metrics = Object.fromEntries(Object.entries(s.metrics).filter(([k, v]) => FIELD.test(k) && (typeof v === 'number' || v === null)));
      const month = s.date.slice(0, 7);
      const entry: DayEntry = { connectionId: s.connectionId, metrics, capturedAt: s.capturedAt };
      await retryDuplicateUpsert(() => col.updateOne(
        { _id: monthId(s.accountId, s.profileUsername, s.platform, month) },
        { $set: clean({ accountId: s.accountId, profileUsername: s.profileUsername, platform: s.platform, month, expiresAt, [`days.${s.date.slice(8, 10)}`]: entry }) },
        { upsert: true },
      ), 'analytics snapshot');
    },
    async range(accountId, profileUsername, platforms, start, end) {
      const ids = platforms.flatMap((p) => monthsBetween(start, end).map((m) => monthId(accountId, profileUsername, p, m)));
      const docs = await mapBounded(ids, concurrency, get);
      return docs.flatMap((d) => snapshotsOf(d, start, end));
    },
    async latestOnOrBefore(accountId, profileUsername, platform, day, lookbackDays) {
      const oldest = addDays(day, -lookbackDays);
      for (const month of monthsBetween(oldest, day).reverse()) {
        const found = snapshotsOf(await get(monthId(accountId, profileUsername, platform, month)), oldest, day);
        if (found.length) return found.sort((a, b) => b.date.localeCompare(a.date))[0]!;
      }
      return null;
    },
    async deleteExpired(now) {
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
