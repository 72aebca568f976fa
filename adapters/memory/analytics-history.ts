import { addDays, captureKey, type AnalyticsSnapshot, type ImpressionsMetrics } from '../../core/domain/analytics-history';
import {
  dayOfYear, rangeValues, SERIES_DAYS, seriesFigures, yearOf, type SeriesName,
} from '../../core/domain/analytics-series';
import type {
  AnalyticsSnapshotRepository, PostMetricsCapture, PostMetricsCaptureRepository,
} from '../../core/ports/storage/analytics-history';
import { copy } from './values';

const snapshotKey = (s: Pick<AnalyticsSnapshot, 'accountId' | 'profileUsername' | 'platform' | 'date'>) =>
  [s.accountId, s.profileUsername, s.platform, s.date].join('\u0000');
const seriesKey = (accountId: string, profileUsername: string, platform: string, year: number, name: SeriesName) =>
  [accountId, profileUsername, platform, year, name].join('\u0000');

/** Snapshots and their year series in memory, with the Mongo adapter's keys and expiry. */
/** `impressions`: each network's default impressions metric (impressionsMetricsIn over the networks' descriptors). */
export function createMemoryAnalyticsSnapshots(impressions: ImpressionsMetrics): AnalyticsSnapshotRepository {
  const rows = new Map<string, { snapshot: AnalyticsSnapshot; expiresAt: Date }>();
  const series = new Map<string, { values: Float64Array; expiresAt: Date }>();
  const write = (s: AnalyticsSnapshot, expiresAt: Date, replaced?: AnalyticsSnapshot['metrics']) => {
    for (const [name, figure] of seriesFigures(s, impressions, replaced)) {
      const key = seriesKey(s.accountId, s.profileUsername, s.platform, yearOf(s.date), name);
      const year = series.get(key) ?? { values: new Float64Array(SERIES_DAYS).fill(NaN), expiresAt };
      year.values[dayOfYear(s.date)] = figure;
      year.expiresAt = new Date(Math.max(year.expiresAt.getTime(), expiresAt.getTime()));
      series.set(key, year);
    }
  };
  return {
    async put(snapshot, expiresAt) {
      const key = snapshotKey(snapshot);
      const replaced = rows.get(key)?.snapshot.metrics;
      rows.set(key, { snapshot: copy(snapshot), expiresAt: new Date(expiresAt.getTime()) });
      write(snapshot, expiresAt, replaced);
    },
    async series(accountId, profileUsername, platforms, names, start, end) {
      return platforms.flatMap((platform) => names.map((name) => ({
        platform, name, values: rangeValues(start, end, (year) => series.get(seriesKey(accountId, profileUsername, platform, year, name))?.values),
      })));
    },
    async latestOnOrBefore(accountId, profileUsername, platform, day, lookbackDays) {
      for (let i = 0, d = day; i <= lookbackDays; i += 1, d = addDays(d, -1)) {
        const hit = rows.get(snapshotKey({ accountId, profileUsername, platform, date: d }));
        if (hit) return copy(hit.snapshot);
      }
      return null;
    },
    async rebuildSeries(accountId, profileUsername, platforms, year) {
      for (const key of series.keys()) {
        const [a, p, , y] = key.split('\u0000');
        if (a === accountId && p === profileUsername && Number(y) === year) series.delete(key);
      }
      const days = [...rows.values()].filter(({ snapshot: s }) =>
        s.accountId === accountId && s.profileUsername === profileUsername && platforms.includes(s.platform) && yearOf(s.date) === year);
      for (const { snapshot, expiresAt } of days) write(snapshot, expiresAt);
      return days.length;
    },
    async deleteExpired(now) {
      let n = 0;
      for (const [key, r] of rows) if (r.expiresAt <= now) { rows.delete(key); n += 1; }
      for (const [key, r] of series) if (r.expiresAt <= now) series.delete(key);
      return n;
    },
  };
}

/** Post metric captures in memory: newest first, by capture time then key, as the Mongo adapter orders them. */
export function createMemoryPostMetricsCaptures(): PostMetricsCaptureRepository {
  const rows = new Map<string, { capture: PostMetricsCapture; expiresAt: Date }>();
  return {
    async record(capture, expiresAt) {
      rows.set(captureKey(capture.accountId, capture.platform, capture.platformPostId), { capture: copy(capture), expiresAt: new Date(expiresAt.getTime()) });
    },
    async list(q) {
      const sorted = [...rows.entries()]
        .map(([key, r]) => ({ key, c: r.capture, t: r.capture.capturedAt.getTime() }))
        .filter(({ c }) => c.accountId === q.accountId && (q.platform === undefined || c.platform === q.platform)
          && (q.since === undefined || c.capturedAt >= q.since) && (q.until === undefined || c.capturedAt < q.until))
        .sort((a, b) => b.t - a.t || (a.key < b.key ? 1 : a.key > b.key ? -1 : 0));
      const after = q.after;
      let from = after ? sorted.findIndex((r) => r.t < after.t || (r.t === after.t && r.key < after.id)) : 0;
      if (from < 0) from = sorted.length;
      const page = sorted.slice(from, from + q.limit);
      const last = page[page.length - 1];
      const next = from + q.limit < sorted.length && last ? { hour: last.c.capturedAt.toISOString().slice(0, 13), t: last.t, id: last.key } : undefined;
      return { items: page.map(({ c }) => copy(c)), total: sorted.length, ...(next ? { next } : {}) };
    },
    async deleteExpired(now) {
      let n = 0;
      for (const [key, r] of rows) if (r.expiresAt <= now) { rows.delete(key); n += 1; }
      return n;
    },
  };
}
