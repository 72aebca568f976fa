/**
 * Instagram insights on the simulator (developers.facebook.com/docs/instagram-platform/api-reference/
 * instagram-user/insights and instagram-media/insights): `GET /{ig-id}/insights` with `metric`,
 * `period=day|lifetime`, `metric_type=time_series|total_value`, `since`/`until` (Unix seconds, at
 * most 30 days apart), `timeframe` and `breakdown` for the demographics, and
 * `GET /{media-id}/insights`. Needs the `instagram_business_manage_insights` permission (error 10
 * otherwise). Rules kept: demographics are empty below 100 followers (follower_demographics) or
 * 100 engaged accounts (engaged_audience_demographics, counted with Meta's 48-hour lag).
 * Every figure comes from the seeded model (ops/simulators/kit/metrics.ts) and the posts held.
 */
import type { ServerResponse } from 'node:http';
import { sendJson } from '../kit/http';
import { addDays, dayOf, type AnalyticsModel, type MetricShape } from '../kit/metrics';
import { audienceOf } from '../kit/demographics';
import type { InstagramAccountFixture, InstagramComment, InstagramMedia } from './model';

export const INSTAGRAM_INSIGHTS_SCOPE = 'instagram_business_manage_insights';

/** Daily account flows: seeded base, plus what each post published by that day adds. */
export const INSTAGRAM_ACCOUNT_SHAPES: Record<string, MetricShape> = {
  reach: { base: [50, 300], perPost: 40 },
  views: { base: [100, 600], perPost: 90 },
  profile_views: { base: [5, 40], perPost: 3 },
  accounts_engaged: { base: [3, 30], perPost: 4 },
  likes: { base: [10, 60], perPost: 8 },
  comments: { base: [1, 10], perPost: 1 },
  shares: { base: [0, 8], perPost: 1 },
  saves: { base: [0, 8], perPost: 1 },
};
/** Followers a post brings (follower_count grows with posts), and the following count. */
export const INSTAGRAM_FOLLOWERS_PER_POST = 2;
export const INSTAGRAM_FOLLOWING_SHAPE: MetricShape = { base: [50, 400] };
/** Per-post daily rates (lifetime value = rate × days since publishing). */
export const INSTAGRAM_POST_SHAPES: Record<string, MetricShape> = {
  reach: { base: [20, 80] }, views: { base: [40, 160] }, likes: { base: [2, 12] }, shares: { base: [0, 3] }, saved: { base: [0, 4] },
};
export const INSTAGRAM_DEMOGRAPHICS_THRESHOLD = 100;
const LAG_DAYS = 2;
const MAX_RANGE_S = 30 * 86400;
const TIMEFRAME_DAYS: Record<string, number> = { this_week: 7, last_14_days: 14, this_month: 30, last_30_days: 30, last_90_days: 90, prev_month: 30 };
const TOTAL_VALUE_ONLY = new Set(['views', 'profile_views', 'accounts_engaged', 'likes', 'comments', 'shares', 'saves', 'total_interactions']);
const DEMOGRAPHICS = new Set(['follower_demographics', 'engaged_audience_demographics']);
const MEDIA_METRICS = new Set(['reach', 'views', 'likes', 'comments', 'shares', 'saved', 'total_interactions']);

export interface InstagramAnalyticsState {
  model: AnalyticsModel;
  media: () => Iterable<InstagramMedia>;
  comments: () => readonly InstagramComment[];
  paramError(res: ServerResponse, message: string, subcode?: number): void;
  permissionDenied(res: ServerResponse): void;
}

export function createInstagramAnalytics(s: InstagramAnalyticsState) {
  const { model } = s;
  const postTimes = (ownerId: string) => [...s.media()].filter((m) => m.ownerId === ownerId).map((m) => new Date(m.timestamp.replace('+0000', 'Z')));
  const daily = (owner: InstagramAccountFixture, metric: string, day: string): number => {
    const posts = postTimes(owner.id);
    if (metric === 'total_interactions') return ['likes', 'comments', 'shares', 'saves'].reduce((sum, m) => sum + daily(owner, m, day), 0);
    return model.daily(owner.id, metric, INSTAGRAM_ACCOUNT_SHAPES[metric]!, day, posts);
  };

  const api = {
    /** follower_count as /me answers it: the fixture's count plus what the posts brought. */
    followers(owner: InstagramAccountFixture): number {
      return owner.followersCount + INSTAGRAM_FOLLOWERS_PER_POST * postTimes(owner.id).length;
    },
    following: (owner: InstagramAccountFixture): number => model.level(owner.id, 'follows_count', INSTAGRAM_FOLLOWING_SHAPE, model.now(), []),
    /** A metric's daily values over [since, until] (UTC days, inclusive). */
    daily,
    total(owner: InstagramAccountFixture, metric: string, since: string, until: string): number {
      let sum = 0;
      for (let d = since; d <= until; d = addDays(d, 1)) sum += daily(owner, metric, d);
      return sum;
    },
    /** Engaged accounts Meta can break down: the last `days` days, without the 48 lagging hours. */
    engagedAccounts(owner: InstagramAccountFixture, days: number): number {
      const until = addDays(dayOf(model.now()), -LAG_DAYS);
      return api.total(owner, 'accounts_engaged', addDays(until, -(days - 1)), until);
    },
    demographics(owner: InstagramAccountFixture, metric: 'follower_demographics' | 'engaged_audience_demographics', timeframe = 'this_month') {
      const total = metric === 'follower_demographics' ? api.followers(owner) : api.engagedAccounts(owner, TIMEFRAME_DAYS[timeframe] ?? 30);
      return total < INSTAGRAM_DEMOGRAPHICS_THRESHOLD ? undefined : audienceOf(model, `${owner.id}:${metric}:${timeframe}`, total);
    },
    /** A media's lifetime insights now. */
    mediaInsights(m: InstagramMedia): Record<string, number> {
      const at = new Date(m.timestamp.replace('+0000', 'Z'));
      const v = Object.fromEntries(Object.entries(INSTAGRAM_POST_SHAPES).map(([name, shape]) => [name, model.post(m.id, name, shape, at)]));
      v.comments = s.comments().filter((c) => c.mediaId === m.id).length;
      v.total_interactions = v.likes! + v.comments + v.shares! + v.saved!;
      return v;
    },
  };

  const metricsOf = (p: Record<string, string>) => (p.metric ?? '').split(',').map((x) => x.trim()).filter(Boolean);
  const entry = (owner: string, name: string, period: string, body: Record<string, unknown>) =>
    ({ name, period, ...body, title: name.replace(/_/g, ' '), description: `The ${name.replace(/_/g, ' ')}.`, id: `${owner}/insights/${name}/${period}` });

  function accountInsights(res: ServerResponse, owner: InstagramAccountFixture, p: Record<string, string>) {
    const metrics = metricsOf(p);
    if (!metrics.length) return s.paramError(res, 'The parameter metric is required.');
    const known = new Set([...Object.keys(INSTAGRAM_ACCOUNT_SHAPES), 'total_interactions', ...DEMOGRAPHICS]);
    const unknown = metrics.find((m) => !known.has(m));
    if (unknown) return s.paramError(res, `metric[0] must be one of the following values: ${[...known].join(', ')}`);
    const period = p.period ?? '';
    if (metrics.some((m) => DEMOGRAPHICS.has(m))) {
      if (metrics.some((m) => !DEMOGRAPHICS.has(m))) return s.paramError(res, 'Demographic metrics cannot be requested with other metrics.');
      if (period !== 'lifetime') return s.paramError(res, 'Demographic metrics only support the lifetime period.');
      if (p.metric_type !== 'total_value') return s.paramError(res, 'Demographic metrics only support metric_type total_value.');
      const breakdown = p.breakdown ?? '';
      if (!['age', 'gender', 'country', 'city'].includes(breakdown)) return s.paramError(res, 'breakdown must be one of age, gender, country, city.');
      const timeframe = p.timeframe ?? '';
      if (!TIMEFRAME_DAYS[timeframe]) return s.paramError(res, `timeframe must be one of ${Object.keys(TIMEFRAME_DAYS).join(', ')}.`);
      const data = metrics.flatMap((metric) => {
        const audience = api.demographics(owner, metric as 'follower_demographics', timeframe);
        // Below the threshold Meta returns no data for the metric.
        if (!audience) return [];
        const split = audience[breakdown as keyof typeof audience];
        return [entry(owner.id, metric, 'lifetime', {
          total_value: { breakdowns: [{ dimension_keys: [breakdown], results: Object.entries(split).map(([k, value]) => ({ dimension_values: [k], value })) }] },
        })];
      });
      return sendJson(res, 200, { data });
    }
    if (period !== 'day') return s.paramError(res, 'period must be day for these metrics.');
    const since = Number(p.since);
    const until = Number(p.until);
    if (!Number.isInteger(since) || !Number.isInteger(until) || until <= since) return s.paramError(res, 'since and until must be Unix timestamps with since before until.');
    if (until - since > MAX_RANGE_S) return s.paramError(res, 'There cannot be more than 30 days (2592000 s) between since and until');
    const first = dayOf(new Date(since * 1000));
    const last = dayOf(new Date(until * 1000 - 1000));
    const metricType = p.metric_type ?? 'time_series';
    if (metricType !== 'time_series' && metricType !== 'total_value') return s.paramError(res, 'metric_type must be time_series or total_value.');
    if (metricType === 'time_series' && metrics.some((m) => TOTAL_VALUE_ONLY.has(m))) {
      return s.paramError(res, `The following metrics (${metrics.filter((m) => TOTAL_VALUE_ONLY.has(m)).join(', ')}) should be specified with parameter metric_type=total_value`);
    }
    const data = metrics.map((metric) => {
      if (metricType === 'total_value') return entry(owner.id, metric, 'day', { total_value: { value: api.total(owner, metric, first, last) } });
      const values: Array<{ value: number; end_time: string }> = [];
      for (let d = first; d <= last; d = addDays(d, 1)) values.push({ value: daily(owner, metric, d), end_time: `${addDays(d, 1)}T00:00:00+0000` });
      return entry(owner.id, metric, 'day', { values });
    });
    return sendJson(res, 200, { data, paging: { previous: '', next: '' } });
  }

  function mediaInsights(res: ServerResponse, m: InstagramMedia, p: Record<string, string>) {
    const metrics = metricsOf(p);
    if (!metrics.length) return s.paramError(res, 'The parameter metric is required.');
    const bad = metrics.find((x) => !MEDIA_METRICS.has(x));
    if (bad) return s.paramError(res, `metric[0] must be one of the following values: ${[...MEDIA_METRICS].join(', ')}`);
    const v = api.mediaInsights(m);
    sendJson(res, 200, { data: metrics.map((name) => entry(m.id, name, 'lifetime', { values: [{ value: v[name] }] })) });
  }

  return {
    ...api,
    model,
    /** `GET /{node}/insights`; false when the path is not an insights read. */
    route(res: ServerResponse, owner: InstagramAccountFixture, scopes: readonly string[], node: string, p: Record<string, string>, media: InstagramMedia | undefined): boolean {
      if (!scopes.includes(INSTAGRAM_INSIGHTS_SCOPE)) { s.permissionDenied(res); return true; }
      if (node === 'me' || node === owner.id) { accountInsights(res, owner, p); return true; }
      if (media && media.ownerId === owner.id) { mediaInsights(res, media, p); return true; }
      return false;
    },
  };
}
export type InstagramAnalytics = ReturnType<typeof createInstagramAnalytics>;
