import { MongoClient } from 'mongodb';
import { ANALYTICS_SNAPSHOTS_COLLECTION } from '../../adapters/mongo/analytics-history';
import { eventually } from '../support/stack';
import { media, useHerald } from '../support/e2e';

jest.setTimeout(240_000);

const PROFILE = 'ana';
const NS = '/api/herald';
const LIVE_LIMIT = 6;

/**
 * The stored analytics history end to end: the API and the worker (its analytics pool running the
 * snapshot workflow every 2 s instead of daily) against Temporal, FerretDB, Redis and the sandbox
 * simulators. Snapshots are taken and total impressions read from them match the simulator's own
 * figures, also after `herald analytics rebuild`; post analytics by request id, live (source,
 * cache, the per-account limit made small here; the 100-per-5-minutes default is a unit test) and
 * cached (pages), and every 400/404.
 */
describe('analytics history', () => {
  const herald = useHerald({
    sandbox: true,
    env: {
      HERALD_ANALYTICS_SNAPSHOT_PERIOD_MS: '2000', HERALD_ANALYTICS_SNAPSHOT_OFFSET_MS: '0', HERALD_ANALYTICS_SNAPSHOT_PAGE_SIZE: '2',
      HERALD_POST_ANALYTICS_LIMIT: String(LIVE_LIMIT), HERALD_POST_ANALYTICS_CACHE_MS: '60000',
    },
    account: { email: 'analytics@herald.dev' },
    profiles: [PROFILE],
  });
  const { api, stack, sandbox } = herald;
  let mongo: MongoClient;
  const photo = media.image({ color: '0x336699' });
  let requestId: string;
  let postId: string;
  let secondRequestId: string;
  let secondPostId: string;
  const today = () => new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    await herald.connect('instagram', { profile: PROFILE });
    const publish = async () => {
      const { body } = await herald.publish({ user: PROFILE, 'platform[]': ['instagram'], title: `Analytics post ${Date.now()}` }, { photos: [photo] });
      expect(body.results.instagram).toMatchObject({ success: true });
      return { requestId: body.request_id as string, postId: body.results.instagram.post_id as string };
    };
    ({ requestId: secondRequestId, postId: secondPostId } = await publish());
    ({ requestId, postId } = await publish());
    mongo = await MongoClient.connect(stack.env.MONGODB_URI!, { serverSelectionTimeoutMS: 5000 });
  });

  afterAll(async () => {
    await mongo?.close();
  });

  const owner = () => {
    const sim = sandbox.simulators.instagram;
    return sim.accounts().find((a) => a.id === sandbox.accounts.instagram.accountId) ?? sim.accounts()[0]!;
  };

  it('the analytics pool snapshots the account; total impressions are the simulator\'s reach of the day', async () => {
    const sim = sandbox.simulators.instagram;
    // Rounds every 2 s replace the day's snapshot; the post published above is in the figure once a round ran after it.
    const view = await eventually(
      () => api.get(`${NS}/total-impressions/${PROFILE}?period=last_day&breakdown=true`),
      (r) => r.status === 200 && r.body.total_impressions === sim.analytics.total(owner(), 'reach', today(), today()), 60_000, 500);
    expect(view.body).toMatchObject({
      success: true, profile_username: PROFILE, platforms_filter: null, per_platform: { instagram: view.body.total_impressions },
    });
    expect(view.body.total_impressions).toBeGreaterThan(0);
    expect(view.body.per_day.find((d: any) => d.date === today())).toEqual({ date: today(), total_impressions: view.body.total_impressions, per_platform: { instagram: view.body.total_impressions } });
    // One document per day, keyed by account, profile, network and day, with its month series.
    const doc = await mongo.db().collection(ANALYTICS_SNAPSHOTS_COLLECTION).findOne({ date: today(), platform: 'instagram' });
    expect(doc).toMatchObject({ profileUsername: PROFILE, metrics: { reach: view.body.total_impressions }, series: expect.stringContaining(`:${PROFILE}:instagram:${today().slice(0, 7)}`) });

    const metrics = await api.get(`${NS}/total-impressions/${PROFILE}?date=${today()}&metrics=reach,likes,followers&platform=instagram`);
    expect(metrics).toMatchObject({ status: 200, body: { start_date: today(), end_date: today(), platforms_filter: ['instagram'] } });
    expect(metrics.body.metrics).toEqual({
      reach: sim.analytics.total(owner(), 'reach', today(), today()), likes: sim.analytics.total(owner(), 'likes', today(), today()), followers: sim.analytics.followers(owner()),
    });
    expect(metrics.body.total_impressions).toBeUndefined();
    // A range before the history has nothing.
    expect((await api.get(`${NS}/total-impressions/${PROFILE}?start_date=2020-01-01&end_date=2020-01-31`)).body.total_impressions).toBe(0);

    // The migration command rebuilds the year series from the day documents; the answers stay.
    const rebuilt = await stack.cli('analytics', 'rebuild', '--email', 'analytics@herald.dev', '--json');
    expect(rebuilt.code).toBe(0);
    expect(JSON.parse(rebuilt.stdout)).toMatchObject({ profiles: 1, years: expect.any(Number), snapshots: expect.any(Number) });
    expect(JSON.parse(rebuilt.stdout).snapshots).toBeGreaterThan(0);
    await eventually(
      () => api.get(`${NS}/total-impressions/${PROFILE}?period=last_day`),
      (r) => r.status === 200 && r.body.total_impressions === sim.analytics.total(owner(), 'reach', today(), today()), 60_000, 500);
  });

  it.each([
    ['date=2026-02-30', 400, 'invalid_date'], ['start_date=yesterday', 400, 'invalid_date'], ['period=last_century', 400, 'invalid_period'],
    ['metrics=reach,karma', 400, 'invalid_metric'], ['platform=myspace', 400, 'invalid_platform'], ['breakdown=maybe', 400, 'invalid_request'],
  ])('total impressions: %s answers %i %s', async (query, status, errorCode) => {
    const res = await api.get(`${NS}/total-impressions/${PROFILE}?${query}`);
    expect(res).toMatchObject({ status, body: { success: false, error_code: errorCode, message: expect.any(String) } });
  });

  it('total impressions: a date field that period or date overrides is not read', async () => {
    for (const query of ['period=last_day&date=2026-02-30', `date=${today()}&start_date=yesterday`]) {
      expect(await api.get(`${NS}/total-impressions/${PROFILE}?${query}`)).toMatchObject({ status: 200, body: { success: true } });
    }
  });

  it('total impressions: 404 for an unknown profile', async () => {
    expect(await api.get(`${NS}/total-impressions/nobody`)).toMatchObject({ status: 404, body: { error_code: 'PROFILE_NOT_FOUND' } });
  });

  it('post analytics by request id: the post, its result, live metrics and the profile\'s snapshots', async () => {
    const res = await api.get(`${NS}/post-analytics/${requestId}`);
    expect(res.status).toBe(200);
    expect(res.body.post).toMatchObject({ request_id: requestId, profile_username: PROFILE, media_type: 'photo', upload_timestamp: expect.any(String) });
    const ig = res.body.platforms.instagram;
    expect(ig).toMatchObject({
      success: true, platform_post_id: postId, post_url: expect.stringMatching(/^https?:/), post_metrics_source: 'live', post_metrics_error: null,
      post_metrics: { views: expect.any(Number), reach: expect.any(Number), likes: expect.any(Number) },
      profile_snapshot_latest_date: today(), profile_snapshot_latest: { date: today(), reach: expect.any(Number) },
      profile_snapshot_at_post_date: { date: today() },
    });
    expect(ig.post_metrics.views).toBeGreaterThan(0);
    expect((await api.get(`${NS}/post-analytics/${requestId}?platform=instagram`)).body.platforms.instagram.post_metrics_source).toBe('cache');
    const second = await api.get(`${NS}/post-analytics/${secondRequestId}`);
    expect(second.body.platforms.instagram).toMatchObject({ platform_post_id: secondPostId, post_metrics_source: 'live' });
    expect(await api.get(`${NS}/post-analytics/no-such-request`)).toMatchObject({ status: 404, body: { error_code: 'UPLOAD_NOT_FOUND' } });
    expect(await api.get(`${NS}/post-analytics/${requestId}?platform=tiktok`)).toMatchObject({ status: 404, body: { error_code: 'PLATFORM_NOT_IN_UPLOAD' } });
  });

  it('live post analytics: api_uploaded with the request id, organic otherwise, every 400/404/503, then the limit (429 with Retry-After)', async () => {
    const live = await api.get(`${NS}/post-analytics?platform_post_id=${postId}&platform=instagram&user=${PROFILE}`);
    expect(live).toMatchObject({ status: 200, body: { post: { platform_post_id: postId, platform: 'instagram', profile_username: PROFILE, source: 'api_uploaded', request_id: requestId } } });
    expect(live.body.platforms.instagram).toMatchObject({ post_metrics_source: 'cache', primary_impressions_field: expect.any(String), available_metrics: expect.arrayContaining(['views']) });
    const organic = await api.get(`${NS}/post-analytics?platform_post_id=17999000111&platform=instagram&user=${PROFILE}`);
    expect(organic.body.post).toEqual({ platform_post_id: '17999000111', platform: 'instagram', profile_username: PROFILE, source: 'organic' });
    expect(organic.body.platforms.instagram).toMatchObject({ post_metrics: null, post_metrics_error: expect.any(String) });

    expect(await api.get(`${NS}/post-analytics?platform=instagram&user=${PROFILE}`)).toMatchObject({ status: 400, body: { error_code: 'missing_parameter' } });
    expect(await api.get(`${NS}/post-analytics?platform_post_id=1&platform=bluesky&user=${PROFILE}`)).toMatchObject({ status: 400, body: { error_code: 'platform_not_supported' } });
    expect(await api.get(`${NS}/post-analytics?platform_post_id=1&platform=reddit&user=${PROFILE}`)).toMatchObject({ status: 503, body: { error_code: 'reddit_unavailable' } });
    // Two requests counted so far (the 400s and 503 above are refused before the limit); the limit is 6 here.
    // X is not connected to the profile: not_connected, or platform_not_supported while X has no analytics in this build.
    const xHasAnalytics = (await api.get(`${NS}/platform-metrics`)).body.platforms?.x !== undefined;
    expect(await api.get(`${NS}/post-analytics?platform_post_id=1&platform=x&user=${PROFILE}`))
      .toMatchObject({ status: 400, body: { error_code: xHasAnalytics ? 'not_connected' : 'platform_not_supported' } });
    expect(await api.get(`${NS}/post-analytics?platform_post_id=1&platform=instagram&user=nobody`)).toMatchObject({ status: 404, body: { error_code: 'PROFILE_NOT_FOUND' } });
    expect((await api.get(`${NS}/post-analytics?platform_post_id=${postId}&platform=instagram&user=${PROFILE}`)).status).toBe(200);
    expect((await api.get(`${NS}/post-analytics?platform_post_id=${postId}&platform=instagram&user=${PROFILE}`)).status).toBe(200);
    const limited = await api.get(`${NS}/post-analytics?platform_post_id=${postId}&platform=instagram&user=${PROFILE}`);
    expect(limited).toMatchObject({ status: 429, body: { success: false, error_code: 'post_analytics_rate_limited', retry_after_seconds: expect.any(Number) } });
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(Number(limited.headers.get('retry-after'))).toBeLessThanOrEqual(300);
    // The cached endpoint is not limited.
    expect((await api.get(`${NS}/post-analytics/cached`)).status).toBe(200);
  });

  it('cached post analytics: the recorded fetches, newest first, in cursor pages, filtered; 400 for bad input', async () => {
    const all = await api.get(`${NS}/post-analytics/cached`);
    expect(all.status).toBe(200);
    // The two posts read by request id, the later read first (the live reads of the first post came from the cache: not recorded again).
    expect(all.body.posts.map((p: any) => p.platform_post_id)).toEqual([secondPostId, postId]);
    expect(all.body.posts[1]).toEqual(expect.objectContaining({
      platform: 'instagram', profile_username: PROFILE, source: 'api_uploaded', request_id: requestId, captured_at: expect.any(String), post_metrics: expect.objectContaining({ views: expect.any(Number) }),
    }));
    const first = await api.get(`${NS}/post-analytics/cached?limit=1`);
    expect(first.body.pagination).toMatchObject({ limit: 1, has_more: true, next_cursor: expect.any(String) });
    const second = await api.get(`${NS}/post-analytics/cached?limit=1&cursor=${encodeURIComponent(first.body.pagination.next_cursor)}`);
    expect(first.body.posts.map((p: any) => p.platform_post_id)).toEqual([secondPostId]);
    expect(second.body.posts.map((p: any) => p.platform_post_id)).toEqual([postId]);
    expect(second.body.pagination).toEqual({ limit: 1, next_cursor: null, has_more: false });
    const until = encodeURIComponent(all.body.posts[1].captured_at);
    expect((await api.get(`${NS}/post-analytics/cached?until=${until}`)).body.posts).toEqual([]);
    expect((await api.get(`${NS}/post-analytics/cached?since=${until}`)).body.posts.map((p: any) => p.platform_post_id)).toEqual([secondPostId, postId]);
    expect((await api.get(`${NS}/post-analytics/cached?platform=x`)).body.posts).toEqual([]);
    for (const [query, code] of [['limit=0', 'invalid_limit'], ['since=soon', 'invalid_date'], ['cursor=bogus', 'invalid_cursor'], ['platform=myspace', 'invalid_platform']]) {
      expect(await api.get(`${NS}/post-analytics/cached?${query}`)).toMatchObject({ status: 400, body: { error_code: code } });
    }
  });
  // Last: its read is recorded for the cached list the test above counts. A profile of its own keeps the snapshots above apart.
  it('post analytics by request id of a Facebook video: the Page from the upload\'s result, the video\'s insights (issue 29 g)', async () => {
    expect((await api.post(`${NS}/users`, { username: 'vid' })).status).toBe(201);
    await herald.connect('facebook', { profile: 'vid' });
    const pageId = sandbox.accounts.facebook.pageId;
    const clip = media.clip({ seconds: 3, size: '320x240', rate: 25, preset: 'ultrafast' });
    const sent = await herald.publish({ user: 'vid', 'platform[]': ['facebook'], title: 'A video to measure', facebook_page_id: pageId, async_upload: true }, { video: clip });
    const done = (await herald.waitForCompletion(sent.body.request_id)).body;
    const videoId = done.results.facebook.post_id as string;
    expect(done.results.facebook).toMatchObject({ success: true, page_id: pageId });
    expect(videoId).not.toContain('_');
    const res = await api.get(`${NS}/post-analytics/${sent.body.request_id}`);
    const sim = sandbox.simulators.facebook;
    const v = sim.analytics.videoInsights(sim.videos().find((x) => x.id === videoId)!);
    expect(res.body.platforms.facebook).toMatchObject({
      success: true, platform_post_id: videoId, post_metrics_source: 'live', post_metrics_error: null,
      post_metrics: { impressions: v.impressions, reach: v.reach, likes: v.likes, comments: v.comments, shares: v.shares },
    });
  });
});
