/**
 * Live analytics of a profile's connected accounts: account metrics (GET /analytics/{profile}),
 * per-post metrics (post analytics), TikTok audience insights and suggestions. Every call goes
 * through the connection session (tokens renewed as needed) and its answer is cached for a short,
 * configurable time, keyed by connection and request, so repeated dashboards do not spend the
 * networks' rate limits.
 */
import { DEFAULT_ANALYTICS_DAYS } from '../domain/analytics';
import type { ConnectedAccount } from '../domain/connected-account';
import { failureErrorCode, HeraldError, invalidInput, PlatformError } from '../domain/errors';
import type { OperatorAccount } from '../domain/operator';
import { PIN_KINDS } from '../domain/profile';
import { isPlatform, PLATFORM_ALIASES, PLATFORMS, UNAVAILABLE_PLATFORMS, type Platform } from '../domain/platforms';
import { cachedResult, type ResultCache } from '../ports/cache';
import {
  describeMetrics, type AccountMetrics, type Analytics, type AnalyticsFacts, type AnalyticsOperation, type AudienceInsights, type MetricCatalogue,
  type PlatformRegistry, type PostMetrics, type PostRef, type Suggestions, type SuggestionType,
} from '../ports/platform';
import type { Storage } from '../ports/storage';
import { withConnection, type ConnectionSessionDeps } from './connection-session';
import { requireProfile } from './profiles';

export type AnalyticsDeps = ConnectionSessionDeps & {
  storage: Pick<Storage, 'connectedAccounts' | 'profiles'>;
  cache?: ResultCache;
  /** How long live answers are reused (0: never cached). */
  cacheTtlMs: number;
};

/**
 * GET /analytics/{profile}'s query: `platforms`, `days` (read for the networks whose descriptor
 * declares `analytics.days`) and each network's target parameter (`analytics.accountTarget.param`:
 * Facebook `page_id`, LinkedIn `page_urn`, Google Business Profile `gbp_location_id`).
 */
export interface ProfileAnalyticsQuery {
  platforms: unknown;
  days?: unknown;
  [targetParam: string]: unknown;
}

/** What one platform answers in GET /analytics: metrics, or a message saying why not. */
export type PlatformAnalyticsView = Record<string, unknown>;

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

/** The networks with analytics (their adapters have the capability), and reddit (503), in the API's platform order. */
export const analyticsPlatforms = (platforms: PlatformRegistry): Platform[] =>
  PLATFORMS.filter((p) => platforms.with(p, 'analytics') || UNAVAILABLE_PLATFORMS.includes(p));

/** The comma list of `platforms`, checked: 400 for a missing list or a value that is no platform. */
export function parseAnalyticsPlatforms(raw: unknown, platforms: PlatformRegistry): Platform[] {
  const known = analyticsPlatforms(platforms).join(', ');
  const values = (Array.isArray(raw) ? raw : [raw]).flatMap((v) => (typeof v === 'string' ? v.split(',') : [])).map((v) => v.trim().toLowerCase()).filter(Boolean);
  if (!values.length) {
    throw invalidInput(`platforms is required: a comma list of ${known}.`, { violations: [{ field: 'platforms', message: 'required' }] }, 'invalid_platforms');
  }
  const bad = values.filter((v) => !isPlatform(PLATFORM_ALIASES[v] ?? v));
  if (bad.length) {
    throw invalidInput(`platforms has values that are no platform: ${bad.join(', ')}. Use a comma list of ${known}.`,
      { violations: bad.map((v) => ({ field: 'platforms', value: v, message: 'unknown platform' })) }, 'invalid_platforms');
  }
  return [...new Set(values.map((v) => (PLATFORM_ALIASES[v] ?? v) as Platform))];
}

/** `days` for a network that reads it (its descriptor's `analytics.days`): a whole number in its bounds, its default when absent. */
export function parseAnalyticsDays(raw: unknown, bounds: { min: number; max: number; default: number }): number {
  if (raw === undefined || raw === '') return bounds.default;
  const n = typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : typeof raw === 'number' ? raw : NaN;
  if (!Number.isInteger(n) || n < bounds.min || n > bounds.max) {
    throw invalidInput(`days must be a whole number from ${bounds.min} to ${bounds.max}.`, { violations: [{ field: 'days', message: 'out of range' }] });
  }
  return n;
}

/**
 * What one network's account metrics are read over: its `days` (the request's, where the network
 * reads it) and its target (the request's parameter, else the profile's pin), as its descriptor
 * declares them. 400 when the target is required and neither is there, or the parameter is malformed.
 */
function accountRequestOf(
  facts: AnalyticsFacts | undefined, pinField: string | undefined, query: ProfileAnalyticsQuery, pins: Record<string, string> | undefined, platform: Platform,
): { days: number; target?: string } {
  const days = facts?.days ? parseAnalyticsDays(query.days, facts.days) : DEFAULT_ANALYTICS_DAYS;
  const spec = facts?.accountTarget;
  if (!spec) return { days };
  const given = text(query[spec.param]);
  const pinned = pinField ? pins?.[pinField] : undefined;
  const target = given !== undefined ? (spec.parse ? spec.parse(given, 'query') : given) : pinned !== undefined ? (spec.parse ? spec.parse(pinned, 'pin') : pinned) : undefined;
  if (target === undefined && spec.required) {
    throw invalidInput(`${spec.param} is required for ${platform}: ${spec.required}`, { violations: [{ field: spec.param, message: `required for ${platform}` }] });
  }
  return { days, ...(target !== undefined ? { target } : {}) };
}

/** The catalogue part of a platform's answer (metric_type, primary_impressions_field, available_metrics, metric_labels). */
export function catalogueView(catalogue: MetricCatalogue, of: 'account' | 'post' = 'account'): Record<string, unknown> {
  return {
    metric_type: catalogue.metricType,
    primary_impressions_field: of === 'account' ? catalogue.primaryImpressionsField : catalogue.postPrimaryImpressionsField,
    ...describeMetrics(of === 'account' ? catalogue.account : catalogue.post),
  };
}

/** An account's metrics as GET /analytics shows them, under the spec's field names. */
export function accountMetricsView(metrics: AccountMetrics, catalogue: MetricCatalogue): PlatformAnalyticsView {
  return {
    success: true,
    ...metrics.values,
    ...(metrics.reachTimeseries ? { reach_timeseries: metrics.reachTimeseries } : {}),
    ...(metrics.impressionsTimeseries ? { impressions_timeseries: metrics.impressionsTimeseries } : {}),
    ...(metrics.periodDays !== undefined ? { period_days: metrics.periodDays } : {}),
    ...(metrics.followerDemographics ? { follower_demographics: metrics.followerDemographics } : {}),
    ...(metrics.engagedAudienceDemographics ? { engaged_audience_demographics: metrics.engagedAudienceDemographics } : {}),
    ...catalogueView(catalogue),
  };
}

const message = (platform: string, errorCode: string, text: string): PlatformAnalyticsView => ({ success: false, error_code: errorCode, message: text, platform });

/** A network's refusal, as a per-platform entry (the other platforms of the request still answer). */
function failureView(platform: Platform, err: unknown): PlatformAnalyticsView {
  if (err instanceof PlatformError) return message(platform, failureErrorCode(err.failure), `${platform}: ${err.message}`);
  if (err instanceof HeraldError) return { ...message(platform, err.errorCode ?? 'invalid_request', err.message), ...err.details };
  throw err;
}

async function connectionOf(deps: AnalyticsDeps, account: OperatorAccount, username: string, platform: Platform): Promise<ConnectedAccount | undefined> {
  const connection = await deps.storage.connectedAccounts.find(account.id, username, platform);
  return connection && connection.status !== 'disconnected' ? connection : undefined;
}

/** Cache keys follow the connection's version: a reconnect (new capabilities, another account) never reads older answers. */
const connectionKey = (c: ConnectedAccount) => `${c.id}:${new Date(c.updatedAt).getTime()}`;

const notConnected = (platform: Platform, username: string) =>
  invalidInput(`No ${platform} account is connected to profile "${username}".`, { platform }, 'not_connected');

/**
 * GET /analytics/{profile}: one entry per requested platform. Input errors (platforms, Facebook's
 * page_id and days) answer 400 before any network is called; a network's refusal, a missing
 * connection, reddit and the networks without analytics are per-platform messages.
 */
export async function profileAnalytics(deps: AnalyticsDeps, account: OperatorAccount, username: string, query: ProfileAnalyticsQuery): Promise<Record<string, PlatformAnalyticsView>> {
  const platforms = parseAnalyticsPlatforms(query.platforms, deps.platforms);
  const profile = await requireProfile(deps.storage, account.id, username);
  // Every network's days and target are read before any network is called (input errors answer 400).
  const requests = new Map(platforms.map((platform) => {
    const descriptor = deps.platforms.get(platform)?.descriptor;
    const pinField = descriptor?.pin ? PIN_KINDS[descriptor.pin.kind].field : undefined;
    return [platform, accountRequestOf(descriptor?.analytics, pinField, query, profile.pins, platform)] as const;
  }));
  const now = deps.clock.now();

  const entries = await Promise.all(platforms.map(async (platform): Promise<[string, PlatformAnalyticsView]> => {
    if (platform === 'reddit') {
      return [platform, message(platform, 'reddit_unavailable', 'reddit analytics are unavailable, like every reddit call (HTTP 503 reddit_unavailable elsewhere). Remove reddit from platforms.')];
    }
    const analytics = deps.platforms.with(platform, 'analytics')?.analytics;
    if (!analytics) {
      const why = deps.platforms.get(platform) ? `${platform} offers no analytics.` : `${platform} analytics are not available yet.`;
      const can = deps.platforms.having('analytics').map((a) => a.descriptor.id).sort((a, b) => PLATFORMS.indexOf(a) - PLATFORMS.indexOf(b));
      return [platform, message(platform, 'platform_not_supported', `${why} Analytics are available for ${can.join(', ')}.`)];
    }
    try {
      const connection = await connectionOf(deps, account, username, platform);
      if (!connection) throw notConnected(platform, username);
      requireGate(analytics, connection, 'account');
      const request = { until: now, ...requests.get(platform)! };
      const key = `analytics:account:${connectionKey(connection)}:${request.days}:${request.target ?? ''}:${now.toISOString().slice(0, 10)}`;
      const metrics = await cachedResult(deps.cache, key, deps.cacheTtlMs, () => withConnection(deps, connection, (ctx) => analytics.account(ctx, request)));
      return [platform, accountMetricsView(metrics, analytics.catalogue)];
    } catch (err) {
      return [platform, failureView(platform, err)];
    }
  }));
  return Object.fromEntries(entries);
}

/** A connection lacking the capability an operation needs (TikTok): 400 tiktok_reconnect_required. */
function requireGate(analytics: Analytics, connection: ConnectedAccount, operation: AnalyticsOperation): void {
  const needed = analytics.gates?.[operation];
  if (!needed || connection.capabilities?.includes(needed)) return;
  throw invalidInput(
    `This ${connection.platform} connection lacks the "${needed}" capability this needs; reconnect the account to grant it.`,
    { platform: connection.platform, capability: needed }, `${connection.platform}_reconnect_required`,
  );
}

/** The analytics capability of `platform`, or 400 platform_not_supported naming the networks that have one. */
export function analyticsOf(deps: Pick<AnalyticsDeps, 'platforms'>, platform: Platform, what = 'analytics'): Analytics {
  const analytics = deps.platforms.with(platform, 'analytics')?.analytics;
  if (!analytics) {
    const supported = deps.platforms.having('analytics').map((a) => a.descriptor.id);
    throw invalidInput(`${platform} has no ${what}; networks with ${what}: ${supported.join(', ')}.`, { platform }, 'platform_not_supported');
  }
  return analytics;
}

/**
 * A post's live metrics, read as the profile's connection (what post analytics show). Cached like
 * account metrics. Throws 400 not_connected, platform_not_supported, and PlatformError refusals.
 */
export async function livePostMetrics(
  deps: AnalyticsDeps, account: OperatorAccount, username: string, platform: Platform, post: PostRef,
): Promise<{ metrics: PostMetrics; catalogue: MetricCatalogue }> {
  const analytics = analyticsOf(deps, platform);
  await requireProfile(deps.storage, account.id, username);
  const connection = await connectionOf(deps, account, username, platform);
  if (!connection) throw notConnected(platform, username);
  requireGate(analytics, connection, 'post');
  const key = `analytics:post:${connectionKey(connection)}:${post.id}`;
  const metrics = await cachedResult(deps.cache, key, deps.cacheTtlMs, () =>
    withConnection(deps, connection, (ctx) => analytics.post(ctx, { post })));
  return { metrics, catalogue: analytics.catalogue };
}

/** post_metrics as the spec shows them: the numbers, then TikTok's details. */
export const postMetricsView = (metrics: PostMetrics): Record<string, unknown> => ({ ...metrics.values, ...(metrics.details ?? {}) });

async function gatedCall<T>(
  deps: AnalyticsDeps, account: OperatorAccount, username: string, platform: Platform, operation: AnalyticsOperation, key: string,
  call: (analytics: Analytics, connection: ConnectedAccount) => Promise<T>,
): Promise<T> {
  const analytics = analyticsOf(deps, platform, operation === 'audience' ? 'audience insights' : 'suggestions');
  await requireProfile(deps.storage, account.id, username);
  const connection = await connectionOf(deps, account, username, platform);
  if (!connection) throw notConnected(platform, username);
  requireGate(analytics, connection, operation);
  return cachedResult(deps.cache, `analytics:${operation}:${connectionKey(connection)}:${key}`, deps.cacheTtlMs, () => call(analytics, connection));
}

/** GET /audience: audience insights of the profile's connection (TikTok, capability profile_analytics). */
export async function audienceInsights(
  deps: AnalyticsDeps, account: OperatorAccount, username: string, platform: Platform, input: { days: number; benchmarkCategory?: string },
): Promise<AudienceInsights> {
  const now = deps.clock.now();
  return gatedCall(deps, account, username, platform, 'audience', `${input.days}:${input.benchmarkCategory ?? ''}:${now.toISOString().slice(0, 10)}`, (analytics, connection) => {
    if (!analytics.audience) throw invalidInput(`${platform} has no audience insights.`, { platform }, 'platform_not_supported');
    return withConnection(deps, connection, (ctx) => analytics.audience!(ctx, { until: now, days: input.days, ...(input.benchmarkCategory ? { benchmarkCategory: input.benchmarkCategory } : {}) }));
  });
}

/** GET /suggestions: hashtags (capability profile_analytics) or keywords (trend_search) for the profile's connection (TikTok). */
export async function suggestions(
  deps: AnalyticsDeps, account: OperatorAccount, username: string, platform: Platform, input: { type: SuggestionType; keyword?: string; limit?: number },
): Promise<Suggestions> {
  return gatedCall(deps, account, username, platform, input.type, `${input.type}:${input.keyword ?? ''}:${input.limit ?? ''}`, (analytics, connection) => {
    if (!analytics.suggestions) throw invalidInput(`${platform} has no suggestions.`, { platform }, 'platform_not_supported');
    return withConnection(deps, connection, (ctx) => analytics.suggestions!(ctx, input));
  });
}

/** GET /platform-metrics: every network's catalogue, and the networks without analytics. */
export function platformMetrics(deps: Pick<AnalyticsDeps, 'platforms'>): Record<string, unknown> {
  const networks = Object.fromEntries(deps.platforms.having('analytics').map((a) => [a.descriptor.id, {
    ...catalogueView(a.analytics.catalogue),
    post: catalogueView(a.analytics.catalogue, 'post'),
    ...(a.analytics.gates ? { capabilities_required: a.analytics.gates } : {}),
  }]));
  const without = PLATFORMS.filter((p) => deps.platforms.get(p) && !networks[p]);
  return { platforms: networks, unsupported_platforms: [...without, ...UNAVAILABLE_PLATFORMS] };
}
