/**
 * Google Business Profile analytics through the Business Profile Performance API
 * (developers.google.com/my-business/reference/performance/rest/v1/locations/fetchMultiDailyMetricsTimeSeries),
 * scope business.manage: `GET /v1/locations/{id}:fetchMultiDailyMetricsTimeSeries?dailyMetrics=…
 * (repeated)&dailyRange.start_date.year=…&…end_date.day=` answers
 * `multiDailyMetricTimeSeries[].dailyMetricTimeSeries[]{dailyMetric, timeSeries.datedValues[{date, value}]}`,
 * `value` an int64 string left out on days with nothing (and on days Google has not counted yet).
 * The spec names no Google Business fields: impressions is the sum of the four profile-impression
 * metrics (Search and Maps, desktop and mobile), the customer actions keep their own names (an
 * extension) and engagement is their sum. The Performance API has no per-post metrics (local post
 * insights went with the v4 reportInsights): `post` refuses as unsupported.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { AccountMetrics, Analytics, CallContext, MetricCatalogue, TimePoint } from '../../../core/ports/platform';
import { isObject, type Json } from '../kit/http';
import { addDays, metricList, numberOr, sumSeries, valuesFor, windowOf } from '../kit/analytics';
import type { GoogleBusinessClient } from './client';
import { resolveLocation } from './locations';

const IMPRESSIONS = [
  'BUSINESS_IMPRESSIONS_DESKTOP_MAPS', 'BUSINESS_IMPRESSIONS_DESKTOP_SEARCH', 'BUSINESS_IMPRESSIONS_MOBILE_MAPS', 'BUSINESS_IMPRESSIONS_MOBILE_SEARCH',
] as const;
/** Customer actions → the metric name Herald answers. */
const ACTIONS = {
  WEBSITE_CLICKS: 'website_clicks', CALL_CLICKS: 'call_clicks', BUSINESS_DIRECTION_REQUESTS: 'direction_requests',
  BUSINESS_CONVERSATIONS: 'conversations', BUSINESS_BOOKINGS: 'bookings',
} as const;
/** The daily metrics read, in one call. */
export const GBP_DAILY_METRICS: readonly string[] = [...IMPRESSIONS, ...Object.keys(ACTIONS)];

export const googleBusinessCatalogue: MetricCatalogue = {
  metricType: 'impressions',
  primaryImpressionsField: 'impressions',
  postPrimaryImpressionsField: 'impressions',
  account: metricList([
    ['impressions', 'Profile impressions (Search and Maps, desktop and mobile)'], ['website_clicks', 'Website clicks'], ['call_clicks', 'Call clicks'],
    ['direction_requests', 'Direction requests'], ['conversations', 'Message conversations'], ['bookings', 'Bookings'],
    ['engagement', 'Customer actions (website, calls, directions, messages, bookings)'],
  ]),
  post: [],
};

const pad = (n: number) => String(n).padStart(2, '0');
/** `{year, month, day}` → YYYY-MM-DD. */
const dateOf = (d: unknown): string | undefined =>
  (isObject(d) && [d.year, d.month, d.day].every((n) => typeof n === 'number') ? `${d.year as number}-${pad(d.month as number)}-${pad(d.day as number)}` : undefined);

/** Every `dailyMetricTimeSeries` entry of the answer, by daily metric: day → value. */
function seriesByMetric(client: GoogleBusinessClient, body: Json): Map<string, Map<string, number>> {
  const outer = body.multiDailyMetricTimeSeries;
  if (outer !== undefined && !Array.isArray(outer)) throw client.failure({ kind: 'malformed', status: 200, what: 'multiDailyMetricTimeSeries' });
  const out = new Map<string, Map<string, number>>();
  for (const group of (Array.isArray(outer) ? outer : []).filter(isObject)) {
    for (const entry of (Array.isArray(group.dailyMetricTimeSeries) ? group.dailyMetricTimeSeries : []).filter(isObject)) {
      const metric = typeof entry.dailyMetric === 'string' ? entry.dailyMetric : undefined;
      const values = isObject(entry.timeSeries) && Array.isArray(entry.timeSeries.datedValues) ? entry.timeSeries.datedValues.filter(isObject) : [];
      if (!metric) continue;
      const days = out.get(metric) ?? new Map<string, number>();
      for (const v of values) {
        const day = dateOf(v.date);
        // Google leaves `value` out of a day with nothing to count.
        if (day) days.set(day, (days.get(day) ?? 0) + (numberOr(v.value) ?? 0));
      }
      out.set(metric, days);
    }
  }
  return out;
}

/** The location asked for (`locations/{id}`, `accounts/{a}/locations/{id}` or the id), else the connection's only one. */
async function locationOf(client: GoogleBusinessClient, ctx: CallContext, requested: string | undefined): Promise<string> {
  const id = requested?.trim().split('/').at(-1);
  if (id) return id;
  return (await resolveLocation(client, ctx, undefined, new Map())).locationId;
}

export function createGoogleBusinessAnalytics(client: GoogleBusinessClient): Analytics {
  return {
    catalogue: googleBusinessCatalogue,
    async account(ctx, input): Promise<AccountMetrics> {
      const token = client.tokenOf(ctx);
      const locationId = await locationOf(client, ctx, input.target);
      const w = windowOf(input);
      const range = (edge: 'start_date' | 'end_date', day: string) => {
        const [year, month, date] = day.split('-').map(Number);
        return `dailyRange.${edge}.year=${year}&dailyRange.${edge}.month=${month}&dailyRange.${edge}.day=${date}`;
      };
      const query = [...GBP_DAILY_METRICS.map((m) => `dailyMetrics=${m}`), range('start_date', w.since), range('end_date', w.until)].join('&');
      const body = await client.call(token, 'GET', client.performance(`locations/${encodeURIComponent(locationId)}:fetchMultiDailyMetricsTimeSeries?${query}`), undefined, ctx.signal);
      const byMetric = seriesByMetric(client, body);
      const series = (metrics: readonly string[]): TimePoint[] => {
        const out: TimePoint[] = [];
        for (let d = w.since; d <= w.until; d = addDays(d, 1)) out.push({ date: d, value: metrics.reduce((s, m) => s + (byMetric.get(m)?.get(d) ?? 0), 0) });
        return out;
      };
      const impressions = series(IMPRESSIONS);
      const actions = Object.fromEntries(Object.entries(ACTIONS).map(([metric, name]) => [name, sumSeries(series([metric]))]));
      return {
        values: valuesFor(googleBusinessCatalogue.account, {
          impressions: sumSeries(impressions), ...actions, engagement: Object.values(actions).reduce((s, v) => s + v, 0),
        }),
        impressionsTimeseries: impressions,
      };
    },
    post() {
      return Promise.reject(new PlatformError('google_business', { kind: 'unsupported' },
        'Google Business Profile has no per-post metrics: its Performance API reports a location\'s daily metrics only.'));
    },
  };
}
