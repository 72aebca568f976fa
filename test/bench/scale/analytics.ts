/**
 * The analytics lists of the scale bench: the cached post metrics (`GET /post-analytics/cached`)
 * and the stored daily snapshots behind `GET /total-impressions` (their day documents and year
 * series), seeded with exactly the documents and counter deltas the Mongo repositories write
 * (adapters/mongo/analytics-history.ts's builders).
 *
 * - Post metrics: one captured post per upload of the account (ctx.uploadsOf), evenly over the
 *   capture retention window (CAPTURE_WINDOW_DAYS, the default HERALD_POST_ANALYTICS_RETENTION_MS:
 *   older rows would have been swept), round-robin over the account's connections.
 * - Snapshots: one a day per connection over ctx.months months (the snapshot round's output), and
 *   per profile, year and series the series document their figures make.
 *
 * The cached list has the cursor form only: its middle and last pages are reached with cursors
 * built at a time halfway through the window and just before the 200 oldest rows (a full last page
 * on every account; core/domain/analytics-history.ts encodes them as the API does), not by walking 1,500 pages.
 */
import { NETWORK_IMPRESSIONS } from '../../../adapters/platforms';
import type { Document } from 'mongodb';
import {
  analyticsSeriesCounterDeltas, analyticsSnapshotCounterDeltas, ANALYTICS_SERIES_COLLECTION, ANALYTICS_SNAPSHOTS_COLLECTION,
  postMetricsCounterDeltas, postMetricsDocument, POST_METRICS_COLLECTION, seriesDocument, snapshotDocument,
} from '../../../adapters/mongo/analytics-history';
import type { IdDoc } from '../../../adapters/mongo/collections';
import type { CounterDelta } from '../../../adapters/mongo/list-counters';
import { addDays, dayOf, encodeCapturesCursor, type AnalyticsSnapshot } from '../../../core/domain/analytics-history';
import { dayOfYear, SERIES_DAYS, seriesFigures, yearOf, type SeriesName } from '../../../core/domain/analytics-series';
import type { Platform } from '../../../core/domain/platforms';
import type { PostMetricsCapture } from '../../../core/ports/storage/analytics-history';
import type { MeasuredRequest, ScaleList, SeedContext, SeededAccount } from './plugin';

const NS = '/api/herald';
const DAY_MS = 86_400_000;
export const CAPTURE_WINDOW_DAYS = 90;
const CAPTURE_RETENTION_MS = CAPTURE_WINDOW_DAYS * DAY_MS;
/** HERALD_ANALYTICS_SNAPSHOT_RETENTION_MS's default. */
const SNAPSHOT_RETENTION_MS = 400 * DAY_MS;
const BATCH = 1000;
const PAGE = 200;

/** Inserts documents a batch at a time, each batch counted before it is written (as the repositories do). */
async function write(ctx: SeedContext, collection: string, docs: IdDoc[], deltas: (d: Document) => CounterDelta[]): Promise<number> {
  for (let i = 0; i < docs.length; i += BATCH) {
    const batch = docs.slice(i, i + BATCH);
    await ctx.counters.add(batch.flatMap(deltas));
    await ctx.write(collection, batch);
  }
  return docs.length;
}

const connectionsOf = (account: SeededAccount) =>
  account.profiles.flatMap((profile) => (account.connections[profile] ?? []).map((c) => ({ profile, platform: c.platform as Platform, connectionId: c.connectionId })));

async function seedCaptures(ctx: SeedContext, account: SeededAccount): Promise<number> {
  const connections = connectionsOf(account);
  if (connections.length === 0) return 0;
  const n = ctx.uploadsOf(account);
  const step = CAPTURE_RETENTION_MS / Math.max(1, n);
  let written = 0;
  for (let from = 0; from < n; from += BATCH * 10) {
    const docs: IdDoc[] = [];
    for (let i = from; i < Math.min(n, from + BATCH * 10); i += 1) {
      const c = connections[i % connections.length]!;
      const capturedAt = new Date(Math.floor(ctx.now.getTime() - (i + 0.5) * step));
      const capture: PostMetricsCapture = {
        accountId: account.id, platform: c.platform, platformPostId: `bench-${i}`, profileUsername: c.profile, source: 'api_uploaded', requestId: `bench-${i}`,
        metrics: { views: Math.floor(ctx.random() * 10_000), likes: Math.floor(ctx.random() * 500), comments: Math.floor(ctx.random() * 50), shares: Math.floor(ctx.random() * 20) },
        capturedAt,
      };
      docs.push(postMetricsDocument(capture, new Date(capturedAt.getTime() + CAPTURE_RETENTION_MS)));
    }
    written += await write(ctx, POST_METRICS_COLLECTION, docs, (d) => postMetricsCounterDeltas(d));
  }
  ctx.say(`analytics: ${account.id}: ${written} cached post metrics`);
  return written;
}

/** A day's snapshot of one connection, with figures that move a little from day to day. */
function snapshotOf(ctx: SeedContext, account: SeededAccount, c: ReturnType<typeof connectionsOf>[number], date: string, k: number): AnalyticsSnapshot {
  const capturedAt = new Date(Math.min(ctx.now.getTime(), Date.parse(`${date}T23:50:00Z`)));
  return {
    accountId: account.id, profileUsername: c.profile, platform: c.platform, connectionId: c.connectionId, date, capturedAt,
    metrics: {
      followers: 1000 + k * 3 + Math.floor(ctx.random() * 5), reach: Math.floor(ctx.random() * 5000), impressions: Math.floor(ctx.random() * 8000),
      views: Math.floor(ctx.random() * 8000), likes: Math.floor(ctx.random() * 300),
    },
  };
}

async function seedSnapshots(ctx: SeedContext, account: SeededAccount): Promise<number> {
  const today = dayOf(ctx.now);
  const first = dayOf(new Date(Date.UTC(ctx.now.getUTCFullYear(), ctx.now.getUTCMonth() - ctx.months, ctx.now.getUTCDate())));
  let written = 0;
  for (const profile of account.profiles) {
    const connections = connectionsOf(account).filter((c) => c.profile === profile);
    const days: IdDoc[] = [];
    /** Per year and series: each network's year of figures, and the latest expiry written into it. */
    const years = new Map<number, Map<SeriesName, { networks: Map<Platform, Float64Array>; expiresAt: Date }>>();
    for (const c of connections) {
      for (let date = first, k = 0; date <= today; date = addDays(date, 1), k += 1) {
        const s = snapshotOf(ctx, account, c, date, k);
        const expiresAt = new Date(s.capturedAt.getTime() + SNAPSHOT_RETENTION_MS);
        days.push(snapshotDocument(s, expiresAt));
        const year = years.get(yearOf(date)) ?? new Map();
        years.set(yearOf(date), year);
        for (const [name, figure] of seriesFigures(s, NETWORK_IMPRESSIONS)) {
          const row = year.get(name) ?? { networks: new Map<Platform, Float64Array>(), expiresAt };
          const values = row.networks.get(c.platform) ?? new Float64Array(SERIES_DAYS).fill(NaN);
          values[dayOfYear(date)] = figure;
          row.networks.set(c.platform, values);
          if (expiresAt > row.expiresAt) row.expiresAt = expiresAt;
          year.set(name, row);
        }
      }
    }
    const series = [...years].flatMap(([y, names]) => [...names].map(([name, row]) => seriesDocument(account.id, profile, y, name, row.networks, row.expiresAt)));
    written += await write(ctx, ANALYTICS_SNAPSHOTS_COLLECTION, days, (d) => analyticsSnapshotCounterDeltas(d));
    written += await write(ctx, ANALYTICS_SERIES_COLLECTION, series, (d) => analyticsSeriesCounterDeltas(d));
  }
  ctx.say(`analytics: ${account.id}: ${written} snapshot and series documents over ${ctx.months} months`);
  return written;
}

const cached = (query: string) => `${NS}/post-analytics/cached?limit=${PAGE}${query}`;

export const analyticsScaleList: ScaleList = {
  name: 'analytics',
  async seed(ctx) {
    let written = 0;
    for (const account of ctx.accounts) written += (await seedCaptures(ctx, account)) + (await seedSnapshots(ctx, account));
    return { written };
  },
  async requests(account, get) {
    const out: MeasuredRequest[] = [{ name: 'cached post metrics, page 1', path: cached('') }];
    const first = await get(cached(''));
    const pagination = first.pagination as { next_cursor: string | null };
    const posts = first.posts as Array<{ captured_at: string }>;
    if (pagination.next_cursor) out.push({ name: 'cached post metrics, cursor page 2', path: cached(`&cursor=${encodeURIComponent(pagination.next_cursor)}`) });
    const newest = posts[0] ? Date.parse(posts[0].captured_at) : Date.now();
    // Positions inside the window (any time is a position: the page starts right after it).
    const at = (t: number) => encodeCapturesCursor({ hour: new Date(t).toISOString().slice(0, 13), t, id: '' }, {});
    // The rows are evenly spaced (seedCaptures): the spacing from page 1, hence the time between the
    // PAGE + 1st and the PAGE th oldest row, after which exactly PAGE rows remain: a full last page
    // on every account (an hour before the oldest row held 0 rows on the small account, 138 on the large).
    const oldest = posts[posts.length - 1] ? Date.parse(posts[posts.length - 1]!.captured_at) : newest;
    const step = posts.length > 1 ? (newest - oldest) / (posts.length - 1) : CAPTURE_RETENTION_MS;
    const rows = Math.round(CAPTURE_RETENTION_MS / step);
    out.push(
      { name: 'cached post metrics, a middle page (cursor halfway through the window)', path: cached(`&cursor=${at(newest - CAPTURE_RETENTION_MS / 2)}`) },
      { name: 'cached post metrics, the last full page (cursor 200 rows before the oldest)', path: cached(`&cursor=${at(Math.floor(newest - (rows - PAGE - 0.5) * step))}`) },
    );
    const platform = connectionsOf(account)[0]?.platform;
    if (platform) out.push({ name: `cached post metrics, platform=${platform}, page 1`, path: cached(`&platform=${platform}`) });
    const profile = account.profiles[0];
    if (profile) {
      out.push(
        { name: 'total impressions, last 30 days', path: `${NS}/total-impressions/${encodeURIComponent(profile)}?period=last_month` },
        { name: 'total impressions, last 365 days', path: `${NS}/total-impressions/${encodeURIComponent(profile)}?period=last_year` },
        { name: 'total impressions, last 365 days, 3 metrics with breakdown', path: `${NS}/total-impressions/${encodeURIComponent(profile)}?period=last_year&metrics=reach,likes,followers&breakdown=true` },
      );
    }
    return out;
  },
};

export default analyticsScaleList;
