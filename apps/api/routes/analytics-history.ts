import type Router from '@koa/router';
import { invalidInput } from '../../../core/domain/errors';
import {
  cachedPostAnalytics, livePostAnalytics, postAnalyticsByRequest, totalImpressions, type AnalyticsReadDeps,
} from '../../../core/usecases/analytics-history';
import { checkId } from '../ids';
import { mount } from '../catalogue';
import * as ops from '../catalogue/analytics-history';
import { single } from '../input';
import type { ApiDeps, AppState } from '../deps';

/** What the analytics history routes need beyond ApiDeps (apps/shared/analytics.ts builds it). */
export type AnalyticsHistoryApi = Pick<AnalyticsReadDeps, 'snapshots' | 'captures' | 'cache' | 'liveLimiter' | 'cacheMs' | 'captureRetentionMs' | 'snapshotLookbackDays'>;

/** One query parameter as text (the last of repeated ones); absent or empty → undefined. */
function text(query: Record<string, unknown>, name: string): string | undefined {
  const v = single(query[name]);
  if (v === undefined || v === '') return undefined;
  if (typeof v !== 'string') throw invalidInput(`${name} must be text.`, { field: name });
  return v;
}

function bool(query: Record<string, unknown>, name: string): boolean {
  const v = text(query, name);
  return v === undefined ? false : ops.flagOf(name, v);
}

/**
 * The stored analytics history and post metrics: `GET /total-impressions/{profile_username}`,
 * `GET /post-analytics/cached`, `GET /post-analytics` (live) and `GET /post-analytics/{request_id}`.
 * `cached` is registered before `{request_id}` so it is never read as a request id.
 */
export function analyticsHistoryRoutes(router: Router<AppState>, deps: ApiDeps & { analyticsHistory: AnalyticsHistoryApi }, ns: string): void {
  const reads: AnalyticsReadDeps = { ...deps, ...deps.analyticsHistory };

  mount(router, ops.getTotalImpressions, ns, async (ctx) => {
    const q = ctx.query as Record<string, unknown>;
    const query = {
      ...optional('date', text(q, 'date')), ...optional('start_date', text(q, 'start_date')), ...optional('end_date', text(q, 'end_date')),
      ...optional('period', text(q, 'period')), ...optional('platform', text(q, 'platform')), ...optional('metrics', text(q, 'metrics')),
      breakdown: bool(q, 'breakdown'),
    };
    ctx.body = { success: true, ...(await totalImpressions(reads, ctx.state.caller.account, ctx.params.username!, query)) };
  });

  mount(router, ops.listCachedPostAnalytics, ns, async (ctx) => {
    const q = ctx.query as Record<string, unknown>;
    const query = {
      ...optional('platform', text(q, 'platform')), ...optional('since', text(q, 'since')), ...optional('until', text(q, 'until')),
      ...optional('cursor', text(q, 'cursor')), ...optional('limit', text(q, 'limit')),
    };
    ctx.body = { success: true, ...(await cachedPostAnalytics(reads, ctx.state.caller.account, query)) };
  });

  mount(router, ops.getLivePostAnalytics, ns, async (ctx) => {
    const q = ctx.query as Record<string, unknown>;
    const query = { ...optional('platform_post_id', text(q, 'platform_post_id')), ...optional('platform', text(q, 'platform')), ...optional('user', text(q, 'user')) };
    ctx.body = { success: true, ...(await livePostAnalytics(reads, ctx.state.caller.account, query)) };
  });

  mount(router, ops.getPostAnalyticsByRequest, ns, async (ctx) => {
    checkId('request_id', ctx.params.request_id);
    ctx.body = { success: true, ...(await postAnalyticsByRequest(reads, ctx.state.caller.account, ctx.params.request_id!, text(ctx.query as Record<string, unknown>, 'platform'))) };
  });
}

const optional = <K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> => (value === undefined ? {} : { [key]: value } as Record<K, string>);
