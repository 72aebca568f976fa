/**
 * Threads insights (developers.facebook.com/docs/threads/insights), permission
 * `threads_manage_insights`: `GET /{threads-user-id}/threads_insights?metric=views,likes,replies,
 * reposts,quotes,followers_count&since&until` (views is a daily series; the others are totals over
 * the range) and `GET /{media-id}/insights?metric=views,likes,replies,reposts,quotes,shares`.
 * Threads counts views, its impressions figure (the spec's default metric for threads).
 */
import type { AccountMetrics, Analytics, MetricCatalogue, TimePoint } from '../../../core/ports/platform';
import { isObject, type Json } from '../kit/http';
import { addDays, metricList, numberOr, startOf, sumSeries, valuesFor, windowOf } from '../kit/analytics';
import type { ThreadsClient } from './client';

export const threadsCatalogue: MetricCatalogue = {
  metricType: 'views',
  primaryImpressionsField: 'views',
  postPrimaryImpressionsField: 'views',
  account: metricList([
    ['followers', 'Followers'], ['views', 'Views'], ['impressions', 'Views (impressions)'], ['likes', 'Likes'], ['comments', 'Replies'],
    ['shares', 'Reposts'], ['quotes', 'Quotes'], ['engagement', 'Likes, replies, reposts and quotes'],
  ]),
  post: metricList([
    ['views', 'Views'], ['impressions', 'Views (impressions)'], ['likes', 'Likes'], ['comments', 'Replies'], ['shares', 'Reposts'],
    ['quotes', 'Quotes'], ['engagement', 'Likes, replies, reposts and quotes'],
  ]),
};

const byName = (body: Json) => new Map((Array.isArray(body.data) ? body.data.filter(isObject) : []).map((e) => [String(e.name), e]));
const totalOf = (e: Json | undefined) => (isObject(e?.total_value) ? numberOr(e.total_value.value) : null);
const lifetimeOf = (e: Json | undefined) => (Array.isArray(e?.values) && isObject(e.values[0]) ? numberOr(e.values[0].value) : null);
const seriesOf = (e: Json | undefined): TimePoint[] => (Array.isArray(e?.values) ? e.values.filter(isObject) : []).flatMap((v) => {
  const end = Date.parse(String(v.end_time ?? ''));
  const value = numberOr(v.value);
  return Number.isFinite(end) && value !== null ? [{ date: new Date(end - 1).toISOString().slice(0, 10), value }] : [];
});

export function createThreadsAnalytics(client: ThreadsClient): Analytics {
  const unix = (day: string) => String(Math.floor(startOf(day).getTime() / 1000));
  return {
    catalogue: threadsCatalogue,
    async account(ctx, input): Promise<AccountMetrics> {
      const { token, userId } = client.account(ctx.credentials);
      const w = windowOf(input);
      const body = byName(await client.graphCall('GET', `/${userId}/threads_insights`, {
        metric: 'views,likes,replies,reposts,quotes,followers_count', since: unix(w.since), until: unix(addDays(w.until, 1)),
      }, token, 'the insights', ctx.signal));
      const views = seriesOf(body.get('views'));
      const likes = totalOf(body.get('likes'));
      const replies = totalOf(body.get('replies'));
      const reposts = totalOf(body.get('reposts'));
      const quotes = totalOf(body.get('quotes'));
      return {
        values: valuesFor(threadsCatalogue.account, {
          followers: totalOf(body.get('followers_count')), views: sumSeries(views), impressions: sumSeries(views),
          likes, comments: replies, shares: reposts, quotes, engagement: (likes ?? 0) + (replies ?? 0) + (reposts ?? 0) + (quotes ?? 0),
        }),
        impressionsTimeseries: views,
      };
    },
    async post(ctx, { post }) {
      const { token } = client.account(ctx.credentials);
      const body = byName(await client.graphCall('GET', `/${encodeURIComponent(post.id)}/insights`, { metric: 'views,likes,replies,reposts,quotes' }, token, 'the post insights', ctx.signal));
      const v = (m: string) => lifetimeOf(body.get(m));
      return {
        values: valuesFor(threadsCatalogue.post, {
          views: v('views'), impressions: v('views'), likes: v('likes'), comments: v('replies'), shares: v('reposts'), quotes: v('quotes'),
          engagement: (v('likes') ?? 0) + (v('replies') ?? 0) + (v('reposts') ?? 0) + (v('quotes') ?? 0),
        }),
      };
    },
  };
}
