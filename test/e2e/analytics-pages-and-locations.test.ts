import { eventually } from '../support/stack';
import { useHerald } from '../support/e2e';
import { googleBusinessAnalyticsHarness, linkedinAnalyticsHarness } from '../contract/platforms/analytics-harnesses';
import type { VerifiedConnection } from '../../core/ports/platform';
import { linkedinEngagementRate } from '../../ops/simulators/linkedin';

jest.setTimeout(300_000);

const DAY_MS = 86_400_000;
const day = (at: Date) => at.toISOString().slice(0, 10);
const PROFILE = 'lia';
const NS = '/api/herald';

/**
 * Issue 12 for the page networks, LinkedIn (organization pages) and Google Business Profile
 * (locations), through the API and the worker (its analytics pool snapshotting every 2 s): both
 * connected through their OAuth flows, a post published to each, then GET /analytics/{profile}
 * with page_urn, live post analytics, post analytics by request id, total impressions from the
 * snapshots and the metric catalogue, every figure checked against the simulators'.
 */
describe('analytics of LinkedIn pages and Google Business locations', () => {
  const herald = useHerald({
    sandbox: true,
    env: { HERALD_ANALYTICS_CACHE_MS: '0', HERALD_ANALYTICS_SNAPSHOT_PERIOD_MS: '2000', HERALD_ANALYTICS_SNAPSHOT_OFFSET_MS: '0' },
    account: { email: 'pages-analytics@herald.dev' },
    profiles: [PROFILE],
  });
  const { api, sandbox } = herald;
  let pageId = '';
  let locationId = '';
  let requestId = '';
  let postUrn = '';
  const noConnection = {} as VerifiedConnection;

  beforeAll(async () => {
    pageId = sandbox.accounts.linkedin.pageId;
    locationId = sandbox.accounts.google_business.locationId;
    // Google counts a day once it is over: its clock a day ahead makes today's figures (and the post's) show.
    sandbox.simulators.google_business.analytics.model.setNow(new Date(Date.now() + DAY_MS));
    for (const platform of ['linkedin', 'google_business']) await herald.connect(platform, { profile: PROFILE });
    const res = await api.post('/api/upload_text', {
      user: PROFILE, 'platform[]': ['linkedin', 'google_business'], title: 'Fresh from the page and the bakery', target_linkedin_page_id: pageId,
    });
    expect(res.body).toMatchObject({ all_succeeded: true });
    requestId = res.body.request_id;
    postUrn = res.body.results.linkedin.post_id;
    expect(sandbox.simulators.linkedin.posts().find((p) => p.id === postUrn)).toMatchObject({ author: `urn:li:organization:${pageId}` });
  });

  afterAll(() => {
    sandbox.simulators.linkedin.analytics.model.setNow(undefined);
    sandbox.simulators.google_business.analytics.model.setNow(undefined);
  });

  const linkedin = () => linkedinAnalyticsHarness(() => sandbox.simulators.linkedin, () => pageId);
  const gbp = () => googleBusinessAnalyticsHarness(() => sandbox.simulators.google_business, () => locationId);

  it('GET /analytics answers the page and the location with the figures their simulators hold', async () => {
    const at = new Date();
    linkedin().freeze(at);
    const res = await api.get(`/api/analytics/${PROFILE}?platforms=linkedin,google_business&page_urn=urn:li:organization:${pageId}`);
    expect(res.status).toBe(200);
    const window = { since: day(new Date(at.getTime() - 29 * DAY_MS)), until: day(at), days: 30 };
    const li = await linkedin().account(noConnection, window);
    expect(res.body.linkedin).toMatchObject({
      success: true, ...li.values, reach_timeseries: li.reachTimeseries, impressions_timeseries: li.impressionsTimeseries,
      metric_type: 'reach', primary_impressions_field: 'reach', available_metrics: expect.arrayContaining(['followers', 'reach', 'impressions', 'engagement']),
    });
    expect(res.body.linkedin.reach).toBeGreaterThan(0);
    const g = await gbp().account(noConnection, window);
    expect(res.body.google_business).toMatchObject({
      success: true, ...g.values, impressions_timeseries: g.impressionsTimeseries, metric_type: 'impressions', primary_impressions_field: 'impressions',
    });
    expect(res.body.google_business.impressions).toBeGreaterThan(0);

    // The bare numeric id names the page too; without page_urn the first administered page is read.
    const bare = await api.get(`/api/analytics/${PROFILE}?platforms=linkedin&page_urn=${pageId}`);
    const implicit = await api.get(`/api/analytics/${PROFILE}?platforms=linkedin`);
    expect(bare.body.linkedin).toEqual(res.body.linkedin);
    expect(implicit.body.linkedin).toEqual(res.body.linkedin);
  });

  it('a page the member does not administer is a per-platform message; a bad page_urn a 400', async () => {
    const res = await api.get(`/api/analytics/${PROFILE}?platforms=linkedin,google_business&page_urn=urn:li:organization:424242`);
    expect(res.status).toBe(200);
    expect(res.body.linkedin).toMatchObject({ success: false, error_code: 'linkedin_page_not_administered', message: expect.stringContaining('424242') });
    expect(res.body.google_business).toMatchObject({ success: true });
    expect(await api.get(`/api/analytics/${PROFILE}?platforms=linkedin&page_urn=company-7`)).toMatchObject({ status: 400, body: { error_code: 'invalid_request' } });
  });

  it('live post analytics read the page post\'s share statistics, api_uploaded; by request id too', async () => {
    sandbox.simulators.linkedin.analytics.model.setNow(new Date());
    const live = await api.get(`${NS}/post-analytics?platform_post_id=${encodeURIComponent(postUrn)}&platform=linkedin&user=${PROFILE}`);
    expect(live.status).toBe(200);
    const sim = sandbox.simulators.linkedin;
    const c = sim.analytics.post(sim.posts().find((p) => p.id === postUrn)!);
    expect(live.body).toMatchObject({
      post: { platform_post_id: postUrn, platform: 'linkedin', profile_username: PROFILE, source: 'api_uploaded', request_id: requestId },
      platforms: {
        linkedin: {
          post_metrics_source: 'live', post_metrics_error: null, primary_impressions_field: 'impressions',
          available_metrics: ['impressions', 'reach', 'likes', 'comments', 'shares', 'engagement'],
          post_metrics: {
            impressions: c.impressionCount, reach: c.uniqueImpressionsCount, likes: c.likeCount, comments: c.commentCount, shares: c.shareCount,
            engagement: linkedinEngagementRate(c),
          },
        },
      },
    });
    expect(c.impressionCount).toBeGreaterThan(0);
    const byRequest = await api.get(`${NS}/post-analytics/${requestId}`);
    expect(byRequest.body.platforms.linkedin).toMatchObject({ success: true, platform_post_id: postUrn, post_metrics: { impressions: c.impressionCount } });
    // Google Business Profile has no per-post metrics: the refusal is the entry's error, and the live endpoint does not serve it.
    expect(byRequest.body.platforms.google_business).toMatchObject({ success: true, post_metrics: null, post_metrics_error: expect.stringMatching(/no per-post metrics/) });
    expect(await api.get(`${NS}/post-analytics?platform_post_id=x&platform=google_business&user=${PROFILE}`)).toMatchObject({ status: 400, body: { error_code: 'platform_not_supported' } });
  });

  it('total impressions: the snapshots of the day hold LinkedIn\'s reach and Google\'s impressions, as the simulators count them', async () => {
    const at = new Date();
    sandbox.simulators.linkedin.analytics.model.setNow(at);
    const today = day(at);
    const expectedLinkedIn = sandbox.simulators.linkedin.analytics.dailyShares(pageId, today).uniqueImpressionsCount;
    const gbpImpressions = (await gbp().account(noConnection, { since: today, until: today, days: 1 })).values!.impressions as number;
    const view = await eventually(
      () => api.get(`${NS}/total-impressions/${PROFILE}?period=last_day&breakdown=true`),
      (r) => r.status === 200 && r.body.per_platform?.linkedin === expectedLinkedIn && r.body.per_platform?.google_business === gbpImpressions,
      60_000, 500);
    expect(view.body).toMatchObject({ success: true, total_impressions: expectedLinkedIn + gbpImpressions });
    expect(gbpImpressions).toBeGreaterThan(0);
    expect(expectedLinkedIn).toBeGreaterThan(0);
    const metrics = await api.get(`${NS}/total-impressions/${PROFILE}?date=${today}&metrics=impressions,followers,likes&platform=linkedin`);
    const shares = sandbox.simulators.linkedin.analytics.dailyShares(pageId, today);
    expect(metrics.body.metrics).toEqual({ impressions: shares.impressionCount, followers: sandbox.simulators.linkedin.analytics.followers(pageId), likes: shares.likeCount });
  });

  it('the metric catalogue lists both networks', async () => {
    const res = await api.get(`${NS}/platform-metrics`);
    expect(res.body.platforms.linkedin).toMatchObject({ metric_type: 'reach', primary_impressions_field: 'reach', post: { primary_impressions_field: 'impressions' } });
    expect(res.body.platforms.google_business).toMatchObject({
      metric_type: 'impressions', primary_impressions_field: 'impressions', post: { available_metrics: [] },
      available_metrics: expect.arrayContaining(['impressions', 'website_clicks', 'call_clicks', 'direction_requests']),
    });
    expect(res.body.unsupported_platforms).not.toContain('linkedin');
  });
});
