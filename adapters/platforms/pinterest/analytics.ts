/**
 * Pinterest analytics (developers.pinterest.com/docs/api/v5): `GET /user_account` (follower_count,
 * following_count, pin_count), `GET /user_account/analytics?start_date&end_date&metric_types=
 * IMPRESSION,PIN_CLICK,OUTBOUND_CLICK,SAVE,ENGAGEMENT` (scope user_accounts:read) for the window, and
 * `GET /pins/{id}` then `GET /pins/{id}/analytics` from the pin's creation day (at most 90 days back,
 * Pinterest's limit) to today, app_types=ALL (scope pins:read). Days still PROCESSING carry no
 * metrics and count for nothing.
 */
import type { AccountMetrics, Analytics, MetricCatalogue, TimePoint } from '../../../core/ports/platform';
import { isObject, type Json } from '../kit/http';
import { addDays, dayOf, metricList, numberOr, valuesFor, windowOf } from '../kit/analytics';
import type { PinterestClient } from './client';

const METRICS = 'IMPRESSION,PIN_CLICK,OUTBOUND_CLICK,SAVE,ENGAGEMENT';
const MAX_BACK_DAYS = 89;

export const pinterestCatalogue: MetricCatalogue = {
  metricType: 'impressions',
  primaryImpressionsField: 'impressions',
  postPrimaryImpressionsField: 'impressions',
  account: metricList([
    ['followers', 'Followers'], ['following', 'Following'], ['posts_count', 'Pins'], ['impressions', 'Impressions'], ['pin_clicks', 'Pin clicks'],
    ['outbound_clicks', 'Outbound clicks'], ['saves', 'Saves'], ['engagement', 'Engagements'],
  ]),
  post: metricList([
    ['impressions', 'Impressions'], ['pin_clicks', 'Pin clicks'], ['outbound_clicks', 'Outbound clicks'], ['saves', 'Saves'], ['engagement', 'Engagements'],
  ]),
};

const has = (key: string) => ({ what: `the ${key}`, has: (b: Json) => b[key] !== undefined });
const summaryOf = (body: Json) => (isObject(body.all) && isObject(body.all.summary_metrics) ? body.all.summary_metrics : {});
const impressionsOf = (body: Json): TimePoint[] => (isObject(body.all) && Array.isArray(body.all.daily_metrics) ? body.all.daily_metrics.filter(isObject) : [])
  .filter((d) => d.data_status === 'READY' && isObject(d.metrics))
  .map((d) => ({ date: String(d.date), value: numberOr((d.metrics as Json).IMPRESSION) ?? 0 }));

export function createPinterestAnalytics(client: PinterestClient): Analytics {
  return {
    catalogue: pinterestCatalogue,
    async account(ctx, input): Promise<AccountMetrics> {
      const token = { token: client.accessToken(ctx.credentials) };
      const user = await client.call('GET', '/user_account', token, undefined, has('username'), ctx.signal);
      const w = windowOf(input);
      const earliest = addDays(dayOf(client.now()), -MAX_BACK_DAYS);
      const since = w.since < earliest ? earliest : w.since;
      const body = await client.call('GET', `/user_account/analytics?${new URLSearchParams({ start_date: since, end_date: w.until, metric_types: METRICS })}`,
        token, undefined, has('all'), ctx.signal);
      const sum = summaryOf(body);
      return {
        values: valuesFor(pinterestCatalogue.account, {
          followers: numberOr(user.follower_count), following: numberOr(user.following_count), posts_count: numberOr(user.pin_count),
          impressions: numberOr(sum.IMPRESSION), pin_clicks: numberOr(sum.PIN_CLICK), outbound_clicks: numberOr(sum.OUTBOUND_CLICK),
          saves: numberOr(sum.SAVE), engagement: numberOr(sum.ENGAGEMENT),
        }),
        impressionsTimeseries: impressionsOf(body),
      };
    },
    async post(ctx, { post }) {
      const token = { token: client.accessToken(ctx.credentials) };
      const id = encodeURIComponent(post.id);
      const pin = await client.call('GET', `/pins/${id}`, token, undefined, has('id'), ctx.signal);
      const today = dayOf(client.now());
      const earliest = addDays(today, -MAX_BACK_DAYS);
      const created = typeof pin.created_at === 'string' ? dayOf(new Date(pin.created_at)) : earliest;
      const body = await client.call('GET', `/pins/${id}/analytics?${new URLSearchParams({
        start_date: created < earliest ? earliest : created, end_date: today, metric_types: METRICS, app_types: 'ALL',
      })}`, token, undefined, has('all'), ctx.signal);
      const sum = summaryOf(body);
      return {
        values: valuesFor(pinterestCatalogue.post, {
          impressions: numberOr(sum.IMPRESSION), pin_clicks: numberOr(sum.PIN_CLICK), outbound_clicks: numberOr(sum.OUTBOUND_CLICK),
          saves: numberOr(sum.SAVE), engagement: numberOr(sum.ENGAGEMENT),
        }),
      };
    },
  };
}
