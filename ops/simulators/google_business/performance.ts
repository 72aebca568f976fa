/**
 * The Business Profile Performance API on the simulator
 * (developers.google.com/my-business/reference/performance/rest/v1/locations/fetchMultiDailyMetricsTimeSeries):
 * `GET /v1/locations/{id}:fetchMultiDailyMetricsTimeSeries?dailyMetrics=…(repeated)&dailyRange.start_date.year=…`
 * (snake or camel case sub-fields), scope business.manage, the caller managing the location.
 * Answers `{multiDailyMetricTimeSeries:[{dailyMetricTimeSeries:[{dailyMetric, timeSeries:{datedValues:
 * [{date:{year,month,day}, value}]}}]}]}` with one dated value per day of the range and `value` (an
 * int64 string) left out when it is 0. Rules kept: every metric a known DailyMetric, a range of
 * real dates with start before end, starting at most 18 months back; the day in progress is not
 * counted yet (a day of lag). Figures come from the seeded model and the location's local posts.
 */
import type { ServerResponse } from 'node:http';
import { sendJson, type SimRequest } from '../kit/http';
import { addDays, dayOf, type AnalyticsModel, type MetricShape } from '../kit/metrics';

/** Daily location flows: seeded base, plus what each local post published by that day adds. */
export const GBP_DAILY_SHAPES: Record<string, MetricShape> = {
  BUSINESS_IMPRESSIONS_DESKTOP_MAPS: { base: [10, 80], perPost: 4 },
  BUSINESS_IMPRESSIONS_DESKTOP_SEARCH: { base: [20, 150], perPost: 8 },
  BUSINESS_IMPRESSIONS_MOBILE_MAPS: { base: [30, 200], perPost: 10 },
  BUSINESS_IMPRESSIONS_MOBILE_SEARCH: { base: [40, 300], perPost: 15 },
  CALL_CLICKS: { base: [0, 12], perPost: 1 },
  WEBSITE_CLICKS: { base: [1, 25], perPost: 2 },
  BUSINESS_DIRECTION_REQUESTS: { base: [0, 20], perPost: 1 },
  BUSINESS_CONVERSATIONS: { base: [0, 5] },
  BUSINESS_BOOKINGS: { base: [0, 3] },
  BUSINESS_FOOD_ORDERS: { base: [0, 2] },
  BUSINESS_FOOD_MENU_CLICKS: { base: [0, 4] },
};
const MAX_MONTHS_BACK = 18;

export interface PerformanceState {
  model: AnalyticsModel;
  /** Creation times of the location's local posts. */
  postTimes(locationId: string): Date[];
  apiError(res: ServerResponse, code: number, message: string, opts?: { field?: string }): void;
}

export function createGoogleBusinessPerformance(s: PerformanceState) {
  const { model } = s;
  const api = {
    model,
    /** A daily metric of a location on a UTC day; 0 for the day in progress and days to come (not counted yet). */
    daily(locationId: string, metric: string, day: string): number {
      if (day >= dayOf(model.now())) return 0;
      return model.daily(locationId, metric, GBP_DAILY_SHAPES[metric]!, day, s.postTimes(locationId));
    },
    total(locationId: string, metric: string, since: string, until: string): number {
      let sum = 0;
      for (let d = since; d <= until; d = addDays(d, 1)) sum += api.daily(locationId, metric, d);
      return sum;
    },
  };

  /** `dailyRange.<edge>.{year,month,day}` as a YYYY-MM-DD day, undefined when absent or not a real date. */
  function dayParam(req: SimRequest, edge: 'start' | 'end'): string | undefined {
    const get = (part: string) => req.url.searchParams.get(`dailyRange.${edge}_date.${part}`) ?? req.url.searchParams.get(`dailyRange.${edge}Date.${part}`);
    const [y, m, d] = ['year', 'month', 'day'].map((p) => Number(get(p) ?? NaN));
    if (![y, m, d].every((n) => Number.isInteger(n))) return undefined;
    const at = new Date(Date.UTC(y!, m! - 1, d!));
    return at.getUTCFullYear() === y && at.getUTCMonth() === m! - 1 && at.getUTCDate() === d ? dayOf(at) : undefined;
  }

  return {
    ...api,
    /** `GET /v1/locations/{id}:fetchMultiDailyMetricsTimeSeries` for a location the caller manages. */
    fetchMulti(req: SimRequest, res: ServerResponse, locationId: string): void {
      const metrics = req.url.searchParams.getAll('dailyMetrics');
      if (!metrics.length) return s.apiError(res, 400, 'Request contains an invalid argument.', { field: 'daily_metrics' });
      const unknown = metrics.find((m) => !GBP_DAILY_SHAPES[m]);
      if (unknown) return s.apiError(res, 400, `Invalid value at 'daily_metrics' (type.googleapis.com/google.businessprofileperformance.v1.DailyMetric), "${unknown}"`, { field: 'daily_metrics' });
      const since = dayParam(req, 'start');
      const until = dayParam(req, 'end');
      if (!since || !until) return s.apiError(res, 400, 'daily_range must have a valid start_date and end_date.', { field: 'daily_range' });
      if (until < since) return s.apiError(res, 400, 'daily_range.end_date must not be before daily_range.start_date.', { field: 'daily_range' });
      const now = model.now();
      const earliest = dayOf(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - MAX_MONTHS_BACK, now.getUTCDate())));
      if (since < earliest) return s.apiError(res, 400, `daily_range.start_date must be at most ${MAX_MONTHS_BACK} months ago.`, { field: 'daily_range' });
      const dailyMetricTimeSeries = metrics.map((dailyMetric) => {
        const datedValues: Array<Record<string, unknown>> = [];
        for (let d = since; d <= until; d = addDays(d, 1)) {
          const [year, month, day] = d.split('-').map(Number);
          const value = api.daily(locationId, dailyMetric, d);
          datedValues.push({ date: { year, month, day }, ...(value ? { value: String(value) } : {}) });
        }
        return { dailyMetric, timeSeries: { datedValues } };
      });
      sendJson(res, 200, { multiDailyMetricTimeSeries: [{ dailyMetricTimeSeries }] });
    },
  };
}
export type GoogleBusinessPerformance = ReturnType<typeof createGoogleBusinessPerformance>;
