import type Router from '@koa/router';
import { invalidInput } from '../../../core/domain/errors';
import { isPlatform, type Platform } from '../../../core/domain/platforms';
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

function profileOf(query: Record<string, unknown>): string {
  const username = text(query.profile_username) ?? text(query.user) ?? text(query.profile);
  if (!username) throw invalidInput('profile_username is required.', { violations: [{ field: 'profile_username', message: 'required' }] });
  return username;
}

/** `platform` of audience and suggestions: tiktok unless another network is named. */
function platformOf(query: Record<string, unknown>): Platform {
  const raw = (text(query.platform) ?? 'tiktok').toLowerCase();
  if (!isPlatform(raw)) throw invalidInput(`platform "${raw}" is not a platform.`, { violations: [{ field: 'platform', message: 'unknown platform' }] });
  return raw;
}

function daysOf(query: Record<string, unknown>, fallback: number, max: number): number {
  const raw = text(query.days);
  if (raw === undefined) return fallback;
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > max) throw invalidInput(`days must be a whole number from 1 to ${max}.`, { violations: [{ field: 'days', message: 'out of range' }] });
  return n;
}

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

  mount(router, ops.getAudience, ns, async (ctx) => {
    const q = ctx.query as Record<string, unknown>;
    const username = profileOf(q);
    const platform = platformOf(q);
    const days = daysOf(q, 30, 60);
    const benchmarkCategory = text(q.benchmark_category);
    const insights = await audienceInsights(analytics, ctx.state.caller.account, username, platform, { days, ...(benchmarkCategory ? { benchmarkCategory } : {}) });
    ctx.body = { success: true, profile_username: username, platform, ...insights };
  });

  mount(router, ops.getSuggestions, ns, async (ctx) => {
    const q = ctx.query as Record<string, unknown>;
    const username = profileOf(q);
    const platform = platformOf(q);
    const type = text(q.type) ?? 'hashtags';
    if (type !== 'hashtags' && type !== 'keywords') throw invalidInput('type must be hashtags or keywords.', { violations: [{ field: 'type', message: 'hashtags or keywords' }] });
    const keyword = text(q.keyword) ?? text(q.query);
    if (!keyword) throw invalidInput('keyword is required: the word or topic to find suggestions for.', { violations: [{ field: 'keyword', message: 'required' }] });
    const limitRaw = text(q.limit);
    const limit = limitRaw === undefined ? undefined : Number(limitRaw);
    if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 50)) throw invalidInput('limit must be a whole number from 1 to 50.', { violations: [{ field: 'limit', message: 'out of range' }] });
    const found = await suggestions(analytics, ctx.state.caller.account, username, platform, {
      type: type as SuggestionType, ...(keyword ? { keyword } : {}), ...(limit ? { limit } : {}),
    });
    const { type: _type, ...rest } = found;
    ctx.body = { success: true, profile_username: username, platform, type, ...rest };
  });
}
