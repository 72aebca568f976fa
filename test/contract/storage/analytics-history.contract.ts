import { addDays, type AnalyticsSnapshot } from '../../../core/domain/analytics-history';
import { computeTotals, IMPRESSIONS_SERIES, type DailySeries, type SeriesName } from '../../../core/domain/analytics-series';
import type { Platform } from '../../../core/domain/platforms';
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

/** A series' figures as a plain list, null where the day has none. */
const figures = (s: DailySeries | undefined) => (s ? [...s.values].map((v) => (Number.isNaN(v) ? null : v)) : undefined);
/** The sum of a series' figures (days without one count 0). */
const sum = (s: DailySeries | undefined) => (s ? [...s.values].reduce((a, v) => a + (Number.isNaN(v) ? 0 : v), 0) : undefined);

/** The behaviour every AnalyticsSnapshotRepository adapter must show. */
export function analyticsSnapshotsContract(name: string, make: MakeRepository<AnalyticsSnapshotRepository>): void {
  describe(`Storage contract: ${name} analytics snapshots`, () => {
    let snapshots: AnalyticsSnapshotRepository;
    freshForEachTest(make, (repository) => { snapshots = repository; });
    const far = at('2030-01-01T00:00:00Z');
    const one = async (platform: Platform, name: SeriesName, start: string, end: string, profile = 'alice', account = 'acct-1') =>
      (await snapshots.series(account, profile, [platform], [name], start, end))[0];

    it('keeps one snapshot per profile, network and day: a second one of the day replaces the first, in the series too', async () => {
      await snapshots.put(aSnapshot(), far);
      const later = aSnapshot({ metrics: { reach: 150, followers: 905 }, capturedAt: at('2026-03-10T23:59:00Z'), connectionId: 'conn-ig-2' });
      await snapshots.put(later, far);
      expect(await snapshots.latestOnOrBefore('acct-1', 'alice', 'instagram', '2026-03-10', 0)).toEqual(later);
      const read = await snapshots.series('acct-1', 'alice', ['instagram'], [IMPRESSIONS_SERIES, 'reach', 'followers', 'likes'], '2026-03-09', '2026-03-10');
      expect(read.map((s) => [s.platform, s.name, figures(s)])).toEqual([
        ['instagram', IMPRESSIONS_SERIES, [null, 150]], ['instagram', 'reach', [null, 150]], ['instagram', 'followers', [null, 905]], ['instagram', 'likes', [null, null]],
      ]);
    });

    it('reads series across months and networks, days inclusive, only of its account and profile; every pair answered', async () => {
      for (const date of ['2026-01-31', '2026-02-01', '2026-02-28', '2026-03-01', '2026-03-02']) {
        await snapshots.put(aSnapshot({ date, metrics: { reach: Number(date.slice(8)) }, capturedAt: at(`${date}T23:50:00Z`) }), far);
        await snapshots.put(aSnapshot({ date, platform: 'x', connectionId: 'conn-x', metrics: { impressions: 5 }, capturedAt: at(`${date}T23:50:00Z`) }), far);
      }
      await snapshots.put(aSnapshot({ accountId: 'acct-2', date: '2026-02-01' }), far);
      await snapshots.put(aSnapshot({ profileUsername: 'bob', date: '2026-02-01' }), far);
      const read = await snapshots.series('acct-1', 'alice', ['instagram', 'x', 'tiktok'], [IMPRESSIONS_SERIES, 'reach'], '2026-02-01', '2026-03-01');
      expect(read.map((s) => `${s.platform} ${s.name} ${s.values.length} ${sum(s)}`)).toEqual([
        `instagram ${IMPRESSIONS_SERIES} 29 30`, 'instagram reach 29 30', `x ${IMPRESSIONS_SERIES} 29 15`, 'x reach 29 0', `tiktok ${IMPRESSIONS_SERIES} 29 0`, 'tiktok reach 29 0',
      ]);
      expect(figures(read[0])!.filter((v) => v !== null)).toEqual([1, 28, 1]);
      expect(figures(read[3])!.every((v) => v === null)).toBe(true);
      expect(sum(await one('instagram', 'reach', '2026-02-01', '2026-02-01', 'bob'))).toBe(120);
      expect(sum(await one('instagram', 'reach', '2026-02-01', '2026-02-01', 'alice', 'acct-2'))).toBe(120);
      expect(figures(await one('instagram', 'reach', '2026-04-01', '2026-04-03'))).toEqual([null, null, null]);
      expect(await snapshots.series('acct-1', 'alice', [], ['reach'], '2026-01-01', '2026-12-31')).toEqual([]);
    });

    it('reads a year of days (the last_year range) across a year boundary', async () => {
      const start = '2025-06-01';
      for (let i = 0; i < 366; i += 7) await snapshots.put(aSnapshot({ date: addDays(start, i), metrics: { reach: i } }), far);
      const reach = await one('instagram', 'reach', start, addDays(start, 365));
      expect(reach!.values.length).toBe(366);
      expect(figures(reach)!.filter((v) => v !== null).length).toBe(53);
      expect(sum(reach)).toBe(Array.from({ length: 53 }, (_, k) => k * 7).reduce((a, b) => a + b, 0));
      expect(figures(reach)![7]).toBe(7);
    });

    it('answers levels (the last figure of the range) and flows (the sum) through the totals', async () => {
      for (const [date, followers, likes] of [['2026-03-01', 10, 1], ['2026-03-02', 12, 2], ['2026-03-04', null, 3]] as const) {
        await snapshots.put(aSnapshot({ date, metrics: { followers, likes } }), far);
        await snapshots.put(aSnapshot({ date, platform: 'x', metrics: { followers: 100, likes: 10 } }), far);
      }
      const platforms: Platform[] = ['instagram', 'x'];
      const read = await snapshots.series('acct-1', 'alice', platforms, ['followers', 'likes'], '2026-03-01', '2026-03-05');
      expect(computeTotals(read, { start: '2026-03-01', end: '2026-03-05', platforms, metrics: ['followers', 'likes'], breakdown: false })).toEqual({ metrics: { followers: 112, likes: 36 } });
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

    it('removes expired snapshots, and a year\'s series once its last snapshot expired', async () => {
      await snapshots.put(aSnapshot({ date: '2025-01-10' }), at('2026-02-01T00:00:00Z'));
      await snapshots.put(aSnapshot({ date: '2026-03-09' }), at('2026-03-11T00:00:00Z'));
      await snapshots.put(aSnapshot({ date: '2026-03-10' }), far);
      expect(await snapshots.deleteExpired(at('2026-03-11T00:00:00Z'))).toBe(2);
      expect(await snapshots.latestOnOrBefore('acct-1', 'alice', 'instagram', '2026-03-10', 400)).toEqual(aSnapshot({ date: '2026-03-10' }));
      expect(await snapshots.latestOnOrBefore('acct-1', 'alice', 'instagram', '2026-03-09', 400)).toBeNull();
      expect(sum(await one('instagram', 'reach', '2025-01-01', '2025-12-31'))).toBe(0);
      // 2026's series lives until its last snapshot expires: it still holds the 9th.
      expect(figures(await one('instagram', 'reach', '2026-03-09', '2026-03-10'))).toEqual([120, 120]);
      expect(await snapshots.deleteExpired(at('2026-03-11T00:00:00Z'))).toBe(0);
    });

    it('takes concurrent snapshots of one network\'s month without losing a day', async () => {
      const days = Array.from({ length: 20 }, (_, i) => `2026-05-${String(i + 1).padStart(2, '0')}`);
      await Promise.all(days.map((date, i) => snapshots.put(aSnapshot({ date, metrics: { reach: i + 1 } }), far)));
      expect(figures(await one('instagram', 'reach', '2026-05-01', '2026-05-20'))).toEqual(days.map((_, i) => i + 1));
      for (const date of days) expect((await snapshots.latestOnOrBefore('acct-1', 'alice', 'instagram', date, 0))?.date).toBe(date);
    });

    it('runs the snapshot rounds of different profiles concurrently without losing a day', async () => {
      const profiles = Array.from({ length: 8 }, (_, i) => `p${i}`);
      const platforms: Platform[] = ['instagram', 'x', 'tiktok'];
      const days = ['2026-12-30', '2026-12-31', '2027-01-01'];
      // One writer per profile and network (each lane takes its days in turn), all lanes at once.
      await Promise.all(profiles.flatMap((profileUsername, p) => platforms.map(async (platform) => {
        for (const [d, date] of days.entries()) await snapshots.put(aSnapshot({ profileUsername, platform, date, metrics: { reach: p * 100 + d, followers: p } }), far);
      })));
      for (const [p, profileUsername] of profiles.entries()) {
        const read = await snapshots.series('acct-1', profileUsername, platforms, ['reach', 'followers'], days[0]!, days[2]!);
        expect(read.map(figures)).toEqual(platforms.flatMap(() => [[p * 100, p * 100 + 1, p * 100 + 2], [p, p, p]]));
      }
    });

    it('rebuilds a year\'s series from its snapshots of the networks named', async () => {
      await snapshots.put(aSnapshot({ date: '2026-03-01', metrics: { reach: 1, likes: 4 } }), far);
      await snapshots.put(aSnapshot({ date: '2026-03-02', metrics: { reach: 2 } }), far);
      await snapshots.put(aSnapshot({ date: '2026-03-02', platform: 'x', metrics: { impressions: 6 } }), far);
      await snapshots.put(aSnapshot({ date: '2025-12-31', metrics: { reach: 9 } }), far);
      const read = () => snapshots.series('acct-1', 'alice', ['instagram', 'x'], [IMPRESSIONS_SERIES, 'reach', 'likes'], '2025-12-31', '2026-03-02');
      const before = await read();
      expect(await snapshots.rebuildSeries('acct-1', 'alice', ['instagram', 'x'], 2026)).toBe(3);
      expect(await read()).toEqual(before);
      expect(before.map(sum)).toEqual([12, 12, 4, 6, 0, 0]);
      // A network left out is dropped from that year (its snapshots stay).
      expect(await snapshots.rebuildSeries('acct-1', 'alice', ['instagram'], 2026)).toBe(2);
      expect(sum(await one('x', IMPRESSIONS_SERIES, '2026-01-01', '2026-12-31'))).toBe(0);
      expect((await snapshots.latestOnOrBefore('acct-1', 'alice', 'x', '2026-03-02', 0))?.metrics).toEqual({ impressions: 6 });
      expect(sum(await one('instagram', 'reach', '2025-12-31', '2026-03-02'))).toBe(12);
    });

    it('keeps each network\'s figures when a round writes a profile\'s networks one after another', async () => {
      const platforms: Platform[] = ['instagram', 'x', 'tiktok', 'youtube'];
      for (const date of ['2026-03-01', '2026-03-02']) {
        for (const [i, platform] of platforms.entries()) await snapshots.put(aSnapshot({ date, platform, metrics: { likes: i + 1 } }), far);
      }
      const read = await snapshots.series('acct-1', 'alice', platforms, ['likes'], '2026-03-01', '2026-03-02');
      expect(read.map(figures)).toEqual([[1, 1], [2, 2], [3, 3], [4, 4]]);
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
