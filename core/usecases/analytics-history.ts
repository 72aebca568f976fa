/**
 * Reads of the stored analytics history and of per-post metrics: `GET /total-impressions`,
 * `GET /post-analytics/{request_id}`, the live `GET /post-analytics` (rate limited, cached a short
 * time, every fetch recorded) and `GET /post-analytics/cached` (the recorded fetches).
 */
import {
  dayOf, decodeCapturesCursor, encodeCapturesCursor, impressionsMetricsOf, parseMetrics, parsePlatformFilter, resolveRange, type AnalyticsSnapshot, type RangeQuery,
} from '../domain/analytics-history';
import { computeTotals, seriesNeeded, type Totals } from '../domain/analytics-series';
import { HeraldError, invalidInput, notFound, PlatformError, redditUnavailable } from '../domain/errors';
import type { OperatorAccount } from '../domain/operator';
import { isPlatform, PLATFORMS, type Platform } from '../domain/platforms';
import type { PlatformRegistry, PostRef } from '../ports/platform';
import type { ResultCache } from '../ports/cache';
import type { RequestRateLimiter } from '../ports/rate-limit';
import type { Storage } from '../ports/storage';
import type { AnalyticsSnapshotRepository, PostMetricsCaptureRepository } from '../ports/storage/analytics-history';
import type { ConnectionSessionDeps } from './connection-session';
import { catalogueView, livePostMetrics, postMetricsView } from './analytics';
import { requireProfile } from './profiles';
import { postRefOfResult } from './post-operations';

export interface AnalyticsReadDeps extends ConnectionSessionDeps {
  storage: Pick<Storage, 'connectedAccounts' | 'profiles' | 'uploads'> & Partial<Pick<Storage, 'operators'>>;
  snapshots: AnalyticsSnapshotRepository;
  captures: PostMetricsCaptureRepository;
  /** Live post metrics, reused for `cacheMs` (Redis: shared by the API processes). */
  cache: ResultCache;
  /** The live endpoint's limit per operator account (the spec: 100 requests per 5 minutes). */
  liveLimiter: RequestRateLimiter;
  /** How long a live fetch is served from the cache. */
  cacheMs: number;
  /** How long a recorded fetch stays listed by the cached endpoint. */
  captureRetentionMs: number;
  /** How far back `profile_snapshot_*` look for a snapshot. */
  snapshotLookbackDays: number;
}

/** The networks the live endpoint serves: those whose descriptor says so (`analytics.livePostMetrics`; reddit: 503). */
export const livePostPlatforms = (platforms: PlatformRegistry): Platform[] =>
  PLATFORMS.filter((p) => platforms.get(p)?.descriptor.analytics?.livePostMetrics === true);
export const CACHED_PAGE_MAX = 200;

export interface TotalImpressionsQuery extends RangeQuery {
  platform?: string;
  breakdown?: boolean;
  metrics?: string;
}

export interface TotalImpressionsView extends Totals {
  profile_username: string;
  start_date: string;
  end_date: string;
  platforms_filter: Platform[] | null;
}

/**
 * Sums the profile's stored daily figures over the range (core/domain/analytics-series.ts): the
 * series it needs, per network and year, read while the profile is checked.
 */
export async function totalImpressions(
  deps: Pick<AnalyticsReadDeps, 'storage' | 'snapshots' | 'clock' | 'platforms'>, account: OperatorAccount, username: string, q: TotalImpressionsQuery,
): Promise<TotalImpressionsView> {
  const { start, end } = resolveRange(q, deps.clock.now());
  const metrics = q.metrics !== undefined ? parseMetrics(q.metrics) : undefined;
  const filter = q.platform !== undefined ? parsePlatformFilter(q.platform) : null;
  const breakdown = q.breakdown === true;
  // Without a filter: every network that can be measured (history outlives a disconnect).
  const platforms = filter ?? deps.platforms.having('analytics').map((a) => a.descriptor.id);
  const [, series] = await Promise.all([
    requireProfile(deps.storage, account.id, username),
    deps.snapshots.series(account.id, username, platforms, seriesNeeded(metrics, breakdown), start, end),
  ]);
  return {
    profile_username: username, start_date: start, end_date: end,
    ...computeTotals(series, { start, end, platforms, ...(metrics ? { metrics } : {}), breakdown }), platforms_filter: filter,
  };
}

interface LiveMetrics {
  post_metrics: Record<string, unknown> | null;
  /** `live` (fetched now), `cache` (fetched within the cache time), null when it could not be fetched. */
  post_metrics_source: 'live' | 'cache' | null;
  post_metrics_error: string | null;
  captured_at: string | null;
}

const cacheKey = (accountId: string, platform: Platform, postId: string) => `post-analytics:${accountId}:${platform}:${postId}`;

type CachedMetrics = { metrics: Record<string, unknown>; capturedAt: string };

/**
 * A post's metrics: from the cache when fetched within `cacheMs`, else from the network through
 * the analytics capability (gates, connection session), then cached and recorded for
 * `GET /post-analytics/cached`. A refusal (the network's, or no connection) is the answer's
 * `post_metrics_error` when `soft`, else thrown.
 */
async function postMetrics(
  deps: AnalyticsReadDeps, account: OperatorAccount, profileUsername: string, platform: Platform, post: PostRef,
  origin: { source: 'organic' | 'api_uploaded'; requestId?: string }, soft: boolean,
): Promise<LiveMetrics> {
  const postId = post.id;
  const key = cacheKey(account.id, platform, postId);
  const cached = await deps.cache.get<CachedMetrics>(key).catch(() => undefined);
  if (cached) return { post_metrics: cached.metrics, post_metrics_source: 'cache', post_metrics_error: null, captured_at: cached.capturedAt };
  let metrics: Record<string, unknown>;
  try {
    // Not cached a second time by the live use case: this cache holds the view and its capture time.
    const live = await livePostMetrics({ ...deps, cacheTtlMs: 0 }, account, profileUsername, platform, post);
    metrics = postMetricsView(live.metrics);
  } catch (err) {
    if (!soft || !(err instanceof PlatformError || err instanceof HeraldError)) throw err;
    return { post_metrics: null, post_metrics_source: null, post_metrics_error: err.message, captured_at: null };
  }
  const now = deps.clock.now();
  await deps.cache.set(key, { metrics, capturedAt: now.toISOString() } satisfies CachedMetrics, deps.cacheMs).catch(() => undefined);
  await deps.captures.record({
    accountId: account.id, platform, platformPostId: postId, profileUsername, source: origin.source,
    ...(origin.requestId ? { requestId: origin.requestId } : {}), metrics, capturedAt: now,
  }, new Date(now.getTime() + deps.captureRetentionMs));
  return { post_metrics: metrics, post_metrics_source: 'live', post_metrics_error: null, captured_at: now.toISOString() };
}

/** available_metrics, metric_labels, primary_impressions_field of the network's post metrics. */
function catalogueOf(deps: Pick<AnalyticsReadDeps, 'platforms'>, platform: Platform): Record<string, unknown> {
  const catalogue = deps.platforms.with(platform, 'analytics')?.analytics.catalogue;
  if (catalogue) return catalogueView(catalogue, 'post');
  return { available_metrics: [], metric_labels: {}, primary_impressions_field: impressionsMetricsOf(deps.platforms.get(platform)?.descriptor)[0] };
}

const snapshotView = (s: AnalyticsSnapshot | null) => (s ? { date: s.date, captured_at: s.capturedAt.toISOString(), ...s.metrics } : null);

/** `GET /post-analytics/{request_id}`: the upload, and per network its result, metrics and the profile's snapshots. */
export async function postAnalyticsByRequest(deps: AnalyticsReadDeps, account: OperatorAccount, requestId: string, platformFilter?: string) {
  let only: Platform | undefined;
  if (platformFilter !== undefined) {
    const p = platformFilter.trim().toLowerCase();
    if (!isPlatform(p)) throw invalidInput(`platform: unknown "${platformFilter}".`, { field: 'platform' }, 'invalid_platform');
    only = p;
  }
  const upload = await deps.storage.uploads.find(account.id, requestId);
  if (!upload) throw notFound(`No upload with request_id "${requestId}".`, 'UPLOAD_NOT_FOUND');
  const targets = upload.targets.filter((t) => !only || t.platform === only);
  if (only && !targets.length) throw notFound(`Upload "${requestId}" did not target ${only}.`, 'PLATFORM_NOT_IN_UPLOAD');
  const postDay = dayOf(upload.startedAt ?? upload.createdAt);
  const today = dayOf(deps.clock.now());
  const platforms: Record<string, unknown> = {};
  for (const target of targets) {
    const p = target.platform;
    const result = upload.results[p];
    const postId = result?.success ? result.post_id : undefined;
    const live: LiveMetrics = postId
      // The post as the adapter published it: a Facebook video names its Page only in the result's page_id.
      ? await postMetrics(deps, account, upload.profileUsername, p, postRefOfResult(result!, postId), { source: 'api_uploaded', requestId }, true)
      : { post_metrics: null, post_metrics_source: null, post_metrics_error: result ? (result.error ?? 'The post has no platform post id.') : 'The post is not published yet.', captured_at: null };
    const [atPost, latest] = await Promise.all([
      deps.snapshots.latestOnOrBefore(account.id, upload.profileUsername, p, postDay, deps.snapshotLookbackDays),
      deps.snapshots.latestOnOrBefore(account.id, upload.profileUsername, p, today, deps.snapshotLookbackDays),
    ]);
    platforms[p] = {
      success: result?.success === true,
      platform_post_id: postId ?? null,
      post_url: result?.url ?? null,
      post_metrics: live.post_metrics,
      post_metrics_source: live.post_metrics_source,
      post_metrics_error: live.post_metrics_error,
      profile_snapshot_at_post_date: snapshotView(atPost),
      profile_snapshot_latest: snapshotView(latest),
      profile_snapshot_latest_date: latest?.date ?? null,
    };
  }
  return {
    post: {
      request_id: upload.requestId, profile_username: upload.profileUsername, post_title: upload.content.title,
      post_caption: upload.content.description ?? upload.content.title, media_type: upload.mediaType, upload_timestamp: upload.createdAt.toISOString(),
    },
    platforms,
  };
}

export interface LivePostQuery {
  platform_post_id?: string;
  platform?: string;
  user?: string;
}

/** `GET /post-analytics?platform_post_id=&platform=&user=`: 100 requests per 5 minutes per operator account. */
export async function livePostAnalytics(deps: AnalyticsReadDeps, account: OperatorAccount, q: LivePostQuery) {
  const missing = (['platform_post_id', 'platform', 'user'] as const).filter((f) => !q[f]);
  if (q.platform?.trim().toLowerCase() === 'reddit') throw redditUnavailable();
  if (missing.length) throw invalidInput(`${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} required.`, { fields: missing }, 'missing_parameter');
  const platform = q.platform!.trim().toLowerCase();
  const served = livePostPlatforms(deps.platforms);
  if (!(served as readonly string[]).includes(platform)) {
    throw invalidInput(`Live post analytics are available for ${served.join(', ')}; got "${q.platform}".`, { field: 'platform' }, 'platform_not_supported');
  }
  const decision = await deps.liveLimiter.consume(account.id);
  if (!decision.allowed) {
    // resetAt is on the limiter's clock (the machine's), not the injected one.
    const seconds = Math.max(1, Math.ceil((decision.resetAt.getTime() - Date.now()) / 1000));
    throw new HeraldError('too_many_requests', `Live post analytics are limited to ${decision.limit} requests per window; try again in ${seconds} seconds, or read GET /post-analytics/cached.`,
      'post_analytics_rate_limited', { retry_after_seconds: seconds, limit: decision.limit });
  }
  const p = platform as Platform;
  await requireProfile(deps.storage, account.id, q.user!);
  const requestId = await deps.storage.uploads.findRequestIdByPostId(account.id, p, q.platform_post_id!);
  const origin = requestId ? { source: 'api_uploaded' as const, requestId } : { source: 'organic' as const };
  // Input and connection problems answer 4xx; the network's refusal is the answer's post_metrics_error.
  const live = await postMetrics(deps, account, q.user!, p, { id: q.platform_post_id! }, origin, false).catch((err: unknown): LiveMetrics => {
    if (err instanceof PlatformError) return { post_metrics: null, post_metrics_source: null, post_metrics_error: err.message, captured_at: null };
    throw err;
  });
  return {
    post: { platform_post_id: q.platform_post_id!, platform: p, profile_username: q.user!, source: origin.source, ...(requestId ? { request_id: requestId } : {}) },
    platforms: {
      [p]: {
        post_metrics: live.post_metrics, post_metrics_source: live.post_metrics_source, post_metrics_error: live.post_metrics_error, captured_at: live.captured_at,
        ...catalogueOf(deps, p),
      },
    },
  };
}

export interface CachedQuery {
  platform?: string;
  since?: string;
  until?: string;
  cursor?: string;
  limit?: string;
}

const instant = (field: string, raw: string | undefined): Date | undefined => {
  if (raw === undefined) return undefined;
  const at = /^\d{4}-\d{2}-\d{2}(T.*)?$/.test(raw) ? new Date(raw) : new Date(NaN);
  if (Number.isNaN(at.getTime())) throw invalidInput(`${field} must be an ISO-8601 date or date-time; got "${raw}".`, { field }, 'invalid_date');
  return at;
};

/** The cached list's query values as it reads them (the API's edge checks each field with the same rule). */
export const CACHED_QUERY = {
  platform(raw: string | undefined): Platform | undefined {
    if (raw === undefined) return undefined;
    const p = raw.trim().toLowerCase();
    if (!isPlatform(p)) throw invalidInput(`platform: unknown "${raw}".`, { field: 'platform' }, 'invalid_platform');
    return p;
  },
  limit(raw: string | undefined): number {
    if (raw === undefined) return CACHED_PAGE_MAX;
    if (!/^\d+$/.test(raw) || Number(raw) < 1) throw invalidInput(`limit must be an integer from 1 to ${CACHED_PAGE_MAX}; got "${raw}".`, { field: 'limit' }, 'invalid_limit');
    return Math.min(CACHED_PAGE_MAX, Number(raw));
  },
  since: (raw: string | undefined) => instant('since', raw),
  until: (raw: string | undefined) => instant('until', raw),
};

/**
 * `GET /post-analytics/cached`: the recorded fetches, newest first, up to 200 a page; not rate
 * limited. The cursor form only (`cursor` = the previous page's `next_cursor`, with the same
 * filters): each page reads the rows it returns and the hours they fall in (docs/storage/lists.md).
 */
export async function cachedPostAnalytics(deps: Pick<AnalyticsReadDeps, 'captures'>, account: OperatorAccount, q: CachedQuery) {
  const platform = CACHED_QUERY.platform(q.platform);
  const limit = CACHED_QUERY.limit(q.limit);
  const since = CACHED_QUERY.since(q.since);
  const until = CACHED_QUERY.until(q.until);
  const filters = { ...(platform ? { platform } : {}), ...(since ? { since } : {}), ...(until ? { until } : {}) };
  const after = q.cursor !== undefined ? decodeCapturesCursor(q.cursor, filters) : undefined;
  const page = await deps.captures.list({ accountId: account.id, limit, ...filters, ...(after ? { after } : {}) });
  const nextCursor = page.next ? encodeCapturesCursor(page.next, filters) : null;
  return {
    posts: page.items.map((c) => ({
      platform: c.platform, platform_post_id: c.platformPostId, profile_username: c.profileUsername, source: c.source,
      ...(c.requestId ? { request_id: c.requestId } : {}), post_metrics: c.metrics, captured_at: c.capturedAt.toISOString(),
    })),
    pagination: { limit, next_cursor: nextCursor, has_more: nextCursor !== null },
  };
}
