/**
 * Instagram insights (developers.facebook.com/docs/instagram-platform/api-reference/instagram-user/insights,
 * instagram-media/insights), permission `instagram_business_manage_insights`:
 * - `GET /{ig-id}?fields=followers_count,follows_count,media_count`;
 * - `GET /{ig-id}/insights?metric=reach&period=day&metric_type=time_series&since&until` (the series);
 * - `GET /{ig-id}/insights?metric=views,profile_views,…&period=day&metric_type=total_value&since&until`;
 * - `GET /{ig-id}/insights?metric=follower_demographics,engaged_audience_demographics&period=lifetime
 *   &metric_type=total_value&timeframe=this_month&breakdown=<age|gender|country|city>` (one breakdown a call);
 * - `GET /{media-id}/insights?metric=reach,views,likes,comments,shares,saved,total_interactions`.
 * `impressions` is deprecated since v22: `views` is answered for both. Meta allows 30 days per call.
 */
import type { AccountMetrics, Analytics, Demographics, MetricCatalogue, TimePoint } from '../../../core/ports/platform';
import { isObject, type Json } from '../kit/http';
import { addDays, chunksOf, metricList, numberOr, startOf, sumSeries, valuesFor, windowOf } from '../kit/analytics';
import type { InstagramClient } from './client';

const TOTALS = ['views', 'profile_views', 'likes', 'comments', 'shares', 'saves', 'total_interactions'] as const;
const BREAKDOWNS = ['age', 'gender', 'country', 'city'] as const;
const MEDIA_METRICS = ['reach', 'views', 'likes', 'comments', 'shares', 'saved', 'total_interactions'];

export const instagramCatalogue: MetricCatalogue = {
  metricType: 'reach',
  primaryImpressionsField: 'reach',
  postPrimaryImpressionsField: 'views',
  account: metricList([
    ['followers', 'Followers'], ['following', 'Following'], ['posts_count', 'Posts'], ['reach', 'Accounts reached'],
    ['views', 'Views'], ['impressions', 'Views (impressions)'], ['profileViews', 'Profile visits'], ['likes', 'Likes'],
    ['comments', 'Comments'], ['shares', 'Shares'], ['saves', 'Saves'], ['engagement', 'Total interactions'],
  ]),
  post: metricList([
    ['views', 'Views'], ['impressions', 'Views (impressions)'], ['reach', 'Accounts reached'], ['likes', 'Likes'],
    ['comments', 'Comments'], ['shares', 'Shares'], ['saves', 'Saves'], ['engagement', 'Total interactions'],
  ]),
};

/** `data[]` of an insights answer by metric name. */
const byName = (body: Json): Map<string, Json> =>
  new Map((Array.isArray(body.data) ? body.data : []).filter(isObject).map((e) => [String(e.name), e]));

const totalOf = (entry: Json | undefined): number | null => (isObject(entry?.total_value) ? numberOr(entry.total_value.value) : null);
const lifetimeOf = (entry: Json | undefined): number | null =>
  (Array.isArray(entry?.values) && isObject(entry.values[0]) ? numberOr(entry.values[0].value) : null);

/** A day series from `values[{value, end_time}]`: each value is the day before its end_time. */
function seriesOf(entry: Json | undefined): TimePoint[] {
  if (!Array.isArray(entry?.values)) return [];
  return entry.values.filter(isObject).flatMap((v) => {
    const end = Date.parse(String(v.end_time ?? ''));
    const value = numberOr(v.value);
    return Number.isFinite(end) && value !== null ? [{ date: new Date(end - 1).toISOString().slice(0, 10), value }] : [];
  });
}

export function createInstagramAnalytics(client: InstagramClient): Analytics {
  const { graphCall } = client.meta;
  const unix = (day: string) => String(Math.floor(startOf(day).getTime() / 1000));

  async function demographics(token: string, igUserId: string, signal?: AbortSignal): Promise<{ follower: Demographics; engaged: Demographics }> {
    const follower: Demographics = {};
    const engaged: Demographics = {};
    for (const breakdown of BREAKDOWNS) {
      const body = await graphCall('GET', `/${igUserId}/insights`, {
        metric: 'follower_demographics,engaged_audience_demographics', period: 'lifetime', metric_type: 'total_value',
        timeframe: 'this_month', breakdown,
      }, token, 'the demographics', {}, signal);
      for (const [name, target] of [['follower_demographics', follower], ['engaged_audience_demographics', engaged]] as const) {
        const entry = byName(body).get(name);
        const groups = isObject(entry?.total_value) && Array.isArray(entry.total_value.breakdowns) ? entry.total_value.breakdowns.filter(isObject) : [];
        const results = groups.flatMap((g) => (Array.isArray(g.results) ? g.results.filter(isObject) : []));
        // Below Meta's thresholds the metric is absent: the spec's empty object.
        if (!results.length) continue;
        target[breakdown] = Object.fromEntries(results.map((r) => [String(Array.isArray(r.dimension_values) ? r.dimension_values[0] : ''), numberOr(r.value) ?? 0]));
      }
    }
    return { follower, engaged };
  }

  return {
    catalogue: instagramCatalogue,
    async account(ctx, input): Promise<AccountMetrics> {
      const { token, igUserId } = client.account(ctx.credentials);
      const w = windowOf({ until: input.until, days: Math.min(input.days, 30) });
      const profile = await graphCall('GET', `/${igUserId}`, { fields: 'followers_count,follows_count,media_count' }, token, 'the account', {}, ctx.signal);
      const reach: TimePoint[] = [];
      const totals: Record<string, number> = {};
      for (const chunk of chunksOf(w.since, w.until, 30)) {
        const range = { period: 'day', since: unix(chunk.since), until: unix(addDays(chunk.until, 1)) };
        const series = await graphCall('GET', `/${igUserId}/insights`, { metric: 'reach', metric_type: 'time_series', ...range }, token, 'the reach', {}, ctx.signal);
        reach.push(...seriesOf(byName(series).get('reach')));
        const sums = byName(await graphCall('GET', `/${igUserId}/insights`, { metric: TOTALS.join(','), metric_type: 'total_value', ...range }, token, 'the insights', {}, ctx.signal));
        for (const m of TOTALS) totals[m] = (totals[m] ?? 0) + (totalOf(sums.get(m)) ?? 0);
      }
      const demo = await demographics(token, igUserId, ctx.signal);
      return {
        values: valuesFor(instagramCatalogue.account, {
          followers: numberOr(profile.followers_count), following: numberOr(profile.follows_count), posts_count: numberOr(profile.media_count),
          reach: sumSeries(reach), views: totals.views, impressions: totals.views, profileViews: totals.profile_views,
          likes: totals.likes, comments: totals.comments, shares: totals.shares, saves: totals.saves, engagement: totals.total_interactions,
        }),
        reachTimeseries: reach,
        followerDemographics: demo.follower,
        engagedAudienceDemographics: demo.engaged,
      };
    },
    async post(ctx, { post }) {
      const { token } = client.account(ctx.credentials);
      const body = byName(await graphCall('GET', `/${encodeURIComponent(post.id)}/insights`, { metric: MEDIA_METRICS.join(',') }, token, 'the media insights', {}, ctx.signal));
      const v = (name: string) => lifetimeOf(body.get(name));
      return {
        values: valuesFor(instagramCatalogue.post, {
          views: v('views'), impressions: v('views'), reach: v('reach'), likes: v('likes'), comments: v('comments'),
          shares: v('shares'), saves: v('saved'), engagement: v('total_interactions'),
        }),
      };
    },
  };
}
