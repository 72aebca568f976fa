/**
 * TikTok analytics on the simulator.
 * Display API (developers.tiktok.com/doc/tiktok-api-v2-get-user-info, -video-query): the
 * `user.info.stats` fields of `GET /v2/user/info/` (follower_count, following_count, likes_count,
 * video_count) and `POST /v2/video/query/` (scope video.list; `filters.video_ids`, at most 20).
 * API for Business v1.3 (business-api.tiktok.com/portal/docs, "TikTok Accounts"), with the
 * `Access-Token` header, for connections with the `profile_analytics` capability:
 * `GET /business/get/` (daily metrics, audience, activity by hour; at most 60 days from start_date
 * to end_date; data lags: days from today on have no row yet), `GET /business/video/list/` (per
 * video reach, favorites, new_followers, watch rates and times, retention, impression sources,
 * audience types, is_ai_generated), `GET /business/hashtag/suggestion/` and, for `trend_search`,
 * `GET /business/keyword/trend/`; `GET /business/benchmark/` (categories, or one category's
 * averages). The hashtag, keyword and benchmark reads are not in TikTok's public reference: their
 * shapes are Herald's reading of the product (documented in the adapter).
 */
import type { ServerResponse } from 'node:http';
import type { SimRequest } from '../kit/http';
import { addDays, daysBetween, dayOf, type AnalyticsModel, type MetricShape } from '../kit/metrics';
import { AGE_BUCKETS, COUNTRIES, spread } from '../kit/demographics';
import type { Grant, TikTokAccountFixture, TikTokPost } from './fixtures';

export const TIKTOK_DAILY_SHAPES: Record<string, MetricShape> = {
  video_views: { base: [200, 2000], perPost: 300 }, profile_views: { base: [10, 120], perPost: 10 },
  likes: { base: [20, 300], perPost: 40 }, comments: { base: [1, 30], perPost: 4 }, shares: { base: [0, 20], perPost: 3 },
  bio_link_clicks: { base: [0, 15] }, phone_number_clicks: { base: [0, 3] }, email_clicks: { base: [0, 3] }, address_clicks: { base: [0, 2] },
  daily_new_followers: { base: [2, 40], perPost: 5 }, daily_lost_followers: { base: [0, 8] },
};
export const TIKTOK_LEVELS: Record<string, MetricShape> = {
  follower_count: { base: [300, 9000], perDay: 4, perPost: 6 }, following_count: { base: [20, 600] }, likes_count: { base: [1000, 50_000], perDay: 30, perPost: 40 },
};
export const TIKTOK_VIDEO_SHAPES: Record<string, MetricShape> = {
  view_count: { base: [100, 1500] }, like_count: { base: [5, 120] }, share_count: { base: [0, 12] }, reach: { base: [80, 1200] },
  favorites: { base: [0, 25] }, new_followers: { base: [0, 10] }, profile_views: { base: [1, 30] }, total_time_watched: { base: [200, 4000] },
};
export const TIKTOK_BENCHMARK_CATEGORIES = ['Food & Beverage', 'Beauty', 'Fashion', 'Gaming', 'Education', 'Travel', 'Fitness'];
const MAX_RANGE_DAYS = 60;
const VIDEO_FIELDS = ['item_id', 'create_time', 'reach', 'video_views', 'likes', 'comments', 'shares', 'favorites', 'new_followers', 'profile_views',
  'full_video_watched_rate', 'average_time_watched', 'total_time_watched', 'video_duration', 'video_view_retention', 'impression_sources', 'audience_types', 'is_ai_generated'];
const ACCOUNT_FIELDS = [...Object.keys(TIKTOK_DAILY_SHAPES), 'followers_count', 'audience_activity', 'audience_ages', 'audience_genders', 'audience_countries', 'bio_description', 'username', 'display_name'];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface TikTokAnalyticsState {
  model: AnalyticsModel;
  posts: () => readonly TikTokPost[];
  /** Comments under a video (the simulator's comment store). */
  commentCount: (videoId: string) => number;
  accounts: () => ReadonlyMap<string, TikTokAccountFixture>;
  grantOf(token: string): Grant | undefined;
  businessAnswer(res: ServerResponse, code: number, message: string, data?: unknown): void;
  v2Error(res: ServerResponse, status: number, code: string, message: string): void;
  v2Ok(res: ServerResponse, data: unknown): void;
}

export function createTikTokAnalytics(s: TikTokAnalyticsState) {
  const { model } = s;
  const published = (openId: string) => s.posts().filter((p) => p.openId === openId && p.state === 'published');
  const times = (openId: string) => published(openId).map((p) => p.createdAt);
  /** Business metrics exist up to yesterday (UTC): TikTok's data lags by a day. */
  const lastDay = () => addDays(dayOf(model.now()), -1);

  const api = {
    model,
    level: (openId: string, metric: string) => model.level(openId, metric, TIKTOK_LEVELS[metric]!, model.now(), times(openId)),
    userStats(openId: string) {
      return {
        follower_count: api.level(openId, 'follower_count'), following_count: api.level(openId, 'following_count'),
        likes_count: api.level(openId, 'likes_count'), video_count: published(openId).length,
      };
    },
    daily: (openId: string, metric: string, day: string) => (day > lastDay() ? undefined : model.daily(openId, metric, TIKTOK_DAILY_SHAPES[metric]!, day, times(openId))),
    /** The business/get rows of [since, until] (days past the lag have none). */
    rows(openId: string, since: string, until: string) {
      const rows: Array<Record<string, unknown>> = [];
      for (let d = since; d <= until && d <= lastDay(); d = addDays(d, 1)) {
        const row: Record<string, unknown> = { date: d };
        for (const m of Object.keys(TIKTOK_DAILY_SHAPES)) row[m] = api.daily(openId, m, d);
        row.followers_count = model.level(openId, 'follower_count', TIKTOK_LEVELS.follower_count!, new Date(`${d}T23:59:59Z`), times(openId));
        row.audience_activity = Array.from({ length: 24 }, (_, hour) => ({ hour: String(hour), count: model.draw(`${openId}:activity:${d}:${hour}`, 0, 200) }));
        rows.push(row);
      }
      return rows;
    },
    audience(openId: string) {
      const pct = (key: string, buckets: readonly string[]) => {
        const parts = spread(model, `${openId}:${key}`, buckets, 10_000);
        return Object.entries(parts).map(([k, v]) => [k, v / 10_000] as const);
      };
      return {
        ages: pct('age', AGE_BUCKETS.slice(1)).map(([age, percentage]) => ({ age, percentage })),
        genders: pct('gender', ['Female', 'Male', 'Other']).map(([gender, percentage]) => ({ gender, percentage })),
        countries: pct('country', COUNTRIES).map(([country, percentage]) => ({ country, percentage })),
      };
    },
    video(p: TikTokPost): Record<string, unknown> {
      const v = Object.fromEntries(Object.entries(TIKTOK_VIDEO_SHAPES).map(([m, shape]) => [m, model.post(p.id, m, shape, p.createdAt)]));
      const duration = 15 + model.draw(`${p.id}:duration`, 0, 45);
      const views = v.view_count!;
      return {
        item_id: p.id, create_time: Math.floor(p.createdAt.getTime() / 1000), reach: v.reach, video_views: views, likes: v.like_count,
        comments: s.commentCount(p.id), shares: v.share_count, favorites: v.favorites,
        new_followers: v.new_followers, profile_views: v.profile_views,
        full_video_watched_rate: model.draw(`${p.id}:full`, 5, 60) / 100,
        total_time_watched: v.total_time_watched, average_time_watched: views ? Math.round((v.total_time_watched! / views) * 100) / 100 : 0,
        video_duration: duration,
        video_view_retention: Array.from({ length: Math.min(duration, 10) + 1 }, (_, i) => ({ second: String(i), percentage: Math.max(0, 1 - i * 0.07) })),
        impression_sources: [['For You', 55], ['Follow', 20], ['Personal Profile', 10], ['Search', 10], ['Sound', 5]]
          .map(([impression_source, base]) => ({ impression_source, percentage: (Number(base) + model.draw(`${p.id}:src:${impression_source}`, 0, 0)) / 100 })),
        audience_types: [{ type: 'New viewers', percentage: model.draw(`${p.id}:new`, 40, 80) / 100 }]
          .flatMap((n) => [n, { type: 'Returning viewers', percentage: Math.round((1 - n.percentage) * 100) / 100 }]),
        is_ai_generated: p.postInfo.is_aigc === true,
      };
    },
  };

  const jsonParam = (raw: string | undefined): unknown => { try { return raw === undefined ? undefined : JSON.parse(raw); } catch { return null; } };

  function businessGrant(req: SimRequest, res: ServerResponse, capability: string): Grant | undefined {
    const grant = s.grantOf(String(req.headers['access-token'] ?? ''));
    if (!grant) return void s.businessAnswer(res, 40105, 'Access token is invalid or has expired.');
    if (!grant.capabilities.includes(capability)) return void s.businessAnswer(res, 40001, `No permission: the authorization lacks ${capability}.`);
    if (req.query.business_id !== grant.openId) return void s.businessAnswer(res, 40002, 'business_id is invalid.');
    return grant;
  }

  function businessGet(req: SimRequest, res: ServerResponse) {
    const grant = businessGrant(req, res, 'profile_analytics');
    if (!grant) return;
    const fields = jsonParam(req.query.fields);
    if (!Array.isArray(fields) || fields.some((f) => !ACCOUNT_FIELDS.includes(String(f)))) return s.businessAnswer(res, 40002, `fields must be a JSON array of ${ACCOUNT_FIELDS.join(', ')}.`);
    const { start_date: since, end_date: until } = req.query;
    if (!DATE.test(since ?? '') || !DATE.test(until ?? '') || until! < since!) return s.businessAnswer(res, 40002, 'start_date and end_date are required (YYYY-MM-DD), start_date first.');
    if (daysBetween(since!, until!) > MAX_RANGE_DAYS) return s.businessAnswer(res, 40002, `The date range may span at most ${MAX_RANGE_DAYS} days.`);
    const a = s.accounts().get(grant.openId)!;
    const audience = api.audience(grant.openId);
    const want = new Set(fields.map(String));
    const metrics = api.rows(grant.openId, since!, until!).map((row) => Object.fromEntries(Object.entries(row).filter(([k]) => k === 'date' || want.has(k))));
    s.businessAnswer(res, 0, 'OK', {
      ...(want.has('username') ? { username: a.username } : {}), ...(want.has('display_name') ? { display_name: a.displayName } : {}),
      ...(want.has('bio_description') ? { bio_description: `Sandbox creator ${a.username}` } : {}),
      ...(want.has('followers_count') ? { followers_count: api.level(grant.openId, 'follower_count') } : {}),
      ...(want.has('audience_ages') ? { audience_ages: audience.ages } : {}),
      ...(want.has('audience_genders') ? { audience_genders: audience.genders } : {}),
      ...(want.has('audience_countries') ? { audience_countries: audience.countries } : {}),
      metrics,
    });
  }

  function videoList(req: SimRequest, res: ServerResponse) {
    const grant = businessGrant(req, res, 'profile_analytics');
    if (!grant) return;
    const fields = jsonParam(req.query.fields);
    if (!Array.isArray(fields) || fields.some((f) => !VIDEO_FIELDS.includes(String(f)))) return s.businessAnswer(res, 40002, `fields must be a JSON array of ${VIDEO_FIELDS.join(', ')}.`);
    const filters = jsonParam(req.query.filters) as { video_ids?: unknown } | null | undefined;
    const ids = filters && Array.isArray(filters.video_ids) ? filters.video_ids.map(String) : undefined;
    if (ids && (ids.length < 1 || ids.length > 20)) return s.businessAnswer(res, 40002, 'filters.video_ids takes 1 to 20 ids.');
    const videos = published(grant.openId).filter((p) => !ids || ids.includes(p.id))
      .map((p) => Object.fromEntries(Object.entries(api.video(p)).filter(([k]) => k === 'item_id' || fields.includes(k))));
    s.businessAnswer(res, 0, 'OK', { videos, cursor: 0, has_more: false });
  }

  function hashtagSuggestion(req: SimRequest, res: ServerResponse) {
    if (!businessGrant(req, res, 'profile_analytics')) return;
    const keyword = (req.query.keyword ?? '').trim().replace(/^#/, '');
    if (!keyword) return s.businessAnswer(res, 40002, 'keyword is required.');
    const suggestions = ['', 'tips', 'life', 'tok', 'daily', 'ideas', 'trend', 'hacks'].map((suffix) => `${keyword}${suffix}`.toLowerCase())
      .map((name) => ({ hashtag_name: name, video_view_count: model.draw(`hashtag:${name}`, 10_000, 90_000_000) }))
      .sort((a, b) => b.video_view_count - a.video_view_count);
    s.businessAnswer(res, 0, 'OK', { suggestions });
  }

  function keywordTrend(req: SimRequest, res: ServerResponse) {
    if (!businessGrant(req, res, 'trend_search')) return;
    const keyword = (req.query.keyword ?? '').trim();
    if (!keyword) return s.businessAnswer(res, 40002, 'keyword is required.');
    const keywords = ['', ' recipe', ' tutorial', ' 2026', ' near me', ' ideas'].map((suffix) => `${keyword}${suffix}`.toLowerCase())
      .map((k) => ({ keyword: k, search_volume: model.draw(`keyword:${k}`, 100, 2_000_000) }));
    s.businessAnswer(res, 0, 'OK', { keywords });
  }

  function benchmark(req: SimRequest, res: ServerResponse) {
    if (!businessGrant(req, res, 'profile_analytics')) return;
    const category = req.query.business_category;
    if (category === undefined) return s.businessAnswer(res, 0, 'OK', { categories: TIKTOK_BENCHMARK_CATEGORIES });
    if (!TIKTOK_BENCHMARK_CATEGORIES.includes(category)) return s.businessAnswer(res, 40002, `business_category must be one of ${TIKTOK_BENCHMARK_CATEGORIES.join(', ')}.`);
    s.businessAnswer(res, 0, 'OK', {
      business_category: category,
      benchmarks: { average_video_views: model.draw(`bench:${category}:views`, 500, 20_000), average_engagement_rate: model.draw(`bench:${category}:er`, 100, 900) / 10_000,
        average_followers_growth: model.draw(`bench:${category}:growth`, 1, 500) },
    });
  }

  const BUSINESS: Record<string, (req: SimRequest, res: ServerResponse) => void> = {
    '/open_api/v1.3/business/get/': businessGet,
    '/open_api/v1.3/business/video/list/': videoList,
    '/open_api/v1.3/business/hashtag/suggestion/': hashtagSuggestion,
    '/open_api/v1.3/business/keyword/trend/': keywordTrend,
    '/open_api/v1.3/business/benchmark/': benchmark,
  };

  return {
    ...api,
    isBusinessRead: (path: string) => path in BUSINESS,
    /** A GET of the API for Business analytics (routeOf says `business`). */
    business(req: SimRequest, res: ServerResponse) {
      if (req.method !== 'GET') return s.businessAnswer(res, 40002, 'Use GET.');
      BUSINESS[req.path]!(req, res);
    },
    /** POST /v2/video/query/ */
    videoQuery(req: SimRequest, res: ServerResponse, grant: Grant) {
      if (!grant.scope.includes('video.list')) return s.v2Error(res, 401, 'scope_not_authorized', 'video.list is required.');
      const fields = (req.query.fields ?? '').split(',').filter(Boolean);
      const allowed = ['id', 'create_time', 'view_count', 'like_count', 'comment_count', 'share_count', 'title', 'duration'];
      if (!fields.length || fields.some((f) => !allowed.includes(f))) return s.v2Error(res, 400, 'invalid_params', `fields must be some of ${allowed.join(',')}.`);
      const body = req.body.kind === 'json' && req.body.value && typeof req.body.value === 'object' ? req.body.value as { filters?: { video_ids?: unknown } } : undefined;
      const ids = Array.isArray(body?.filters?.video_ids) ? body!.filters!.video_ids.map(String) : [];
      if (!ids.length || ids.length > 20) return s.v2Error(res, 400, 'invalid_params', 'filters.video_ids takes 1 to 20 ids.');
      const videos = published(grant.openId).filter((p) => ids.includes(p.id)).map((p) => {
        const v = api.video(p);
        const all: Record<string, unknown> = {
          id: p.id, create_time: v.create_time, view_count: v.video_views, like_count: v.likes, comment_count: v.comments, share_count: v.shares,
          title: String(p.postInfo.title ?? ''), duration: v.video_duration,
        };
        return Object.fromEntries(fields.map((f) => [f, all[f]]));
      });
      s.v2Ok(res, { videos, cursor: 0, has_more: false });
    },
  };
}
export type TikTokAnalytics = ReturnType<typeof createTikTokAnalytics>;
