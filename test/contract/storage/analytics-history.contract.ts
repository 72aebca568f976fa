import { addDays, captureKey, type AnalyticsSnapshot } from '../../../core/domain/analytics-history';
import { computeTotals, IMPRESSIONS_SERIES, type DailySeries, type SeriesName } from '../../../core/domain/analytics-series';
import type { Platform } from '../../../core/domain/platforms';
import type {
  AnalyticsSnapshotRepository, PostMetricsCapture, PostMetricsCaptureQuery, PostMetricsCaptureRepository,
} from '../../../core/ports/storage/analytics-history';
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

    it('answers 30-day and 365-day ranges day by day, ending on any day, across the year boundary', async () => {
      // A snapshot every third day from 2025-03-01 to 2026-03-31; figures = day index.
      const first = '2025-03-01';
      const all = Array.from({ length: 396 }, (_, i) => addDays(first, i));
      const taken = (i: number) => i % 3 === 0;
      for (const [i, date] of all.entries()) if (taken(i)) await snapshots.put(aSnapshot({ date, metrics: { reach: i, followers: 1000 + i } }), far);
      const expected = (start: string, end: string) => all.map((d, i) => [d, i] as const).filter(([d]) => d >= start && d <= end).map(([, i]) => (taken(i) ? i : null));
      for (const [start, end] of [['2026-01-01', '2026-01-30'], ['2025-12-17', '2026-01-15'], [addDays('2026-03-31', -364), '2026-03-31'], [first, addDays(first, 365)]] as const) {
        const [reach, followers] = await snapshots.series('acct-1', 'alice', ['instagram'], ['reach', 'followers'], start, end);
        expect(figures(reach)).toEqual(expected(start, end));
        expect(figures(followers)).toEqual(expected(start, end).map((v) => (v === null ? null : v + 1000)));
      }
    });

    it('keeps a snapshot taken again with a later expiry past the first one\'s expiry; removes it by the end of its expiry\'s day', async () => {
      await snapshots.put(aSnapshot({ date: '2026-03-09' }), at('2026-03-11T00:00:00Z'));
      await snapshots.put(aSnapshot({ date: '2026-03-09', metrics: { reach: 7 } }), at('2026-03-12T10:00:00Z'));
      expect(await snapshots.deleteExpired(at('2026-03-12T09:59:59Z'))).toBe(0);
      expect((await snapshots.latestOnOrBefore('acct-1', 'alice', 'instagram', '2026-03-09', 0))?.metrics).toEqual({ reach: 7 });
      expect(await snapshots.deleteExpired(at('2026-03-13T00:00:00Z'))).toBe(1);
      expect(await snapshots.latestOnOrBefore('acct-1', 'alice', 'instagram', '2026-03-09', 0)).toBeNull();
      // The year's series goes by the end of the month its last snapshot expired in.
      expect(await snapshots.deleteExpired(at('2026-04-01T00:00:00Z'))).toBe(0);
      expect(figures(await one('instagram', 'reach', '2026-03-09', '2026-03-09'))).toEqual([null]);
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

/** Walks a list to its end with the cursor form: every page's keys, in order. */
async function walk(captures: PostMetricsCaptureRepository, q: Omit<PostMetricsCaptureQuery, 'after'>): Promise<{ keys: string[]; pages: number; totals: number[] }> {
  const keys: string[] = [];
  const totals: number[] = [];
  let after: PostMetricsCaptureQuery['after'];
  for (let pages = 1; pages < 1000; pages += 1) {
    const page = await captures.list({ ...q, ...(after ? { after } : {}) });
    keys.push(...page.items.map((c) => `${c.platform}:${c.platformPostId}`));
    totals.push(page.total);
    if (!page.next) return { keys, pages, totals };
    expect(page.items.length).toBe(q.limit);
    after = page.next;
  }
  throw new Error('the walk did not end');
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
      expect(page).toEqual({ items: [aCapture({ metrics: { views: 12 }, capturedAt: seconds(9) }), aCapture({ platformPostId: 'v_2', source: 'api_uploaded', requestId: 'req-1', capturedAt: seconds(5) })], total: 2 });
    });

    it('pages with a cursor through rows sharing a capture time, filtered by network and time', async () => {
      for (let i = 0; i < 7; i += 1) await captures.record(aCapture({ platformPostId: `v_${i}`, capturedAt: seconds(i < 4 ? 1 : i) }), far);
      await captures.record(aCapture({ platform: 'x', platformPostId: 'x_1', capturedAt: seconds(3) }), far);
      const { keys: seen } = await walk(captures, { accountId: 'acct-1', platform: 'tiktok', limit: 3 });
      expect(seen.length).toBe(7);
      expect(new Set(seen).size).toBe(7);
      expect(seen.slice(0, 3)).toEqual(['tiktok:v_6', 'tiktok:v_5', 'tiktok:v_4']);
      const window = await captures.list({ accountId: 'acct-1', since: seconds(3), until: seconds(6), limit: 10 });
      expect(window.items.map((c) => c.platformPostId)).toEqual(['v_5', 'v_4', 'x_1']);
      expect(window.total).toBe(3);
    });

    it('walks every row once, in order, across hours, days and months, and a re-fetched post moves to its new time', async () => {
      // 90 rows over ~60 hours from 2026-02-27 (a month boundary), several in some hours, two networks, ties of time.
      const rows: PostMetricsCapture[] = [];
      for (let i = 0; i < 90; i += 1) {
        const capturedAt = new Date(Date.parse('2026-02-27T20:00:00Z') + Math.floor(i / 3) * 2 * 3600_000 + (i % 3 === 2 ? 0 : (i % 3) * 61_000));
        rows.push(aCapture({ platform: i % 4 === 0 ? 'x' : 'tiktok', platformPostId: `p_${i}`, capturedAt }));
      }
      for (const r of rows) await captures.record(r, far);
      // Three posts fetched again later: each appears once, at its new time.
      for (const i of [0, 45, 88]) {
        const again = aCapture({ ...rows[i]!, metrics: { views: 999 }, capturedAt: new Date(rows[i]!.capturedAt.getTime() + 5 * 3600_000 + 17) });
        rows[i] = again;
        await captures.record(again, far);
      }
      await captures.record(aCapture({ accountId: 'acct-2', capturedAt: rows[10]!.capturedAt }), far);
      const expected = (platform?: string) => rows
        .filter((r) => platform === undefined || r.platform === platform)
        .sort((a, b) => b.capturedAt.getTime() - a.capturedAt.getTime() || (captureId(b) < captureId(a) ? -1 : 1))
        .map((r) => `${r.platform}:${r.platformPostId}`);
      const all = await walk(captures, { accountId: 'acct-1', limit: 7 });
      expect(all.keys).toEqual(expected());
      expect(all.pages).toBe(Math.ceil(90 / 7));
      expect(new Set(all.totals)).toEqual(new Set([90]));
      const x = await walk(captures, { accountId: 'acct-1', platform: 'x', limit: 4 });
      expect(x.keys).toEqual(expected('x'));
      expect(x.totals[0]).toBe(expected('x').length);
      const one = await walk(captures, { accountId: 'acct-1', limit: 200 });
      expect(one).toMatchObject({ keys: expected(), pages: 1 });
      expect((await captures.list({ accountId: 'acct-1', limit: 1 })).items[0]?.metrics).toEqual({ views: 999 });
    });

    it('cuts since (inclusive) and until (exclusive) exactly, inside their hours, in every page', async () => {
      const base = Date.parse('2026-03-10T08:00:00Z');
      const times = [0, 1, 1_799_999, 1_800_000, 1_800_001, 3_599_999, 3_600_000, 5_400_000, 7_199_999, 7_200_000, 9_000_000].map((ms) => base + ms);
      for (const [i, t] of times.entries()) await captures.record(aCapture({ platformPostId: `t_${i}`, capturedAt: new Date(t) }), far);
      const since = new Date(base + 1_800_000);
      const until = new Date(base + 7_200_000);
      const inside = times.map((t, i) => [t, i] as const).filter(([t]) => t >= since.getTime() && t < until.getTime()).reverse().map(([, i]) => `tiktok:t_${i}`);
      for (const limit of [1, 2, 3, 50]) {
        const { keys, totals } = await walk(captures, { accountId: 'acct-1', since, until, limit });
        expect(keys).toEqual(inside);
        expect(totals[0]).toBe(inside.length);
      }
      expect((await walk(captures, { accountId: 'acct-1', since: new Date(base + 9_000_000), limit: 5 })).keys).toEqual(['tiktok:t_10']);
      expect((await walk(captures, { accountId: 'acct-1', until: new Date(base + 1), limit: 5 })).keys).toEqual(['tiktok:t_0']);
      expect((await captures.list({ accountId: 'acct-1', since: until, until, limit: 5 }))).toEqual({ items: [], total: 0 });
    });

    it('removes expired rows (by the end of the hour they expire in), from the lists too; a post fetched again keeps its new row', async () => {
      await captures.record(aCapture(), at('2026-03-11T00:00:00Z'));
      await captures.record(aCapture({ platformPostId: 'v_2' }), far);
      await captures.record(aCapture({ platformPostId: 'v_3' }), at('2026-03-11T05:00:00Z'));
      await captures.record(aCapture({ platformPostId: 'v_3', capturedAt: seconds(60) }), far);
      await captures.record(aCapture({ platformPostId: 'v_4' }), at('2026-03-12T00:30:00Z'));
      expect(await captures.deleteExpired(at('2026-03-12T00:00:00Z'))).toBe(1);
      expect((await captures.list({ accountId: 'acct-1', limit: 10 }))).toMatchObject({ items: [{ platformPostId: 'v_3' }, { platformPostId: 'v_4' }, { platformPostId: 'v_2' }], total: 3 });
      expect(await captures.deleteExpired(at('2026-03-12T00:29:59Z'))).toBe(0);
      expect(await captures.deleteExpired(at('2026-03-12T01:00:00Z'))).toBe(1);
      expect(await captures.deleteExpired(at('2026-03-12T01:00:00Z'))).toBe(0);
      expect((await captures.list({ accountId: 'acct-1', platform: 'tiktok', limit: 10 }))).toMatchObject({ items: [{ platformPostId: 'v_3' }, { platformPostId: 'v_2' }], total: 2 });
    });
  });
}

const captureId = (c: PostMetricsCapture) => captureKey(c.accountId, c.platform, c.platformPostId);
