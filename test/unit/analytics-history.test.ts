import { randomBytes } from 'node:crypto';
import {
  captureKey, checkRangeField, FALLBACK_IMPRESSIONS, parseMetrics, resolveRange, type AnalyticsSnapshot,
} from '../../core/domain/analytics-history';
import { computeTotals, seriesNeeded, yearSpans, type TotalsOptions } from '../../core/domain/analytics-series';
import { HeraldError } from '../../core/domain/errors';
import type { Platform } from '../../core/domain/platforms';
import type { PlatformAdapter } from '../../core/ports/platform';
import { createMemoryStorage } from '../../adapters/memory/storage';
import { createMemoryAnalyticsSnapshots, createMemoryPostMetricsCaptures } from '../../adapters/memory/analytics-history';
import { createMemoryResultCache } from '../../adapters/memory/cache';
import { createAesSecretBox } from '../../adapters/crypto/node-crypto';
import { createPlatformRegistry } from '../../adapters/platforms/registry';
import { createRequestRateLimiter } from '../../adapters/redis/rate-limit';
import { NETWORK_IMPRESSIONS, NETWORKS } from '../../adapters/platforms';
import { loadConfig } from '../../apps/shared/config';
import {
  cachedPostAnalytics, livePostAnalytics, postAnalyticsByRequest, totalImpressions, type AnalyticsReadDeps,
} from '../../core/usecases/analytics-history';
import { rebuildAnalyticsSeries, snapshotPage } from '../../core/usecases/snapshot-analytics';
import { nextRoundAt } from '../../workflows/analytics-snapshots.workflow';
import { fakeTextPlatform } from '../support/fake-platform';
import { fakeAnalytics } from '../support/fake-analytics';
import { aConnectedAccount, anOperator, anUpload, aProfile, aTargetResult, sealedCredentialsOf } from '../support/mothers';

const NOW = new Date('2026-03-15T12:00:00Z');
const snap = (platform: Platform, date: string, metrics: AnalyticsSnapshot['metrics']): AnalyticsSnapshot => ({
  accountId: 'a', profileUsername: 'alice', platform, connectionId: `c-${platform}`, date, metrics, capturedAt: new Date(`${date}T23:50:00Z`),
});
/** The totals of `rows` as the endpoint computes them: stored (memory adapter), read back as series, summed. */
async function totalsOf(rows: readonly AnalyticsSnapshot[], opts: Omit<TotalsOptions, 'platforms'>, platforms: Platform[] = [...new Set(rows.map((r) => r.platform))]) {
  const repository = createMemoryAnalyticsSnapshots(NETWORK_IMPRESSIONS);
  for (const r of rows) await repository.put(r, new Date('2030-01-01'));
  const series = await repository.series('a', 'alice', platforms, seriesNeeded(opts.metrics, opts.breakdown), opts.start, opts.end);
  return computeTotals(series, { ...opts, platforms });
}
const code = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    if (err instanceof HeraldError) return `${err.kind} ${err.errorCode}`;
    throw err;
  }
  return 'no error';
};

describe('total impressions: ranges', () => {
  it('defaults to 30 days ago through today (the injected clock)', () => {
    expect(resolveRange({}, NOW)).toEqual({ start: '2026-02-13', end: '2026-03-15' });
    expect(resolveRange({ end_date: '2026-03-01' }, NOW)).toEqual({ start: '2026-01-30', end: '2026-03-01' });
    expect(resolveRange({ start_date: '2026-03-10' }, NOW)).toEqual({ start: '2026-03-10', end: '2026-03-15' });
  });

  it('takes `date` as one day, and `period` over both', () => {
    expect(resolveRange({ date: '2026-03-02', start_date: '2026-01-01' }, NOW)).toEqual({ start: '2026-03-02', end: '2026-03-02' });
    expect(resolveRange({ period: 'last_day', date: '2026-03-02' }, NOW)).toEqual({ start: '2026-03-14', end: '2026-03-15' });
    expect(resolveRange({ period: 'last_week' }, NOW)).toEqual({ start: '2026-03-08', end: '2026-03-15' });
    expect(resolveRange({ period: 'last_month' }, NOW)).toEqual({ start: '2026-02-13', end: '2026-03-15' });
    expect(resolveRange({ period: 'last_3months' }, NOW)).toEqual({ start: '2025-12-15', end: '2026-03-15' });
    expect(resolveRange({ period: 'last_year' }, NOW)).toEqual({ start: '2025-03-15', end: '2026-03-15' });
  });

  it.each([
    [{ date: '2026-02-30' }, 'invalid_date'], [{ start_date: '2026/03/01' }, 'invalid_date'], [{ end_date: 'today' }, 'invalid_date'],
    [{ start_date: '2026-03-10', end_date: '2026-03-01' }, 'invalid_date'], [{ start_date: '2024-01-01', end_date: '2026-01-01' }, 'invalid_date'],
    [{ period: 'last_decade' }, 'invalid_period'],
  ])('answers 400 for %j', (q, errorCode) => {
    expect(() => resolveRange(q, NOW)).toThrow(expect.objectContaining({ kind: 'invalid_input', errorCode }));
  });

  it('checks each range field as the range reads it: an overridden field is not read (the edge\'s rule)', () => {
    const code = (field: 'date' | 'start_date' | 'end_date' | 'period', q: Record<string, string>) => {
      try {
        checkRangeField(field, q);
        return null;
      } catch (err) {
        return (err as HeraldError).errorCode;
      }
    };
    expect(code('date', { date: '2026-02-30' })).toBe('invalid_date');
    expect(code('date', { date: '2026-02-30', period: 'last_week' })).toBeNull();
    expect(code('start_date', { start_date: 'soon', date: '2026-03-02' })).toBeNull();
    expect(code('start_date', { start_date: 'soon' })).toBe('invalid_date');
    expect(code('end_date', { end_date: '2026-03-01' })).toBeNull();
    expect(code('period', { period: 'last_decade', date: '2026-03-02' })).toBe('invalid_period');
    expect(code('period', {})).toBeNull();
  });

  it('accepts the spec\'s metrics only', () => {
    expect(parseMetrics('reach, followers,reach')).toEqual(['reach', 'followers']);
    expect(() => parseMetrics('reach,score')).toThrow(expect.objectContaining({ errorCode: 'invalid_metric', message: expect.stringContaining('"score"') }));
    expect(() => parseMetrics(',')).toThrow(expect.objectContaining({ errorCode: 'invalid_metric' }));
  });
});

describe('total impressions: default metric per network', () => {
  it('is exactly the spec\'s list, declared by each network\'s descriptor; the others use impressions, then views', () => {
    const named = Object.fromEntries(NETWORKS.filter((n) => n.descriptor.analytics?.impressionsMetrics).map((n) => [n.id, n.descriptor.analytics!.impressionsMetrics]));
    expect(named).toEqual({
      facebook: ['reach'], instagram: ['reach'], linkedin: ['reach'],
      youtube: ['views', 'impressions'], tiktok: ['views', 'impressions'], threads: ['views', 'impressions'],
      x: ['impressions'], pinterest: ['impressions'],
    });
    expect([NETWORK_IMPRESSIONS('facebook'), NETWORK_IMPRESSIONS('bluesky'), NETWORK_IMPRESSIONS('google_business')]).toEqual([['reach'], FALLBACK_IMPRESSIONS, FALLBACK_IMPRESSIONS]);
    expect(FALLBACK_IMPRESSIONS).toEqual(['impressions', 'views']);
  });

  it('agrees with the primary impressions field of every adapter that has analytics', () => {
    const adapters = NETWORKS.flatMap((n) => {
      try {
        return [(n.create as (o: unknown) => PlatformAdapter)({ apiBase: 'http://127.0.0.1:9', clientId: 'id', clientSecret: 'secret', timeoutMs: 1000 })];
      } catch {
        return [];
      }
    }).filter((a) => a.analytics && a.descriptor.analytics?.impressionsMetrics);
    expect(adapters.map((a) => a.descriptor.id)).toEqual(expect.arrayContaining(['instagram', 'linkedin']));
    for (const a of adapters) {
      const field = a.analytics!.catalogue.primaryImpressionsField;
      expect({ platform: a.descriptor.id, field, spec: NETWORK_IMPRESSIONS(a.descriptor.id).includes(field) }).toEqual({ platform: a.descriptor.id, field, spec: true });
    }
  });

  it('sums each network\'s default metric over the range, with breakdowns per network and per day', async () => {
    const rows = [
      snap('instagram', '2026-03-01', { reach: 10, views: 999 }), snap('instagram', '2026-03-02', { reach: 15 }),
      snap('youtube', '2026-03-01', { views: 7, impressions: 50 }), snap('youtube', '2026-03-03', { impressions: 4 }),
      snap('x', '2026-03-02', { impressions: 100 }), snap('x', '2026-02-28', { impressions: 1000 }),
    ];
    const totals = await totalsOf(rows, { start: '2026-03-01', end: '2026-03-03', breakdown: true });
    expect(totals.total_impressions).toBe(10 + 15 + 7 + 4 + 100);
    expect(totals.per_platform).toEqual({ instagram: 25, youtube: 11, x: 100 });
    expect(totals.per_day).toEqual([
      { date: '2026-03-01', total_impressions: 17, per_platform: { instagram: 10, youtube: 7 } },
      { date: '2026-03-02', total_impressions: 115, per_platform: { instagram: 15, x: 100 } },
      { date: '2026-03-03', total_impressions: 4, per_platform: { youtube: 4 } },
    ]);
    expect(await totalsOf(rows, { start: '2026-03-01', end: '2026-03-03', breakdown: false })).toEqual({ total_impressions: 136 });
  });

  it('answers chosen metrics: flows summed, levels (followers) the last value of each network, added', async () => {
    const rows = [
      snap('instagram', '2026-03-01', { reach: 10, followers: 500, likes: 1 }), snap('instagram', '2026-03-02', { reach: 15, followers: 510, likes: 2 }),
      snap('x', '2026-03-01', { followers: 80, likes: 5 }), snap('x', '2026-03-02', { followers: null, likes: null }),
    ];
    const totals = await totalsOf(rows, { start: '2026-03-01', end: '2026-03-02', metrics: ['likes', 'followers'], breakdown: true });
    expect(totals.metrics).toEqual({ likes: 8, followers: 590 });
    expect(totals.total_impressions).toBeUndefined();
    expect(totals.per_platform).toEqual({ instagram: { likes: 3, followers: 510 }, x: { likes: 5, followers: 80 } });
    expect(totals.per_day![1]).toEqual({ date: '2026-03-02', metrics: { likes: 2, followers: 510 }, per_platform: { instagram: { likes: 2, followers: 510 }, x: { likes: 0, followers: 0 } } });
  });
});

describe('total impressions: the year series', () => {
  it('cuts a range at year boundaries (leap years have 366 days)', () => {
    expect(yearSpans('2024-12-30', '2025-01-02')).toEqual([{ year: 2024, from: 364, to: 365, offset: 0 }, { year: 2025, from: 0, to: 1, offset: 2 }]);
    expect(yearSpans('2025-11-26', '2026-11-26')).toEqual([{ year: 2025, from: 329, to: 364, offset: 0 }, { year: 2026, from: 0, to: 329, offset: 36 }]);
    expect(yearSpans('2026-03-01', '2026-03-01')).toEqual([{ year: 2026, from: 59, to: 59, offset: 0 }]);
  });

  it('sums across a year boundary; a level is the last figure of the range, whichever year holds it', async () => {
    const rows = [
      snap('instagram', '2025-12-31', { reach: 3, followers: 100 }), snap('instagram', '2026-01-01', { reach: 4, followers: 101 }),
      snap('instagram', '2026-01-02', { reach: 5 }), snap('x', '2025-12-30', { impressions: 7, followers: 9 }),
    ];
    expect(await totalsOf(rows, { start: '2025-12-30', end: '2026-01-02', breakdown: false })).toEqual({ total_impressions: 19 });
    expect(await totalsOf(rows, { start: '2025-12-30', end: '2026-01-02', metrics: ['followers', 'reach'], breakdown: false })).toEqual({ metrics: { followers: 110, reach: 12 } });
    expect(await totalsOf(rows, { start: '2025-12-31', end: '2025-12-31', metrics: ['followers'], breakdown: false })).toEqual({ metrics: { followers: 100 } });
  });

  it('a snapshot replaced later the same day leaves none of its figures behind', async () => {
    const first = snap('instagram', '2026-03-01', { reach: 10, likes: 4, followers: 50 });
    const second = { ...snap('instagram', '2026-03-01', { reach: 12, followers: null }), capturedAt: new Date('2026-03-01T23:59:00Z') };
    const opts = { start: '2026-03-01', end: '2026-03-01', metrics: ['reach', 'likes', 'followers'] as const, breakdown: true };
    expect(await totalsOf([first, second], opts)).toEqual({
      metrics: { reach: 12, likes: 0, followers: 0 }, per_platform: { instagram: { reach: 12, likes: 0, followers: 0 } },
      per_day: [{ date: '2026-03-01', metrics: { reach: 12, likes: 0, followers: 0 }, per_platform: { instagram: { reach: 12, likes: 0, followers: 0 } } }],
    });
  });

  it('a network asked for with nothing stored counts 0 and is left out of the breakdowns', async () => {
    const rows = [snap('instagram', '2026-03-01', { reach: 10 })];
    expect(await totalsOf(rows, { start: '2026-03-01', end: '2026-03-02', breakdown: true }, ['instagram', 'tiktok'])).toEqual({
      total_impressions: 10, per_platform: { instagram: 10 },
      per_day: [{ date: '2026-03-01', total_impressions: 10, per_platform: { instagram: 10 } }, { date: '2026-03-02', total_impressions: 0, per_platform: {} }],
    });
  });
});

describe('snapshot rounds', () => {
  it('are due at the period boundaries plus the offset', () => {
    const day = { periodMs: 86_400_000, offsetMs: (23 * 60 + 50) * 60_000, pageSize: 50 };
    expect(new Date(nextRoundAt(Date.parse('2026-03-15T12:00:00Z'), day)).toISOString()).toBe('2026-03-15T23:50:00.000Z');
    expect(new Date(nextRoundAt(Date.parse('2026-03-15T23:50:00Z'), day)).toISOString()).toBe('2026-03-16T23:50:00.000Z');
    expect(nextRoundAt(10_500, { periodMs: 3000, offsetMs: 0, pageSize: 5 })).toBe(12_000);
  });
});

/** A world of one operator, one profile and connected networks with fake analytics, on a clock the test moves. */
function world(opts: { limit?: { points: number; windowSeconds: number } } = {}) {
  let now = NOW.getTime();
  const clock = { now: () => new Date(now) };
  const storage = createMemoryStorage();
  const secrets = createAesSecretBox(randomBytes(32).toString('base64'));
  const nets = { instagram: fakeAnalytics('instagram'), tiktok: fakeAnalytics('tiktok'), x: fakeAnalytics('x') };
  const platforms = createPlatformRegistry((Object.keys(nets) as Array<keyof typeof nets>).map((p) => nets[p].on(fakeTextPlatform(p).adapter)));
  const account = anOperator({ id: 'acct-1' });
  const deps: AnalyticsReadDeps = {
    storage, platforms, secrets, clock,
    snapshots: createMemoryAnalyticsSnapshots(NETWORK_IMPRESSIONS), captures: createMemoryPostMetricsCaptures(), cache: createMemoryResultCache(() => now),
    liveLimiter: createRequestRateLimiter(undefined, opts.limit ?? { points: 100, windowSeconds: 300 }),
    cacheMs: 60_000, captureRetentionMs: 86_400_000, snapshotLookbackDays: 30,
  };
  const setup = async () => {
    await storage.operators.insert(account);
    await storage.profiles.insert(aProfile({ accountId: account.id, username: 'alice' }));
    for (const p of Object.keys(nets) as Platform[]) {
      await storage.connectedAccounts.upsert(aConnectedAccount({ id: `conn-${p}`, accountId: account.id, profileUsername: 'alice', platform: p, sealedCredentials: sealedCredentialsOf(secrets, { accountId: account.id, profileUsername: 'alice', platform: p }, { secret: 'good' }) }));
    }
  };
  return { deps, nets, account, clock, setup, advance: (ms: number) => { now += ms; } };
}

describe('snapshots and total impressions through the use cases', () => {
  it('measures every connected account as itself, stores its day, and sums the days', async () => {
    const w = world();
    await w.setup();
    const snapDeps = { ...w.deps, retentionMs: 400 * 86_400_000 };
    for (const [i, level] of [40, 60].entries()) {
      w.nets.instagram.setLevel(level);
      w.nets.x.setLevel(level * 2);
      for (const p of ['instagram', 'tiktok', 'x'] as const) {
        expect(await snapshotPage(snapDeps, p, { limit: 10 })).toEqual({ nextAfterId: null, taken: 1, failed: 0, skipped: 0 });
      }
      if (i === 0) w.advance(86_400_000);
    }
    expect(w.nets.instagram.calls[0]).toMatchObject({ kind: 'account', credentials: { secret: 'good' }, days: 1 });
    const view = await totalImpressions(w.deps, w.account, 'alice', { breakdown: true, platform: 'instagram,x', start_date: '2026-03-15' });
    expect(view).toMatchObject({ start_date: '2026-03-15', end_date: '2026-03-16', total_impressions: 40 + 60 + 80 + 120, platforms_filter: ['instagram', 'x'], per_platform: { instagram: 100, x: 200 } });
    const all = await totalImpressions(w.deps, w.account, 'alice', { period: 'last_week' });
    expect(all.total_impressions).toBe(300 + 100 + 100);
    expect(await code(totalImpressions(w.deps, w.account, 'nobody', {}))).toBe('not_found PROFILE_NOT_FOUND');
    expect(await code(totalImpressions(w.deps, w.account, 'alice', { metrics: 'reach,bogus' }))).toBe('invalid_input invalid_metric');
    expect(await code(totalImpressions(w.deps, w.account, 'alice', { platform: 'instagram,myspace' }))).toBe('invalid_input invalid_platform');
  });

  it('rebuilds the series of every profile, network and year the retention reaches (herald analytics rebuild)', async () => {
    const w = world();
    await w.setup();
    const snapDeps = { ...w.deps, retentionMs: 400 * 86_400_000 };
    for (const p of ['instagram', 'tiktok', 'x'] as const) await snapshotPage(snapDeps, p, { limit: 10 });
    const before = await totalImpressions(w.deps, w.account, 'alice', { period: 'last_week', breakdown: true });
    expect(before.total_impressions).toBeGreaterThan(0);
    // 400 days back from 2026-03-15 reach into 2025: two years.
    expect(await rebuildAnalyticsSeries(snapDeps, ['acct-1'])).toEqual({ profiles: 1, years: 2, snapshots: 3 });
    expect(await totalImpressions(w.deps, w.account, 'alice', { period: 'last_week', breakdown: true })).toEqual(before);
  });

  it('counts a failed account and goes on with the others', async () => {
    const w = world();
    await w.setup();
    w.nets.x.failNext({ kind: 'transient' }, 'x is down');
    const page = await snapshotPage({ ...w.deps, retentionMs: 1000 }, 'x', { limit: 10 });
    expect(page).toMatchObject({ taken: 0, failed: 1 });
  });
});

describe('post analytics', () => {
  it('live: source api_uploaded with the request id when an upload published the post, organic otherwise; cached for cacheMs and recorded', async () => {
    const w = world();
    await w.setup();
    const upload = anUpload({ accountId: 'acct-1', profileUsername: 'alice', requestId: 'req-1', targets: [{ platform: 'tiktok', connectedAccountId: 'conn-tiktok', title: 't', settings: {} }] });
    await w.deps.storage.uploads.insert(upload);
    await w.deps.storage.uploads.recordResult('acct-1', 'req-1', aTargetResult({ platform: 'tiktok', post_id: 'v_pub_1' }), NOW);

    const first = await livePostAnalytics(w.deps, w.account, { platform_post_id: 'v_pub_1', platform: 'tiktok', user: 'alice' });
    expect(first.post).toEqual({ platform_post_id: 'v_pub_1', platform: 'tiktok', profile_username: 'alice', source: 'api_uploaded', request_id: 'req-1' });
    expect(first.platforms.tiktok).toMatchObject({ post_metrics_source: 'live', post_metrics: { views: 71, likes: 3, retention: [{ second: 0, percentage: 100 }] }, primary_impressions_field: 'views', available_metrics: ['views', 'likes'] });
    const again = await livePostAnalytics(w.deps, w.account, { platform_post_id: 'v_pub_1', platform: 'tiktok', user: 'alice' });
    expect(again.platforms.tiktok).toMatchObject({ post_metrics_source: 'cache', post_metrics: first.platforms.tiktok!.post_metrics });
    expect(w.nets.tiktok.calls.length).toBe(1);
    w.advance(60_001);
    expect((await livePostAnalytics(w.deps, w.account, { platform_post_id: 'v_pub_1', platform: 'tiktok', user: 'alice' })).platforms.tiktok!.post_metrics_source).toBe('live');

    const organic = await livePostAnalytics(w.deps, w.account, { platform_post_id: '1790', platform: 'x', user: 'alice' });
    expect(organic.post).toEqual({ platform_post_id: '1790', platform: 'x', profile_username: 'alice', source: 'organic' });

    w.nets.x.failNext({ kind: 'rejected', code: 'not_found' } as never, 'no such post');
    const refused = await livePostAnalytics(w.deps, w.account, { platform_post_id: 'gone', platform: 'x', user: 'alice' });
    expect(refused.platforms.x).toMatchObject({ post_metrics: null, post_metrics_error: 'no such post' });

    const cached = await cachedPostAnalytics(w.deps, w.account, {});
    expect(cached.posts.map((p) => [p.platform, p.platform_post_id, p.source])).toEqual([['x', '1790', 'organic'], ['tiktok', 'v_pub_1', 'api_uploaded']]);
    expect(cached.posts[1]).toMatchObject({ request_id: 'req-1', captured_at: new Date(NOW.getTime() + 60_001).toISOString() });
  });

  it('live: 400 for missing or unsupported fields, 503 for reddit, 404 for an unknown profile, 400 not_connected', async () => {
    const w = world();
    await w.setup();
    expect(await code(livePostAnalytics(w.deps, w.account, { platform: 'x', user: 'alice' }))).toBe('invalid_input missing_parameter');
    expect(await code(livePostAnalytics(w.deps, w.account, { platform_post_id: '1', platform: 'bluesky', user: 'alice' }))).toBe('invalid_input platform_not_supported');
    expect(await code(livePostAnalytics(w.deps, w.account, { platform_post_id: '1', platform: 'reddit', user: 'alice' }))).toBe('unavailable reddit_unavailable');
    expect(await code(livePostAnalytics(w.deps, w.account, { platform_post_id: '1', platform: 'x', user: 'bob' }))).toBe('not_found PROFILE_NOT_FOUND');
    expect(await code(livePostAnalytics(w.deps, w.account, { platform_post_id: '1', platform: 'youtube', user: 'alice' }))).toBe('invalid_input platform_not_supported');
  });

  it('live: the default limit is 100 requests per 5 minutes per operator account, then 429 with a retry time', async () => {
    const config = loadConfig({});
    expect(config.analyticsHistory.liveLimit).toEqual({ points: 100, windowSeconds: 300 });
    const w = world({ limit: config.analyticsHistory.liveLimit });
    await w.setup();
    for (let i = 0; i < 100; i += 1) await livePostAnalytics(w.deps, w.account, { platform_post_id: `p${i % 3}`, platform: 'x', user: 'alice' });
    const refused = livePostAnalytics(w.deps, w.account, { platform_post_id: 'p0', platform: 'x', user: 'alice' });
    await expect(refused).rejects.toMatchObject({ kind: 'too_many_requests', errorCode: 'post_analytics_rate_limited', details: { retry_after_seconds: expect.any(Number), limit: 100 } });
    const seconds = await refused.catch((err: HeraldError) => err.details.retry_after_seconds as number);
    expect(seconds).toBeGreaterThan(0);
    expect(seconds).toBeLessThanOrEqual(300);
    // Another operator account has its own 100.
    await expect(livePostAnalytics(w.deps, anOperator({ id: 'acct-2' }), { platform_post_id: 'p0', platform: 'x', user: 'alice' })).rejects.toMatchObject({ errorCode: 'PROFILE_NOT_FOUND' });
    // The cached endpoint is not limited.
    expect((await cachedPostAnalytics(w.deps, w.account, { limit: '2' })).pagination).toMatchObject({ limit: 2, has_more: true });
  });

  it('by request id: the upload, each network\'s result and metrics, and the profile\'s snapshots at the post date and latest', async () => {
    const w = world();
    await w.setup();
    await w.deps.snapshots.put(snap('x', '2026-03-10', { impressions: 5 }) as AnalyticsSnapshot, new Date('2030-01-01'));
    await w.deps.snapshots.put({ ...snap('x', '2026-03-14', { impressions: 9 }), accountId: 'acct-1' }, new Date('2030-01-01'));
    await w.deps.snapshots.put({ ...snap('x', '2026-03-11', { impressions: 7 }), accountId: 'acct-1' }, new Date('2030-01-01'));
    const upload = anUpload({
      accountId: 'acct-1', profileUsername: 'alice', requestId: 'req-2', content: { title: 'Hi', description: 'Longer' }, createdAt: new Date('2026-03-12T08:00:00Z'),
      targets: [{ platform: 'x', connectedAccountId: 'conn-x', title: 'Hi', settings: {} }, { platform: 'instagram', connectedAccountId: 'conn-instagram', title: 'Hi', settings: {} }],
    });
    await w.deps.storage.uploads.insert(upload);
    await w.deps.storage.uploads.recordResult('acct-1', 'req-2', aTargetResult({ platform: 'x', post_id: '1790', url: 'https://x.com/i/1790', page_id: 'pg-1' }), NOW);
    await w.deps.storage.uploads.recordResult('acct-1', 'req-2', aTargetResult({ platform: 'instagram', success: false, post_id: undefined, error: 'refused' }), NOW);
    const view = await postAnalyticsByRequest(w.deps, w.account, 'req-2');
    expect(view.post).toEqual({ request_id: 'req-2', profile_username: 'alice', post_title: 'Hi', post_caption: 'Longer', media_type: 'text', upload_timestamp: '2026-03-12T08:00:00.000Z' });
    expect(view.platforms.x).toMatchObject({
      success: true, platform_post_id: '1790', post_url: 'https://x.com/i/1790', post_metrics_source: 'live', post_metrics_error: null,
      profile_snapshot_at_post_date: { date: '2026-03-11', impressions: 7 }, profile_snapshot_latest: { date: '2026-03-14', impressions: 9 }, profile_snapshot_latest_date: '2026-03-14',
    });
    expect(view.platforms.instagram).toMatchObject({ success: false, platform_post_id: null, post_metrics: null, post_metrics_error: 'refused', profile_snapshot_latest: null });
    // The network reads the post as it published it: the result's own fields (a Facebook video's page_id) go with the id.
    expect(w.nets.x.calls.find((c) => c.kind === 'post')!.post).toEqual({ id: '1790', url: 'https://x.com/i/1790', extra: { page_id: 'pg-1' } });
    expect(Object.keys((await postAnalyticsByRequest(w.deps, w.account, 'req-2', 'x')).platforms)).toEqual(['x']);
    expect(await code(postAnalyticsByRequest(w.deps, w.account, 'nope'))).toBe('not_found UPLOAD_NOT_FOUND');
    expect(await code(postAnalyticsByRequest(w.deps, w.account, 'req-2', 'tiktok'))).toBe('not_found PLATFORM_NOT_IN_UPLOAD');
    expect(await code(postAnalyticsByRequest(w.deps, w.account, 'req-2', 'friendster'))).toBe('invalid_input invalid_platform');
  });

  it('cached: 400 for a bad limit, date or cursor; at most 200 a page', async () => {
    const w = world();
    expect(await code(cachedPostAnalytics(w.deps, w.account, { limit: '0' }))).toBe('invalid_input invalid_limit');
    expect(await code(cachedPostAnalytics(w.deps, w.account, { limit: 'ten' }))).toBe('invalid_input invalid_limit');
    expect(await code(cachedPostAnalytics(w.deps, w.account, { since: 'yesterday' }))).toBe('invalid_input invalid_date');
    expect(await code(cachedPostAnalytics(w.deps, w.account, { cursor: '!!' }))).toBe('invalid_input invalid_cursor');
    expect((await cachedPostAnalytics(w.deps, w.account, { limit: '500' })).pagination).toEqual({ limit: 200, next_cursor: null, has_more: false });
  });

  it('cached: the cursor walks every row once with its filters, is refused with others (400 invalid_cursor), and a cursor of the previous format resumes where it said', async () => {
    const w = world();
    const base = Date.parse('2026-03-10T10:00:00Z');
    for (let i = 0; i < 9; i += 1) {
      await w.deps.captures.record({
        accountId: 'acct-1', platform: i % 3 === 0 ? 'x' : 'tiktok', platformPostId: `p${i}`, profileUsername: 'alice', source: 'organic', metrics: { views: i }, capturedAt: new Date(base + i * 1800_000),
      }, new Date('2030-01-01'));
    }
    const walk = async (q: Record<string, string>) => {
      const ids: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await cachedPostAnalytics(w.deps, w.account, { ...q, limit: '2', ...(cursor ? { cursor } : {}) });
        ids.push(...page.posts.map((p) => p.platform_post_id));
        cursor = page.pagination.next_cursor;
        expect(page.pagination.has_more).toBe(cursor !== null);
      } while (cursor);
      return ids;
    };
    expect(await walk({})).toEqual(['p8', 'p7', 'p6', 'p5', 'p4', 'p3', 'p2', 'p1', 'p0']);
    expect(await walk({ platform: 'tiktok', since: '2026-03-10T11:00:00Z', until: '2026-03-10T13:30:00Z' })).toEqual(['p5', 'p4', 'p2']);
    const first = await cachedPostAnalytics(w.deps, w.account, { limit: '2', platform: 'tiktok' });
    const cursor = first.pagination.next_cursor!;
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(await code(cachedPostAnalytics(w.deps, w.account, { cursor }))).toBe('invalid_input invalid_cursor');
    expect(await code(cachedPostAnalytics(w.deps, w.account, { cursor, platform: 'x' }))).toBe('invalid_input invalid_cursor');
    expect(await code(cachedPostAnalytics(w.deps, w.account, { cursor, platform: 'tiktok', since: '2026-03-01' }))).toBe('invalid_input invalid_cursor');
    expect((await cachedPostAnalytics(w.deps, w.account, { cursor, platform: 'tiktok', limit: '2' })).posts.map((p) => p.platform_post_id)).toEqual(['p5', 'p4']);
    // `<capture time in base 36>~<row key>`: the cursors issued before the list was bucketed.
    const legacy = `${(base + 5 * 1800_000).toString(36)}~${encodeURIComponent(captureKey('acct-1', 'tiktok', 'p5'))}`;
    expect((await cachedPostAnalytics(w.deps, w.account, { cursor: legacy, limit: '3' })).posts.map((p) => p.platform_post_id)).toEqual(['p4', 'p3', 'p2']);
    expect(await code(cachedPostAnalytics(w.deps, w.account, { cursor: 'zz~%E0%A4%A' }))).toBe('invalid_input invalid_cursor');
    expect(await code(cachedPostAnalytics(w.deps, w.account, { cursor: 'zzzzzzzzzzzz~k' }))).toBe('invalid_input invalid_cursor');
  });
});
