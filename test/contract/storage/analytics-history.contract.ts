import { addDays, type AnalyticsSnapshot } from '../../../core/domain/analytics-history';
import type { AnalyticsSnapshotRepository, PostMetricsCapture, PostMetricsCaptureRepository } from '../../../core/ports/storage/analytics-history';
import { HeraldError } from '../../../core/domain/errors';
import { freshForEachTest, type MakeRepository } from './repository-under-test';

const at = (iso: string) => new Date(iso);

export function aSnapshot(overrides: Partial<AnalyticsSnapshot> = {}): AnalyticsSnapshot {
  return {
    accountId: 'acct-1', profileUsername: 'alice', platform: 'instagram', connectionId: 'conn-ig-1', date: '2026-03-10',
    metrics: { reach: 120, followers: 900, likes: 7 }, capturedAt: at('2026-03-10T23:50:00Z'), ...overrides,
  };
}

/** The behaviour every AnalyticsSnapshotRepository adapter must show. */
export function analyticsSnapshotsContract(name: string, make: MakeRepository<AnalyticsSnapshotRepository>): void {
  describe(`Storage contract: ${name} analytics snapshots`, () => {
    let snapshots: AnalyticsSnapshotRepository;
    freshForEachTest(make, (repository) => { snapshots = repository; });
    const far = at('2030-01-01T00:00:00Z');
    const byDate = (rows: AnalyticsSnapshot[]) => [...rows].sort((a, b) => `${a.platform}${a.date}`.localeCompare(`${b.platform}${b.date}`));

    it('keeps one snapshot per profile, network and day: a second one of the day replaces the first', async () => {
      await snapshots.put(aSnapshot(), far);
      const later = aSnapshot({ metrics: { reach: 150, followers: 905 }, capturedAt: at('2026-03-10T23:59:00Z'), connectionId: 'conn-ig-2' });
      await snapshots.put(later, far);
      expect(await snapshots.range('acct-1', 'alice', ['instagram'], '2026-03-10', '2026-03-10')).toEqual([later]);
    });

    it('reads a range across months and networks, days inclusive, only of its account and profile', async () => {
      for (const date of ['2026-01-31', '2026-02-01', '2026-02-28', '2026-03-01', '2026-03-02']) {
        await snapshots.put(aSnapshot({ date, capturedAt: at(`${date}T23:50:00Z`) }), far);
        await snapshots.put(aSnapshot({ date, platform: 'x', connectionId: 'conn-x', metrics: { impressions: 5 }, capturedAt: at(`${date}T23:50:00Z`) }), far);
      }
      await snapshots.put(aSnapshot({ accountId: 'acct-2', date: '2026-02-01' }), far);
      await snapshots.put(aSnapshot({ profileUsername: 'bob', date: '2026-02-01' }), far);
      const rows = byDate(await snapshots.range('acct-1', 'alice', ['instagram', 'x', 'tiktok'], '2026-02-01', '2026-03-01'));
      expect(rows.map((r) => `${r.platform} ${r.date}`)).toEqual([
        'instagram 2026-02-01', 'instagram 2026-02-28', 'instagram 2026-03-01', 'x 2026-02-01', 'x 2026-02-28', 'x 2026-03-01',
      ]);
      expect(rows[3]).toEqual(aSnapshot({ date: '2026-02-01', platform: 'x', connectionId: 'conn-x', metrics: { impressions: 5 }, capturedAt: at('2026-02-01T23:50:00Z') }));
      expect(await snapshots.range('acct-1', 'alice', ['instagram'], '2026-04-01', '2026-04-30')).toEqual([]);
      expect(await snapshots.range('acct-1', 'alice', [], '2026-01-01', '2026-12-31')).toEqual([]);
    });

    it('reads a year of days (the last_year range) across a year boundary', async () => {
      const start = '2025-06-01';
      for (let i = 0; i < 366; i += 7) await snapshots.put(aSnapshot({ date: addDays(start, i), metrics: { reach: i } }), far);
      const rows = await snapshots.range('acct-1', 'alice', ['instagram'], start, addDays(start, 365));
      expect(rows.length).toBe(53);
      expect(rows.reduce((s, r) => s + (r.metrics.reach ?? 0), 0)).toBe(Array.from({ length: 53 }, (_, k) => k * 7).reduce((a, b) => a + b, 0));
    });

    it('finds the newest snapshot on or before a day, within the lookback', async () => {
      await snapshots.put(aSnapshot({ date: '2026-02-20', metrics: { reach: 1 } }), far);
      await snapshots.put(aSnapshot({ date: '2026-03-03', metrics: { reach: 2 } }), far);
      expect((await snapshots.latestOnOrBefore('acct-1', 'alice', 'instagram', '2026-03-10', 30))?.date).toBe('2026-03-03');
      expect((await snapshots.latestOnOrBefore('acct-1', 'alice', 'instagram', '2026-03-02', 30))?.metrics).toEqual({ reach: 1 });
      expect(await snapshots.latestOnOrBefore('acct-1', 'alice', 'instagram', '2026-03-02', 5)).toBeNull();
      expect(await snapshots.latestOnOrBefore('acct-1', 'alice', 'x', '2026-03-10', 30)).toBeNull();
      expect(await snapshots.latestOnOrBefore('acct-1', 'alice', 'instagram', '2026-02-19', 30)).toBeNull();
    });

    it('removes what expired, keeps the rest', async () => {
      await snapshots.put(aSnapshot({ date: '2025-01-10' }), at('2026-02-01T00:00:00Z'));
      await snapshots.put(aSnapshot({ date: '2026-03-10' }), far);
      expect(await snapshots.deleteExpired(at('2026-03-11T00:00:00Z'))).toBe(1);
      expect(await snapshots.range('acct-1', 'alice', ['instagram'], '2025-01-01', '2026-12-31')).toEqual([aSnapshot({ date: '2026-03-10' })]);
      expect(await snapshots.deleteExpired(at('2026-03-11T00:00:00Z'))).toBe(0);
    });

    it('takes concurrent snapshots of one month without losing a day', async () => {
      const days = Array.from({ length: 20 }, (_, i) => `2026-05-${String(i + 1).padStart(2, '0')}`);
      await Promise.all(days.map((date) => snapshots.put(aSnapshot({ date }), far)));
      expect((await snapshots.range('acct-1', 'alice', ['instagram'], '2026-05-01', '2026-05-31')).length).toBe(20);
    });
  });
}

export function aCapture(overrides: Partial<PostMetricsCapture> = {}): PostMetricsCapture {
  return {
    accountId: 'acct-1', platform: 'tiktok', platformPostId: 'v_1', profileUsername: 'alice', source: 'organic',
    metrics: { views: 10, retention: [{ second: 0, percentage: 100 }] }, capturedAt: at('2026-03-10T10:00:00Z'), ...overrides,
  };
}

/** The behaviour every PostMetricsCaptureRepository adapter must show. */
export function postMetricsCapturesContract(name: string, make: MakeRepository<PostMetricsCaptureRepository>): void {
  describe(`Storage contract: ${name} post metric captures`, () => {
    let captures: PostMetricsCaptureRepository;
    freshForEachTest(make, (repository) => { captures = repository; });
    const far = at('2030-01-01T00:00:00Z');
    const seconds = (s: number) => new Date(at('2026-03-10T10:00:00Z').getTime() + s * 1000);

    it('keeps the last fetch of each post, newest first, with its source and request id', async () => {
      await captures.record(aCapture(), far);
      await captures.record(aCapture({ platformPostId: 'v_2', source: 'api_uploaded', requestId: 'req-1', capturedAt: seconds(5) }), far);
      await captures.record(aCapture({ metrics: { views: 12 }, capturedAt: seconds(9) }), far);
      await captures.record(aCapture({ accountId: 'acct-2', capturedAt: seconds(20) }), far);
      const page = await captures.list({ accountId: 'acct-1', limit: 10 });
      expect(page).toEqual({ items: [aCapture({ metrics: { views: 12 }, capturedAt: seconds(9) }), aCapture({ platformPostId: 'v_2', source: 'api_uploaded', requestId: 'req-1', capturedAt: seconds(5) })], nextCursor: null });
    });

    it('pages with a cursor through rows sharing a capture time, filtered by network and time', async () => {
      for (let i = 0; i < 7; i += 1) await captures.record(aCapture({ platformPostId: `v_${i}`, capturedAt: seconds(i < 4 ? 1 : i) }), far);
      await captures.record(aCapture({ platform: 'x', platformPostId: 'x_1', capturedAt: seconds(3) }), far);
      const seen: string[] = [];
      let cursor: string | undefined;
      for (let n = 0; n < 10; n += 1) {
        const page = await captures.list({ accountId: 'acct-1', platform: 'tiktok', limit: 3, ...(cursor ? { cursor } : {}) });
        seen.push(...page.items.map((c) => c.platformPostId));
        if (!page.nextCursor) break;
        cursor = page.nextCursor;
      }
      expect(seen.length).toBe(7);
      expect(new Set(seen).size).toBe(7);
      expect(seen.slice(0, 3)).toEqual(['v_6', 'v_5', 'v_4']);
      const window = await captures.list({ accountId: 'acct-1', since: seconds(3), until: seconds(6), limit: 10 });
      expect(window.items.map((c) => c.platformPostId)).toEqual(['v_5', 'v_4', 'x_1']);
    });

    it('refuses a cursor it did not issue with 400 invalid_cursor', async () => {
      await expect(captures.list({ accountId: 'acct-1', limit: 3, cursor: 'not a cursor' })).rejects.toMatchObject({ errorCode: 'invalid_cursor' });
      await expect(captures.list({ accountId: 'acct-1', limit: 3, cursor: 'zz~%E0%A4%A' })).rejects.toBeInstanceOf(HeraldError);
    });

    it('removes expired rows', async () => {
      await captures.record(aCapture(), at('2026-03-11T00:00:00Z'));
      await captures.record(aCapture({ platformPostId: 'v_2' }), far);
      expect(await captures.deleteExpired(at('2026-03-12T00:00:00Z'))).toBe(1);
      expect((await captures.list({ accountId: 'acct-1', limit: 10 })).items.map((c) => c.platformPostId)).toEqual(['v_2']);
    });
  });
}
