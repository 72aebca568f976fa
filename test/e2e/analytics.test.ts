import { media, useHerald } from '../support/e2e';
import {
  blueskyAnalyticsHarness, facebookAnalyticsHarness, instagramAnalyticsHarness, xAnalyticsHarness, youtubeAnalyticsHarness,
} from '../contract/platforms/analytics-harnesses';
import type { HarnessAnalytics } from '../contract/platforms/analytics-contract';
import type { VerifiedConnection } from '../../core/ports/platform';

jest.setTimeout(300_000);

const DAY_MS = 86_400_000;
const day = (at: Date) => at.toISOString().slice(0, 10);

/**
 * Issue 12 through the API: accounts connected through their real connect flows, a video published
 * to them, then GET /analytics/{profile} for every analytics network checked against the figures
 * the simulators hold, the metric catalogue, TikTok audience and suggestions with and without the
 * connection capabilities, the cache, and every 400/404.
 */
describe('analytics', () => {
  const herald = useHerald({ sandbox: true, env: { HERALD_ANALYTICS_CACHE_MS: '60000' }, account: { email: 'analytics@herald.dev' }, profiles: ['ana'] });
  const { api, stack, sandbox } = herald;
  const video = media.clip();
  const OAUTH = ['instagram', 'facebook', 'youtube', 'x', 'tiktok'] as const;
  const PUBLISHED = [...OAUTH, 'bluesky'] as const;
  const connect = (platform: string) => herald.connect(platform, { profile: 'ana' });

  beforeAll(async () => {
    for (const p of PUBLISHED) await connect(p);
    // A video to every connected network, so the account figures include a post.
    const done = await herald.publishAndWait({ user: 'ana', 'platform[]': [...PUBLISHED], title: 'Analytics clip', privacy_level: 'PUBLIC_TO_EVERYONE', async_upload: true }, { video });
    expect(done.body).toMatchObject({ all_succeeded: true });
  });

  afterAll(() => {
    for (const sim of Object.values(sandbox.simulators)) (sim as { analytics?: { model: { setNow(at?: Date): void } } }).analytics?.model.setNow(undefined);
  });

  const sims = () => sandbox.simulators;
  const noConnection = {} as VerifiedConnection;
  const harnesses = (): Record<string, HarnessAnalytics> => ({
    instagram: instagramAnalyticsHarness(() => sims().instagram, () => sandbox.accounts.instagram.accountId),
    facebook: facebookAnalyticsHarness(() => sims().facebook, () => sandbox.accounts.facebook.accountId),
    youtube: youtubeAnalyticsHarness(() => sims().youtube, () => sandbox.accounts.youtube.channelId),
    x: xAnalyticsHarness(() => sims().x, () => sandbox.accounts.x.accountId),
    bluesky: blueskyAnalyticsHarness(() => sims().bluesky, () => sandbox.accounts.bluesky.did),
  });

  it('answers every analytics network with the figures its simulator holds, in the spec\'s fields, keyed by platform', async () => {
    const at = new Date();
    for (const h of Object.values(harnesses())) h.freeze(at);
    const pageId = sandbox.accounts.facebook.pageId;
    const res = await api.get(`/api/analytics/ana?platforms=instagram,facebook,youtube,x,bluesky,tiktok,discord,mastodon,reddit&page_id=${pageId}`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['bluesky', 'discord', 'facebook', 'instagram', 'mastodon', 'reddit', 'tiktok', 'x', 'youtube']);
    const window = { since: day(new Date(at.getTime() - 29 * DAY_MS)), until: day(at), days: 30 };
    for (const [platform, h] of Object.entries(harnesses())) {
      const expected = await h.account(noConnection, window);
      const body = res.body[platform];
      expect([platform, body.success]).toEqual([platform, true]);
      expect([platform, body]).toMatchObject([platform, expected.values]);
      expect(body).toMatchObject({ metric_type: expect.any(String), primary_impressions_field: expect.any(String), available_metrics: expect.any(Array), metric_labels: expect.any(Object) });
      expect(body.available_metrics).toContain(body.primary_impressions_field);
    }
    const ig = await harnesses().instagram!.account(noConnection, window);
    expect(res.body.instagram).toMatchObject({ reach_timeseries: ig.reachTimeseries, follower_demographics: ig.followerDemographics, engaged_audience_demographics: ig.engagedAudienceDemographics, impressions: res.body.instagram.views });
    expect(res.body.facebook).toMatchObject({ period_days: 30, impressions_timeseries: expect.any(Array), reach_timeseries: expect.any(Array) });
    expect(res.body.youtube).toMatchObject({ watch_time_minutes: expect.any(Number), average_view_duration_seconds: expect.any(Number) });
    expect(res.body.bluesky).toMatchObject({ quotes: expect.any(Number) });
    // TikTok without profile_analytics: the Display API's counts, the window metrics null.
    expect(res.body.tiktok).toMatchObject({ success: true, views: null });
    expect(res.body.tiktok.followers).toBe(sims().tiktok.analytics.userStats(sandbox.accounts.tiktok.openId).follower_count);
    for (const p of ['discord', 'mastodon']) expect(res.body[p]).toMatchObject({ success: false, error_code: 'platform_not_supported', message: expect.stringMatching(/no analytics/) });
    expect(res.body.reddit).toMatchObject({ success: false, error_code: 'reddit_unavailable' });
  });

  it('reads Facebook over 365 days in 90-day chunks', async () => {
    const pageId = sandbox.accounts.facebook.pageId;
    const before = sims().facebook.requests.filter((r) => r.path.endsWith(`/${pageId}/insights`)).length;
    const res = await api.get(`/api/analytics/ana?platforms=facebook&page_id=${pageId}&days=365`);
    expect(res.status).toBe(200);
    expect(res.body.facebook).toMatchObject({ success: true, period_days: 365 });
    expect(res.body.facebook.reach_timeseries).toHaveLength(365);
    const calls = sims().facebook.requests.filter((r) => r.path.endsWith(`/${pageId}/insights`));
    expect(calls.length - before).toBe(5);
    for (const c of calls.slice(before)) expect((Number(c.query.until) - Number(c.query.since)) / 86400).toBeLessThanOrEqual(90);
  });

  it('caches live answers for the configured time', async () => {
    const first = await api.get('/api/analytics/ana?platforms=bluesky');
    expect(first.body.bluesky.success).toBe(true);
    const posts = sims().bluesky.posts().length;
    const text = await api.post('/api/upload_text', { user: 'ana', 'platform[]': ['bluesky'], title: 'One more post for the figures' });
    expect(text.body).toMatchObject({ all_succeeded: true });
    expect(sims().bluesky.posts().length).toBe(posts + 1);
    const second = await api.get('/api/analytics/ana?platforms=bluesky');
    expect(second.body).toEqual(first.body);
  });

  it('answers the metric catalogue of every network', async () => {
    const res = await api.get('/api/herald/platform-metrics');
    expect(res.status).toBe(200);
    for (const p of ['instagram', 'facebook', 'youtube', 'x', 'tiktok', 'bluesky']) {
      expect(res.body.platforms[p]).toMatchObject({ metric_type: expect.any(String), primary_impressions_field: expect.any(String), available_metrics: expect.any(Array), post: expect.any(Object) });
    }
    expect(res.body.platforms.instagram).toMatchObject({ metric_type: 'reach', primary_impressions_field: 'reach' });
    expect(res.body.platforms.x).toMatchObject({ metric_type: 'impressions', primary_impressions_field: 'impressions' });
    expect(res.body.platforms.tiktok.capabilities_required).toMatchObject({ audience: 'profile_analytics', keywords: 'trend_search' });
    expect(res.body.unsupported_platforms).toEqual(expect.arrayContaining(['discord', 'telegram', 'listmonk', 'reddit']));
  });

  it('refuses bad analytics requests with the spec status and an error_code', async () => {
    const cases: Array<[string, number, string]> = [
      ['/api/analytics/ana', 400, 'invalid_platforms'],
      ['/api/analytics/ana?platforms=myspace', 400, 'invalid_platforms'],
      ['/api/analytics/ana?platforms=facebook', 400, 'invalid_request'],
      [`/api/analytics/ana?platforms=facebook&page_id=${sandbox.accounts.facebook.pageId}&days=0`, 400, 'invalid_request'],
      [`/api/analytics/ana?platforms=facebook&page_id=${sandbox.accounts.facebook.pageId}&days=366`, 400, 'invalid_request'],
      ['/api/analytics/ana?platforms=linkedin&page_urn=company-7', 400, 'invalid_request'],
      ['/api/analytics/nobody?platforms=instagram', 404, 'PROFILE_NOT_FOUND'],
      ['/api/herald/audience?platform=tiktok', 400, 'invalid_request'],
      ['/api/herald/audience?profile_username=nobody', 404, 'PROFILE_NOT_FOUND'],
      ['/api/herald/audience?profile_username=ana&platform=instagram', 400, 'platform_not_supported'],
      ['/api/herald/suggestions?profile_username=ana&type=trends&keyword=bread', 400, 'invalid_request'],
      ['/api/herald/suggestions?profile_username=ana&type=hashtags', 400, 'invalid_request'],
    ];
    for (const [url, status, code] of cases) {
      const res = await api.get(url);
      expect([url, res.status, res.body.error_code, res.body.success]).toEqual([url, status, code, false]);
      expect(typeof res.body.message).toBe('string');
    }
    const anonymous = await fetch(`${stack.apiUrl}/api/analytics/ana?platforms=instagram`);
    expect(anonymous.status).toBe(401);
  });

  it('gates TikTok audience and suggestions on the connection capabilities', async () => {
    const openId = sandbox.accounts.tiktok.openId;
    for (const url of ['/api/herald/audience?profile_username=ana', '/api/herald/suggestions?profile_username=ana&type=hashtags&keyword=bread', '/api/herald/suggestions?profile_username=ana&type=keywords&keyword=bread']) {
      const res = await api.get(url);
      expect([url, res.status, res.body.error_code]).toEqual([url, 400, 'tiktok_reconnect_required']);
    }
    // The account is granted profile_analytics; the connection gets it on reconnection.
    sims().tiktok.setCapabilities(openId, ['photo_privacy', 'comments', 'profile_analytics']);
    await connect('tiktok');
    const audience = await api.get('/api/herald/audience?profile_username=ana&benchmark_category=Gaming');
    expect(audience.status).toBe(200);
    expect(audience.body).toMatchObject({
      success: true, platform: 'tiktok', range: { start_date: expect.any(String), end_date: expect.any(String) },
      audience: { age: expect.any(Object), gender: expect.any(Object), country: expect.any(Object) },
      activity_by_hour: expect.any(Array), followers_daily: expect.any(Array), profile_actions: { profile_views: expect.any(Number), bio_link_clicks: expect.any(Number) },
      bio_description: expect.any(String), benchmark_categories: expect.arrayContaining(['Gaming']), benchmark: { category: 'Gaming', metrics: expect.any(Object) },
    });
    expect(audience.body.activity_by_hour).toHaveLength(24);
    const hashtags = await api.get('/api/herald/suggestions?profile_username=ana&type=hashtags&keyword=bread&limit=3');
    expect(hashtags).toMatchObject({ status: 200, body: { success: true, type: 'hashtags' } });
    expect(hashtags.body.hashtags).toHaveLength(3);
    expect(hashtags.body.hashtags[0]).toEqual({ name: expect.stringContaining('bread'), view_count: expect.any(Number) });
    const keywords = await api.get('/api/herald/suggestions?profile_username=ana&type=keywords&keyword=bread');
    expect([keywords.status, keywords.body.error_code]).toEqual([400, 'tiktok_reconnect_required']);

    // With profile_analytics, /analytics reads TikTok's business metrics: views over the window (a day of lag).
    const at = new Date();
    sims().tiktok.analytics.model.setNow(at);
    const res = await api.get('/api/analytics/ana?platforms=tiktok');
    const rows = sims().tiktok.analytics.rows(openId, day(new Date(at.getTime() - 29 * DAY_MS)), day(at));
    const views = rows.reduce((s, r) => s + Number(r.video_views), 0);
    expect(res.body.tiktok).toMatchObject({ success: true, views, impressions: views, followers: sims().tiktok.analytics.userStats(openId).follower_count });

    sims().tiktok.setCapabilities(openId, ['photo_privacy', 'comments', 'profile_analytics', 'trend_search']);
    await connect('tiktok');
    const granted = await api.get('/api/herald/suggestions?profile_username=ana&type=keywords&keyword=bread');
    expect(granted).toMatchObject({ status: 200, body: { success: true, type: 'keywords' } });
    expect(granted.body.keywords[0]).toEqual({ keyword: expect.stringContaining('bread'), search_volume: expect.any(Number) });
  });
});
