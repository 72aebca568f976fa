/**
 * Pinterest analytics on the simulator (developers.pinterest.com/docs/api/v5: user_account/analytics,
 * pins/analytics): `GET /v5/user_account/analytics?start_date&end_date&metric_types=…` (scope
 * user_accounts:read) and `GET /v5/pins/{pin_id}/analytics?start_date&end_date&metric_types=…
 * &app_types=ALL` (scope pins:read), answered as `{all: {daily_metrics[{date, data_status, metrics}],
 * summary_metrics, lifetime_metrics?}}`. Rules kept: at most 90 days from start to end and no
 * earlier than 90 days ago; today's figures are still PROCESSING (no metrics yet); follower_count
 * and monthly_views of user_account come from the same model.
 */
import type { ServerResponse } from 'node:http';
import { sendJson } from '../kit/http';
import { addDays, daysBetween, dayOf, type AnalyticsModel, type MetricShape } from '../kit/metrics';

export const PINTEREST_DAILY: Record<string, MetricShape> = {
  IMPRESSION: { base: [100, 1500], perPost: 150 }, PIN_CLICK: { base: [5, 80], perPost: 8 }, OUTBOUND_CLICK: { base: [1, 40], perPost: 4 },
  SAVE: { base: [1, 30], perPost: 3 },
};
export const PINTEREST_PIN_DAILY: Record<string, MetricShape> = {
  IMPRESSION: { base: [30, 300] }, PIN_CLICK: { base: [1, 20] }, OUTBOUND_CLICK: { base: [0, 8] }, SAVE: { base: [0, 6] },
};
export const PINTEREST_FOLLOWERS: MetricShape = { base: [50, 4000], perDay: 2, perPost: 2 };
const METRICS = [...Object.keys(PINTEREST_DAILY), 'ENGAGEMENT'];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

interface Pin { pin: Record<string, unknown>; ownerId: string }

export interface PinterestAnalyticsState {
  model: AnalyticsModel;
  pins: () => readonly Pin[];
  invalid(res: ServerResponse, message: string): void;
}

export function createPinterestAnalytics(s: PinterestAnalyticsState) {
  const { model } = s;
  const created = (p: Pin) => new Date(String(p.pin.created_at ?? new Date().toISOString()));
  const times = (ownerId: string) => s.pins().filter((p) => p.ownerId === ownerId).map(created);
  const today = () => dayOf(model.now());
  const api = {
    model,
    /** An account metric on a day (undefined while PROCESSING: today). */
    daily(ownerId: string, metric: string, day: string): number | undefined {
      if (day >= today()) return undefined;
      if (metric === 'ENGAGEMENT') return ['PIN_CLICK', 'OUTBOUND_CLICK', 'SAVE'].reduce((sum, m) => sum + api.daily(ownerId, m, day)!, 0);
      return model.daily(ownerId, metric, PINTEREST_DAILY[metric]!, day, times(ownerId));
    },
    pinDaily(p: Pin, metric: string, day: string): number | undefined {
      if (day >= today() || day < dayOf(created(p))) return day >= today() ? undefined : 0;
      if (metric === 'ENGAGEMENT') return ['PIN_CLICK', 'OUTBOUND_CLICK', 'SAVE'].reduce((sum, m) => sum + api.pinDaily(p, m, day)!, 0);
      return model.draw(`${String(p.pin.id)}:${metric}:${day}`, PINTEREST_PIN_DAILY[metric]!.base[0], PINTEREST_PIN_DAILY[metric]!.base[1]);
    },
    /** user_account.monthly_views: impressions of the last 30 complete days. */
    monthlyViews(ownerId: string): number {
      let sum = 0;
      for (let i = 30; i >= 1; i--) sum += api.daily(ownerId, 'IMPRESSION', addDays(today(), -i)) ?? 0;
      return sum;
    },
    followers: (ownerId: string) => model.level(ownerId, 'follower_count', PINTEREST_FOLLOWERS, model.now(), times(ownerId)),
  };

  function check(res: ServerResponse, q: Record<string, string>): { since: string; until: string; metrics: string[] } | undefined {
    const { start_date: since, end_date: until } = q;
    if (!DATE.test(since ?? '') || !DATE.test(until ?? '') || until! < since!) return void s.invalid(res, 'start_date and end_date are required (YYYY-MM-DD), start_date first.');
    if (daysBetween(since!, until!) > 90) return void s.invalid(res, 'The date range may not exceed 90 days.');
    if (since! < addDays(today(), -90)) return void s.invalid(res, 'start_date cannot be more than 90 days ago.');
    const metrics = (q.metric_types ?? '').split(',').filter(Boolean);
    if (!metrics.length || metrics.some((m) => !METRICS.includes(m))) return void s.invalid(res, `metric_types must be some of ${METRICS.join(', ')}.`);
    return { since: since!, until: until!, metrics };
  }

  function table(since: string, until: string, metrics: string[], value: (metric: string, day: string) => number | undefined) {
    const daily_metrics: unknown[] = [];
    const summary: Record<string, number> = Object.fromEntries(metrics.map((m) => [m, 0]));
    for (let d = since; d <= until; d = addDays(d, 1)) {
      const ready = value(metrics[0]!, d) !== undefined;
      if (!ready) { daily_metrics.push({ date: d, data_status: 'PROCESSING' }); continue; }
      const m = Object.fromEntries(metrics.map((k) => [k, value(k, d)!]));
      for (const k of metrics) summary[k]! += m[k]!;
      daily_metrics.push({ date: d, data_status: 'READY', metrics: m });
    }
    return { daily_metrics, summary_metrics: summary };
  }

  return {
    ...api,
    userAnalytics(res: ServerResponse, ownerId: string, q: Record<string, string>) {
      const c = check(res, q);
      if (!c) return;
      sendJson(res, 200, { all: table(c.since, c.until, c.metrics, (m, d) => api.daily(ownerId, m, d)) });
    },
    pinAnalytics(res: ServerResponse, ownerId: string, pinId: string, q: Record<string, string>) {
      const p = s.pins().find((x) => x.pin.id === pinId && x.ownerId === ownerId);
      if (!p) return sendJson(res, 404, { code: 50, message: 'Pin not found.' });
      const c = check(res, q);
      if (!c) return;
      sendJson(res, 200, { all: table(c.since, c.until, c.metrics, (m, d) => api.pinDaily(p, m, d)) });
    },
  };
}
export type PinterestAnalytics = ReturnType<typeof createPinterestAnalytics>;
