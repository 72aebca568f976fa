import type Router from '@koa/router';
import type { ResultCache } from '../../../core/ports/cache';
import type { SuggestionType } from '../../../core/ports/platform';
import {
  audienceInsights, platformMetrics, profileAnalytics, suggestions, type AnalyticsDeps,
} from '../../../core/usecases/analytics';
import { single } from '../input';
import type { ApiDeps, AppState } from '../deps';
import { mount } from '../catalogue/mount';
import * as ops from '../catalogue/analytics';

/** Live analytics: its cache and how long answers are reused. */
export interface AnalyticsApi {
  cache?: ResultCache;
  cacheTtlMs: number;
}

const text = (v: unknown): string | undefined => {
  const s = single(v);
  return typeof s === 'string' && s.trim() !== '' ? s.trim() : undefined;
};

/**
 * GET /analytics/{profile_username} (at the API root, no namespace segment, same API key),
 * GET /{ns}/platform-metrics, GET /{ns}/audience and GET /{ns}/suggestions.
 */
export function analyticsRoutes(router: Router<AppState>, deps: ApiDeps, ns: string): void {
  const analytics: AnalyticsDeps = { ...deps, cache: deps.analytics?.cache, cacheTtlMs: deps.analytics?.cacheTtlMs ?? 0 };

  mount(router, ops.getProfileAnalytics, ns, async (ctx) => {
    const q = ctx.query as Record<string, unknown>;
    // Every parameter as one text value: the networks' descriptors say which they read (days, page_id, page_urn, …).
    const values = Object.fromEntries(Object.entries(q).map(([name, value]) => [name, text(value)]));
    ctx.body = await profileAnalytics(analytics, ctx.state.caller.account, ctx.params.username!, { ...values, platforms: q.platforms ?? q.platform });
  });

  mount(router, ops.getPlatformMetrics, ns, (ctx) => {
    ctx.body = { success: true, ...platformMetrics(analytics) };
  });

  mount(router, ops.getAudience, ns, async (ctx, { query: q }) => {
    const username = q.profile_username;
    const platform = q.platform;
    const days = q.days ?? 30;
    const benchmarkCategory = q.benchmark_category?.trim() || undefined;
    const insights = await audienceInsights(analytics, ctx.state.caller.account, username, platform, { days, ...(benchmarkCategory ? { benchmarkCategory } : {}) });
    ctx.body = { success: true, profile_username: username, platform, ...insights };
  });

  mount(router, ops.getSuggestions, ns, async (ctx, { query: q }) => {
    const { profile_username: username, platform, type, keyword, limit } = q;
    const found = await suggestions(analytics, ctx.state.caller.account, username, platform, {
      type: type as SuggestionType, keyword, ...(limit ? { limit } : {}),
    });
    const { type: _type, ...rest } = found;
    ctx.body = { success: true, profile_username: username, platform, type, ...rest };
  });
}
