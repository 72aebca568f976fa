/**
 * TikTok analytics.
 * Every connection: the Display API's `GET /v2/user/info/?fields=follower_count,following_count,
 * likes_count,video_count` (scope user.info.stats) and `POST /v2/video/query/` (scope video.list)
 * for a video's views, likes, comments and shares.
 * Connections with the `profile_analytics` capability (spec: "profile-level analytics, full
 * per-post breakdown, audience insights, hashtag suggestions") also read the API for Business v1.3
 * (business-api.tiktok.com/portal/docs, "TikTok Accounts"; `Access-Token` header, business_id =
 * open_id): `GET /business/get/` (daily video_views, profile_views, likes, comments, shares,
 * followers, audience and activity, at most 60 days a call, a day of lag) and
 * `GET /business/video/list/?filters={"video_ids":[…]}` (reach, favorites, new_followers,
 * profile_views, full_video_watched_rate, average/total_time_watched, video_view_retention,
 * impression_sources, audience_types, is_ai_generated). Hashtag suggestions
 * (`/business/hashtag/suggestion/`), keyword trends (`/business/keyword/trend/`, capability
 * trend_search) and benchmarks (`/business/benchmark/`) are not in TikTok's public reference: their
 * paths and shapes are Herald's reading of the product, kept in this file only.
 * Without profile_analytics, `likes` is the account's lifetime likes_count and window metrics are null.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { AccountMetrics, Analytics, AudienceInsights, MetricCatalogue, PostMetricDetails, Suggestions, TimePoint } from '../../../core/ports/platform';
import { exchangeJson, isObject, type Json } from '../kit/http';
import { chunksOf, metricList, numberOr, sumSeries, valuesFor, windowOf } from '../kit/analytics';
import type { TikTokClient } from './client';
import { capabilitiesOf } from './connect';

const BUSINESS_RANGE_DAYS = 60;
const DAILY = ['video_views', 'profile_views', 'likes', 'comments', 'shares'] as const;
const ACTIONS = ['profile_views', 'bio_link_clicks', 'phone_number_clicks', 'email_clicks', 'address_clicks'] as const;
const VIDEO_FIELDS = ['item_id', 'reach', 'video_views', 'likes', 'comments', 'shares', 'favorites', 'new_followers', 'profile_views',
  'full_video_watched_rate', 'average_time_watched', 'total_time_watched', 'video_view_retention', 'impression_sources', 'audience_types', 'is_ai_generated'];

export const tiktokCatalogue: MetricCatalogue = {
  metricType: 'views',
  primaryImpressionsField: 'views',
  postPrimaryImpressionsField: 'views',
  account: metricList([
    ['followers', 'Followers'], ['following', 'Following'], ['posts_count', 'Videos'], ['views', 'Video views'], ['impressions', 'Video views (impressions)'],
    ['profileViews', 'Profile views'], ['likes', 'Likes'], ['comments', 'Comments'], ['shares', 'Shares'], ['engagement', 'Likes, comments and shares'],
  ]),
  post: metricList([
    ['views', 'Views'], ['impressions', 'Views (impressions)'], ['reach', 'Reach'], ['likes', 'Likes'], ['comments', 'Comments'], ['shares', 'Shares'],
    ['saves', 'Favorites (saves)'], ['favorites', 'Favorites'], ['new_followers', 'New followers'], ['profile_views', 'Profile views'],
    ['full_video_watched_rate', 'Watched in full (fraction)'], ['average_time_watched', 'Average time watched (s)'], ['total_time_watched', 'Total time watched (s)'],
  ]),
};

export function createTikTokAnalytics(client: TikTokClient): Analytics {
  const fail = (message: string, code = 'malformed_answer') => new PlatformError('tiktok', { kind: 'rejected', code }, message);

  /** One API for Business read: `data`, or the mapped failure. */
  async function business(token: string, path: string, query: Record<string, string>, signal?: AbortSignal): Promise<Json> {
    const outcome = await exchangeJson(`${client.businessBase}/v1.3${path}?${new URLSearchParams(query)}`, {
      method: 'GET', headers: { 'access-token': token, accept: 'application/json' },
    }, { fetch: client.bigIdFetch, timeoutMs: client.timeoutMs, signal });
    if (outcome.kind === 'no_response') throw client.failure(outcome);
    const body = isObject(outcome.body) ? outcome.body : {};
    if (outcome.status < 200 || outcome.status >= 300 || body.code !== 0) throw client.failure(outcome);
    if (!isObject(body.data)) throw client.failure({ kind: 'malformed', status: outcome.status, what: `the data of ${path}` });
    return body.data;
  }

  const businessId = (ctx: { credentials: Record<string, string> }) => {
    const id = ctx.credentials.open_id;
    if (!id) throw new PlatformError('tiktok', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored TikTok connection has no open_id; reconnect the account.');
    return id;
  };

  /** business/get rows over [since, until], in chunks of at most 60 days. */
  async function dailyRows(token: string, id: string, since: string, until: string, fields: readonly string[], signal?: AbortSignal): Promise<{ rows: Json[]; last: Json }> {
    const rows: Json[] = [];
    let last: Json = {};
    for (const chunk of chunksOf(since, until, BUSINESS_RANGE_DAYS)) {
      last = await business(token, '/business/get/', { business_id: id, start_date: chunk.since, end_date: chunk.until, fields: JSON.stringify(fields) }, signal);
      rows.push(...(Array.isArray(last.metrics) ? last.metrics.filter(isObject) : []));
    }
    return { rows, last };
  }
  const series = (rows: Json[], field: string): TimePoint[] => rows.map((r) => ({ date: String(r.date), value: numberOr(r[field]) ?? 0 }));
  const shares = (list: unknown, key: string): Record<string, number> =>
    Object.fromEntries((Array.isArray(list) ? list.filter(isObject) : []).map((e) => [String(e[key]), numberOr(e.percentage) ?? 0]));

  return {
    catalogue: tiktokCatalogue,
    gates: { audience: 'profile_analytics', hashtags: 'profile_analytics', keywords: 'trend_search' },

    async account(ctx, input): Promise<AccountMetrics> {
      const token = client.tokenOf(ctx);
      const info = await client.api(token, 'GET', '/v2/user/info/?fields=open_id,follower_count,following_count,likes_count,video_count', undefined, ctx.signal);
      const user = isObject(info.user) ? info.user : {};
      const base = {
        followers: numberOr(user.follower_count), following: numberOr(user.following_count), posts_count: numberOr(user.video_count),
        likes: numberOr(user.likes_count),
      };
      if (!capabilitiesOf(ctx.credentials).has('profile_analytics')) return { values: valuesFor(tiktokCatalogue.account, base) };
      const w = windowOf(input);
      const { rows } = await dailyRows(token, businessId(ctx), w.since, w.until, DAILY, ctx.signal);
      const views = series(rows, 'video_views');
      const total = (f: string) => sumSeries(series(rows, f));
      return {
        values: valuesFor(tiktokCatalogue.account, {
          ...base, views: sumSeries(views), impressions: sumSeries(views), profileViews: total('profile_views'),
          likes: total('likes'), comments: total('comments'), shares: total('shares'), engagement: total('likes') + total('comments') + total('shares'),
        }),
        impressionsTimeseries: views,
      };
    },

    async post(ctx, { post }) {
      const token = client.tokenOf(ctx);
      if (capabilitiesOf(ctx.credentials).has('profile_analytics')) {
        const data = await business(token, '/business/video/list/', {
          business_id: businessId(ctx), fields: JSON.stringify(VIDEO_FIELDS), filters: JSON.stringify({ video_ids: [post.id] }),
        }, ctx.signal);
        const video = (Array.isArray(data.videos) ? data.videos.filter(isObject) : []).find((v) => String(v.item_id) === post.id);
        if (!video) throw fail(`TikTok: video ${post.id} is not among the account's videos.`, 'not_found');
        const n = (k: string) => numberOr(video[k]);
        const details: PostMetricDetails = {
          is_ai_generated: video.is_ai_generated === true,
          retention: (Array.isArray(video.video_view_retention) ? video.video_view_retention.filter(isObject) : [])
            .map((r) => ({ second: Number(r.second), percentage: numberOr(r.percentage) ?? 0 })).sort((a, b) => a.second - b.second),
          impression_sources: (Array.isArray(video.impression_sources) ? video.impression_sources.filter(isObject) : [])
            .map((r) => ({ impression_source: String(r.impression_source), percentage: numberOr(r.percentage) ?? 0 })),
          audience_types: (Array.isArray(video.audience_types) ? video.audience_types.filter(isObject) : [])
            .map((r) => ({ audience_type: String(r.type ?? r.audience_type), percentage: numberOr(r.percentage) ?? 0 })),
        };
        return {
          values: valuesFor(tiktokCatalogue.post, {
            views: n('video_views'), impressions: n('video_views'), reach: n('reach'), likes: n('likes'), comments: n('comments'), shares: n('shares'),
            saves: n('favorites'), favorites: n('favorites'), new_followers: n('new_followers'), profile_views: n('profile_views'),
            full_video_watched_rate: n('full_video_watched_rate'), average_time_watched: n('average_time_watched'), total_time_watched: n('total_time_watched'),
          }),
          details,
        };
      }
      const data = await client.api(token, 'POST', '/v2/video/query/?fields=id,view_count,like_count,comment_count,share_count',
        { filters: { video_ids: [post.id] } }, ctx.signal, client.bigIdFetch);
      const video = (Array.isArray(data.videos) ? data.videos.filter(isObject) : []).find((v) => String(v.id) === post.id);
      if (!video) throw fail(`TikTok: video ${post.id} was not found (drafts and private videos have no public metrics).`, 'not_found');
      return {
        values: valuesFor(tiktokCatalogue.post, {
          views: numberOr(video.view_count), impressions: numberOr(video.view_count), likes: numberOr(video.like_count),
          comments: numberOr(video.comment_count), shares: numberOr(video.share_count),
        }),
      };
    },

    async audience(ctx, input): Promise<AudienceInsights> {
      const token = client.tokenOf(ctx);
      const id = businessId(ctx);
      const w = windowOf(input);
      const fields = ['followers_count', ...ACTIONS, 'audience_activity', 'audience_ages', 'audience_genders', 'audience_countries', 'bio_description'];
      const { rows, last } = await dailyRows(token, id, w.since, w.until, fields, ctx.signal);
      const hours = new Map<number, number[]>();
      for (const row of rows) {
        for (const a of (Array.isArray(row.audience_activity) ? row.audience_activity.filter(isObject) : [])) {
          const hour = Number(a.hour);
          hours.set(hour, [...(hours.get(hour) ?? []), numberOr(a.count) ?? 0]);
        }
      }
      const categories = await business(token, '/business/benchmark/', { business_id: id }, ctx.signal);
      const benchmark = input.benchmarkCategory
        ? await business(token, '/business/benchmark/', { business_id: id, business_category: input.benchmarkCategory }, ctx.signal)
        : undefined;
      return {
        range: { start_date: w.since, end_date: w.until },
        audience: { age: shares(last.audience_ages, 'age'), gender: shares(last.audience_genders, 'gender'), country: shares(last.audience_countries, 'country') },
        activity_by_hour: [...hours.entries()].sort((a, b) => a[0] - b[0])
          .map(([hour, counts]) => ({ hour, value: Math.round(counts.reduce((s, c) => s + c, 0) / counts.length) })),
        followers_daily: series(rows, 'followers_count'),
        profile_actions: Object.fromEntries(ACTIONS.map((a) => [a, sumSeries(series(rows, a))])),
        bio_description: typeof last.bio_description === 'string' ? last.bio_description : null,
        benchmark_categories: Array.isArray(categories.categories) ? categories.categories.map(String) : [],
        ...(benchmark && input.benchmarkCategory ? {
          benchmark: {
            category: input.benchmarkCategory,
            metrics: Object.fromEntries(Object.entries(isObject(benchmark.benchmarks) ? benchmark.benchmarks : {}).map(([k, v]) => [k, numberOr(v) ?? 0])),
          },
        } : {}),
      };
    },

    async suggestions(ctx, input): Promise<Suggestions> {
      const token = client.tokenOf(ctx);
      const keyword = input.keyword ?? '';
      const limit = input.limit ?? 10;
      if (input.type === 'hashtags') {
        const data = await business(token, '/business/hashtag/suggestion/', { business_id: businessId(ctx), keyword, language: 'en' }, ctx.signal);
        const list = Array.isArray(data.suggestions) ? data.suggestions.filter(isObject) : [];
        return { type: 'hashtags', hashtags: list.slice(0, limit).map((h) => ({ name: String(h.hashtag_name), view_count: numberOr(h.video_view_count) ?? 0 })) };
      }
      const data = await business(token, '/business/keyword/trend/', { business_id: businessId(ctx), keyword }, ctx.signal);
      const list = Array.isArray(data.keywords) ? data.keywords.filter(isObject) : [];
      return { type: 'keywords', keywords: list.slice(0, limit).map((k) => ({ keyword: String(k.keyword), search_volume: numberOr(k.search_volume) ?? 0 })) };
    },
  };
}
