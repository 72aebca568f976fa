import { addDays, captureKey, decodeCaptureCursor, encodeCaptureCursor, type AnalyticsSnapshot } from '../../core/domain/analytics-history';
import type {
  AnalyticsSnapshotRepository, PostMetricsCapture, PostMetricsCaptureRepository,
} from '../../core/ports/storage/analytics-history';
import { copy } from './values';

const snapshotKey = (s: Pick<AnalyticsSnapshot, 'accountId' | 'profileUsername' | 'platform' | 'date'>) =>
  [s.accountId, s.profileUsername, s.platform, s.date].join('\u0000');

/** Snapshots in memory, with the Mongo adapter's key (one per account, profile, network and day). */
export function createMemoryAnalyticsSnapshots(): AnalyticsSnapshotRepository {
  const rows = new Map<string, { snapshot: AnalyticsSnapshot; expiresAt: Date }>();
  return {
    async put(snapshot, expiresAt) {
      rows.set(snapshotKey(snapshot), { snapshot: copy(snapshot), expiresAt: new Date(expiresAt.getTime()) });
    },
    async range(accountId, profileUsername, platforms, start, end) {
      return [...rows.values()]
        .map((r) => r.snapshot)
        .filter((s) => s.accountId === accountId && s.profileUsername === profileUsername && platforms.includes(s.platform) && s.date >= start && s.date <= end)
        .map((s) => copy(s));
    },
    async latestOnOrBefore(accountId, profileUsername, platform, day, lookbackDays) {
      for (let i = 0, d = day; i <= lookbackDays; i += 1, d = addDays(d, -1)) {
        const hit = rows.get(snapshotKey({ accountId, profileUsername, platform, date: d }));
        if (hit) return copy(hit.snapshot);
      }
      return null;
    },
    async deleteExpired(now) {
      let n = 0;
      for (const [key, r] of rows) if (r.expiresAt <= now) { rows.delete(key); n += 1; }
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
      const after = q.cursor !== undefined ? decodeCaptureCursor(q.cursor) : undefined;
      const sorted = [...rows.entries()]
        .map(([key, r]) => ({ key, c: r.capture }))
        .filter(({ c }) => c.accountId === q.accountId && (q.platform === undefined || c.platform === q.platform)
          && (q.since === undefined || c.capturedAt >= q.since) && (q.until === undefined || c.capturedAt < q.until))
        .filter(({ key, c }) => !after || c.capturedAt.getTime() < after.at || (c.capturedAt.getTime() === after.at && key < after.key))
        .sort((a, b) => b.c.capturedAt.getTime() - a.c.capturedAt.getTime() || (a.key < b.key ? 1 : a.key > b.key ? -1 : 0));
      const page = sorted.slice(0, q.limit);
      const last = page[page.length - 1];
      return {
        items: page.map(({ c }) => copy(c)),
        nextCursor: sorted.length > q.limit && last ? encodeCaptureCursor({ at: last.c.capturedAt.getTime(), key: last.key }) : null,
      };
    },
    async deleteExpired(now) {
      let n = 0;
      for (const [key, r] of rows) if (r.expiresAt <= now) { rows.delete(key); n += 1; }
      return n;
    },
  };
}
