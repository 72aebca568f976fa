/**
 * Network-specific analytics behaviour the shared contract does not cover: TikTok with the
 * profile_analytics capability (business metrics, every extra per-post field, audience,
 * suggestions, the network's own capability checks), Instagram's demographic thresholds.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { PlatformAdapter, PlatformCredentials } from '../../../core/ports/platform';
import { createTikTokPlatform } from '../../../adapters/platforms/tiktok';
import { createInstagramPlatform } from '../../../adapters/platforms/instagram';
import { startTikTokSimulator, type TikTokSimulator } from '../../../ops/simulators/tiktok';
import { startInstagramSimulator, type InstagramSimulator } from '../../../ops/simulators/instagram';
import { drivePublish, mediaFixtures, type MediaFixtures, FIXTURE_TIMEOUT_MS } from '../../support/platform-harness';
import { postOf } from './harness-kit';

const DAY_MS = 86_400_000;
const day = (at: Date) => at.toISOString().slice(0, 10);

describe('tiktok with profile_analytics', () => {
  let sim: TikTokSimulator;
  let fx: MediaFixtures;
  let tiktok: PlatformAdapter;
  let openId = '';
  let credentials: PlatformCredentials;

  beforeAll(async () => {
    [sim, fx] = await Promise.all([startTikTokSimulator({ processingMs: 20 }), mediaFixtures()]);
    const client = sim.createClient();
    openId = sim.createAccount({ username: 'analytics.creator', capabilities: ['comments', 'profile_analytics'] }).openId;
    tiktok = createTikTokPlatform({ clientId: client.clientKey, clientSecret: client.clientSecret, apiBase: sim.apiBase, authBase: sim.authBase, businessApiBase: sim.businessApiBase, pollIntervalMs: 10, postIdPollIntervalMs: 10 });
    const t = sim.issueTokens(openId, { clientKey: client.clientKey, scope: 'user.info.basic,user.info.stats,video.list,video.publish,video.upload' });
    credentials = { access_token: t.access_token, open_id: openId, capabilities: t.capabilities.join(',') };
  }, FIXTURE_TIMEOUT_MS);
  afterAll(async () => { sim.analytics.model.setNow(undefined); await Promise.all([sim.close(), fx.close()]); });

  it('reads every extra per-post field of the spec from the API for Business', async () => {
    const { outcome } = await drivePublish(tiktok, { credentials, idempotencyKey: 'a1', media: fx.access }, postOf(tiktok, 'photo', 'Analytics photo', fx.images.slice(0, 2)), { maxWaitMs: 20 });
    sim.analytics.model.setNow(new Date(Date.now() + 2 * DAY_MS));
    const got = await tiktok.analytics!.post({ credentials }, { post: { id: outcome.postId } });
    const v = sim.analytics.video(sim.posts().find((p) => p.id === outcome.postId)!);
    expect(got.values).toMatchObject({
      views: v.video_views, impressions: v.video_views, reach: v.reach, likes: v.likes, favorites: v.favorites, saves: v.favorites, new_followers: v.new_followers,
      profile_views: v.profile_views, full_video_watched_rate: v.full_video_watched_rate, average_time_watched: v.average_time_watched, total_time_watched: v.total_time_watched,
    });
    expect(got.details).toMatchObject({ is_ai_generated: false });
    const seconds = got.details!.retention!.map((r) => r.second);
    expect(seconds).toEqual([...seconds].sort((a, b) => a - b));
    expect(got.details!.impression_sources![0]).toEqual({ impression_source: expect.any(String), percentage: expect.any(Number) });
    expect(got.details!.audience_types![0]).toEqual({ audience_type: expect.any(String), percentage: expect.any(Number) });
  });

  it('sums the business daily metrics over the window, without today (a day of lag)', async () => {
    const at = new Date(Date.now() + 2 * DAY_MS);
    sim.analytics.model.setNow(at);
    const got = await tiktok.analytics!.account({ credentials }, { until: at, days: 30 });
    const rows = sim.analytics.rows(openId, day(new Date(at.getTime() - 29 * DAY_MS)), day(at));
    expect(rows.at(-1)!.date).toBe(day(new Date(at.getTime() - DAY_MS)));
    expect(got.values.views).toBe(rows.reduce((s, r) => s + Number(r.video_views), 0));
    expect(got.values.profileViews).toBe(rows.reduce((s, r) => s + Number(r.profile_views), 0));
    expect(got.values.followers).toBe(sim.analytics.userStats(openId).follower_count);
  });

  it('answers audience insights and hashtag suggestions; keywords need trend_search, refused by TikTok too', async () => {
    sim.analytics.model.setNow(undefined);
    const audience = await tiktok.analytics!.audience!({ credentials }, { until: new Date(), days: 7, benchmarkCategory: 'Gaming' });
    expect(audience.activity_by_hour).toHaveLength(24);
    expect(audience.followers_daily).toHaveLength(6);
    expect(Object.values(audience.audience.gender).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 5);
    expect(audience.benchmark).toMatchObject({ category: 'Gaming' });
    const tags = await tiktok.analytics!.suggestions!({ credentials }, { type: 'hashtags', keyword: 'bread', limit: 5 });
    expect(tags).toMatchObject({ type: 'hashtags' });
    expect(tags.type === 'hashtags' && tags.hashtags.length).toBe(5);
    let err: unknown;
    try { await tiktok.analytics!.suggestions!({ credentials }, { type: 'keywords', keyword: 'bread' }); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(PlatformError);
    expect(tiktok.analytics!.gates).toMatchObject({ audience: 'profile_analytics', hashtags: 'profile_analytics', keywords: 'trend_search' });
  });
});

describe('instagram demographics thresholds', () => {
  let sim: InstagramSimulator;
  let ig: PlatformAdapter;
  beforeAll(async () => {
    sim = await startInstagramSimulator({ processingMs: 20 });
    const app = sim.createApp();
    ig = createInstagramPlatform({ clientId: app.clientId, clientSecret: app.clientSecret, apiBase: sim.apiBase, apiVersion: sim.apiVersion, authorizeUrl: sim.authorizeUrl, tokenUrl: sim.tokenUrl });
    (globalThis as { igApp?: typeof app }).igApp = app;
  });
  afterAll(() => sim.close());
  const credentialsOf = (accountId: string, scopes?: string[]) => {
    const app = (globalThis as { igApp?: { clientId: string } }).igApp!;
    return { access_token: sim.issueToken(accountId, { clientId: app.clientId, ...(scopes ? { scopes } : {}) }).accessToken, ig_user_id: accountId };
  };

  it('answers empty demographics below 100 followers, and a breakdown that adds up to the followers above', async () => {
    const small = sim.createAccount({ username: 'tiny_ig', followersCount: 40 });
    const big = sim.createAccount({ username: 'big_ig', followersCount: 4000 });
    const all = ['instagram_business_basic', 'instagram_business_manage_insights'];
    const tiny = await ig.analytics!.account({ credentials: credentialsOf(small.id, all) }, { until: new Date(), days: 30 });
    expect(tiny.followerDemographics).toEqual({});
    const grown = await ig.analytics!.account({ credentials: credentialsOf(big.id, all) }, { until: new Date(), days: 30 });
    const ages = Object.values(grown.followerDemographics!.age!);
    expect(ages.reduce((a, b) => a + b, 0)).toBe(4000);
    expect(Object.keys(grown.followerDemographics!.gender!).sort()).toEqual(['F', 'M', 'U']);
  });

  it('refuses without the insights permission (Meta error 10): a rejected permission_denied', async () => {
    const a = sim.createAccount({ username: 'no_insights_ig' });
    let err: unknown;
    try { await ig.analytics!.account({ credentials: credentialsOf(a.id, ['instagram_business_basic']) }, { until: new Date(), days: 30 }); } catch (e) { err = e; }
    expect(err).toMatchObject({ platform: 'instagram', failure: { kind: 'rejected', code: 'permission_denied' } });
  });
});
