/**
 * Facebook Page insights (developers.facebook.com/docs/graph-api/reference/page/insights,
 * graph-api/reference/insights), with the Page's own token and the `read_insights` permission:
 * - `GET /{page-id}?fields=followers_count,fan_count`;
 * - `GET /{page-id}/insights?metric=page_impressions_unique,page_impressions,page_post_engagements,
 *   page_views_total&period=day&since&until`, in windows of at most 90 days (Meta allows 93), so the
 *   spec's `days` of up to 365 is read in chunks and the daily values joined;
 * - `GET /{post-id}/insights?metric=post_impressions,post_impressions_unique,post_reactions_like_total`
 *   and `GET /{post-id}?fields=shares,comments.summary(true)`.
 * Reach and impressions are the sums of the daily values over the window (a daily-unique sum
 * overstates unique reach; the spec's note on Facebook says so), with both series and period_days.
 */
import type { AccountMetrics, Analytics, MetricCatalogue, TimePoint } from '../../../core/ports/platform';
import { isObject, type Json } from '../kit/http';
import { addDays, chunksOf, metricList, numberOr, startOf, sumSeries, valuesFor, windowOf } from '../kit/analytics';
import type { FacebookClient } from './client';
import { choosePage } from './pages';

/** Days per insights call: the spec's chunks (Meta's own cap is 93). */
export const FACEBOOK_INSIGHTS_CHUNK_DAYS = 90;
const PAGE_METRICS = ['page_impressions_unique', 'page_impressions', 'page_post_engagements', 'page_views_total'] as const;
const POST_METRICS = ['post_impressions', 'post_impressions_unique', 'post_reactions_like_total'];

export const facebookCatalogue: MetricCatalogue = {
  metricType: 'reach',
  primaryImpressionsField: 'reach',
  postPrimaryImpressionsField: 'impressions',
  account: metricList([
    ['followers', 'Page followers'], ['likes', 'Page likes'], ['reach', 'Reach (daily unique, summed)'], ['impressions', 'Impressions'],
    ['profileViews', 'Page views'], ['engagement', 'Post engagements'],
  ]),
  post: metricList([
    ['impressions', 'Impressions'], ['reach', 'Reach'], ['likes', 'Likes'], ['comments', 'Comments'], ['shares', 'Shares'],
    ['engagement', 'Likes, comments and shares'],
  ]),
};

const seriesOf = (entry: Json | undefined): TimePoint[] =>
  (Array.isArray(entry?.values) ? entry.values.filter(isObject) : []).flatMap((v) => {
    const end = Date.parse(String(v.end_time ?? ''));
    const value = numberOr(v.value);
    return Number.isFinite(end) && value !== null ? [{ date: new Date(end - 1).toISOString().slice(0, 10), value }] : [];
  });
const byName = (body: Json) => new Map((Array.isArray(body.data) ? body.data.filter(isObject) : []).map((e) => [String(e.name), e]));

export function createFacebookAnalytics(client: FacebookClient): Analytics {
  const { graph } = client;
  const unix = (day: string) => String(Math.floor(startOf(day).getTime() / 1000));
  return {
    catalogue: facebookCatalogue,
    async account(ctx, input): Promise<AccountMetrics> {
      const { page, singlePage } = choosePage(ctx.credentials, input.target);
      const call = { token: page.token, signal: ctx.signal, singlePage };
      const w = windowOf(input);
      const fields = await graph('GET', `/${page.id}`, { fields: 'followers_count,fan_count' }, call);
      const series: Record<string, TimePoint[]> = Object.fromEntries(PAGE_METRICS.map((m) => [m, []]));
      for (const chunk of chunksOf(w.since, w.until, FACEBOOK_INSIGHTS_CHUNK_DAYS)) {
        const body = byName(await graph('GET', `/${page.id}/insights`, {
          metric: PAGE_METRICS.join(','), period: 'day', since: unix(chunk.since), until: unix(addDays(chunk.until, 1)),
        }, call));
        for (const m of PAGE_METRICS) series[m]!.push(...seriesOf(body.get(m)));
      }
      const reach = series.page_impressions_unique!;
      const impressions = series.page_impressions!;
      return {
        values: valuesFor(facebookCatalogue.account, {
          followers: numberOr(fields.followers_count), likes: numberOr(fields.fan_count), reach: sumSeries(reach),
          impressions: sumSeries(impressions), profileViews: sumSeries(series.page_views_total!), engagement: sumSeries(series.page_post_engagements!),
        }),
        reachTimeseries: reach,
        impressionsTimeseries: impressions,
        periodDays: w.days,
      };
    },
    async post(ctx, { post }) {
      const { page, singlePage } = choosePage(ctx.credentials, typeof post.extra?.page_id === 'string' ? post.extra.page_id : post.id.split('_')[0]);
      const call = { token: page.token, signal: ctx.signal, singlePage };
      const insights = byName(await graph('GET', `/${post.id}/insights`, { metric: POST_METRICS.join(',') }, call));
      const fields = await graph('GET', `/${post.id}`, { fields: 'shares,comments.summary(true).limit(0)' }, call);
      const lifetime = (name: string) => {
        const v = insights.get(name)?.values;
        return Array.isArray(v) && isObject(v[0]) ? numberOr(v[0].value) : null;
      };
      const likes = lifetime('post_reactions_like_total');
      const comments = isObject(fields.comments) && isObject(fields.comments.summary) ? numberOr(fields.comments.summary.total_count) : null;
      // Facebook leaves `shares` out of a post nobody shared.
      const shares = isObject(fields.shares) ? numberOr(fields.shares.count) : 0;
      return {
        values: valuesFor(facebookCatalogue.post, {
          impressions: lifetime('post_impressions'), reach: lifetime('post_impressions_unique'), likes, comments, shares,
          engagement: (likes ?? 0) + (comments ?? 0) + (shares ?? 0),
        }),
      };
    },
  };
}
