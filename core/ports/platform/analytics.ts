/**
 * The analytics capability of a network: account metrics (followers, reach, views, …, series,
 * demographics), per-post metrics, and, where the network has them, audience insights and
 * suggestions (TikTok). Metric names are the spec's (`profileViews`, `pin_clicks`, …), mapped from
 * the network's own names inside the adapter; `catalogue` says which ones a network answers and
 * which one is its impressions figure (GET /analytics, /platform-metrics, /total-impressions).
 */
import type { CallContext } from './context';
import type { PostRef } from './refs';

/** Spec metric name → value; null when the network did not report it for this account or post. */
export type MetricValues = Record<string, number | null>;

/**
 * Account metric names the spec uses (GET /analytics fields and total-impressions `metrics`), then
 * Google Business Profile's customer actions, which the spec names none for (an extension).
 */
export const ACCOUNT_METRICS = [
  'followers', 'following', 'posts_count', 'video_count', 'reach', 'views', 'impressions', 'profileViews',
  'likes', 'comments', 'shares', 'saves', 'engagement', 'quotes', 'pin_clicks', 'outbound_clicks',
  'watch_time_minutes', 'average_view_duration_seconds',
  'website_clicks', 'call_clicks', 'direction_requests', 'conversations', 'bookings',
] as const;
export type AccountMetricName = (typeof ACCOUNT_METRICS)[number];

/** Post metric names; TikTok adds its extra fields (spec "For tiktok per-post metrics also include"). */
export const POST_METRICS = [
  'views', 'impressions', 'reach', 'likes', 'comments', 'shares', 'saves', 'quotes', 'engagement',
  'pin_clicks', 'outbound_clicks', 'watch_time_minutes', 'average_view_duration_seconds',
  'favorites', 'new_followers', 'profile_views', 'full_video_watched_rate', 'average_time_watched', 'total_time_watched',
] as const;
export type PostMetricName = (typeof POST_METRICS)[number];

/** The spec's metric_type: what a network's headline impressions figure counts. */
export type MetricType = 'reach' | 'views' | 'impressions' | 'score';

export interface MetricInfo {
  /** Spec name (a key of MetricValues). */
  name: string;
  /** Human label (metric_labels). */
  label: string;
}

/** What a network can answer, known without calling it. */
export interface MetricCatalogue {
  metricType: MetricType;
  /** The account metric that is the network's impressions figure (total-impressions default). */
  primaryImpressionsField: AccountMetricName;
  /** Account metrics answered (available_metrics of GET /analytics), in display order. */
  account: readonly MetricInfo[];
  /**
   * Post metrics answered (available_metrics of GET /post-analytics); empty for a network without
   * per-post metrics (Google Business Profile), whose `post` then refuses as unsupported.
   */
  post: readonly MetricInfo[];
  /** The post metric that is a post's impressions figure. */
  postPrimaryImpressionsField: PostMetricName;
}

/** One day of a series: `date` is YYYY-MM-DD (UTC). */
export interface TimePoint {
  date: string;
  value: number;
}

/**
 * Instagram demographics (follower_demographics, engaged_audience_demographics): counts per age
 * bucket, gender (F, M, U), country (ISO 3166-1 alpha-2) and city. `{}` below Meta's thresholds.
 */
export interface Demographics {
  age?: Record<string, number>;
  gender?: Partial<Record<'F' | 'M' | 'U', number>>;
  country?: Record<string, number>;
  city?: Record<string, number>;
}

export interface AccountMetricsRequest {
  /** The window's last day (inclusive); metrics cover `days` days ending there. */
  until: Date;
  /** Window length in days: Facebook 1-365 (fetched in 90-day chunks), 30 elsewhere. */
  days: number;
  /**
   * The page, organization or location the metrics are of (the descriptor's
   * `analytics.accountTarget`: a Facebook page id — required there —, a LinkedIn organization URN,
   * a Google Business Profile location id); without it the connection's only or first one.
   */
  target?: string;
}

export interface AccountMetrics {
  /** Keys from the catalogue's `account` list; totals over the window unless the metric is a count (followers). */
  values: MetricValues;
  /** Daily reach over the window (reach_timeseries), oldest first. */
  reachTimeseries?: TimePoint[];
  /** Daily impressions over the window (impressions_timeseries, Facebook). */
  impressionsTimeseries?: TimePoint[];
  /** The window actually covered (period_days, Facebook). */
  periodDays?: number;
  followerDemographics?: Demographics;
  engagedAudienceDemographics?: Demographics;
}

/** TikTok's non-numeric per-post fields, under their spec names. */
export interface PostMetricDetails {
  is_ai_generated?: boolean;
  /** Ordered by second. */
  retention?: Array<{ second: number; percentage: number }>;
  impression_sources?: Array<{ impression_source: string; percentage: number }>;
  audience_types?: Array<{ audience_type: string; percentage: number }>;
}

/** The post's page or organization comes from the post itself (its id, `extra`, or its author). */
export interface PostMetricsRequest {
  post: PostRef;
}

export interface PostMetrics {
  /** Keys from the catalogue's `post` list. */
  values: MetricValues;
  details?: PostMetricDetails;
}

/** Audience insights (GET /svc/audience, TikTok). Field names are the response's. */
export interface AudienceInsights {
  range: { start_date: string; end_date: string };
  audience: {
    age: Record<string, number>;
    gender: Record<string, number>;
    country: Record<string, number>;
  };
  /** 0-23, UTC: share of followers active in each hour. */
  activity_by_hour: Array<{ hour: number; value: number }>;
  followers_daily: TimePoint[];
  /** Totals over the range: profile_views, bio_link_clicks, phone_number_clicks, … */
  profile_actions: Record<string, number>;
  bio_description: string | null;
  benchmark_categories: string[];
  /** Only when a benchmark category was asked for. */
  benchmark?: { category: string; metrics: Record<string, number> };
}

export type SuggestionType = 'hashtags' | 'keywords';
export type Suggestions =
  | { type: 'hashtags'; hashtags: Array<{ name: string; view_count: number }> }
  | { type: 'keywords'; keywords: Array<{ keyword: string; search_volume: number }> };

/** Operations a connection capability gates (TikTok): the connection must report the capability. */
export type AnalyticsOperation = 'account' | 'post' | 'audience' | 'hashtags' | 'keywords';

/**
 * Account and per-post metrics of a connected account. Every method is called through the
 * connection session (core/usecases/connection-session.ts) and throws PlatformError for every
 * network refusal (missing permission: `rejected` with code `missing_permission`).
 */
export interface Analytics {
  catalogue: MetricCatalogue;
  /**
   * The connection capability each gated operation needs (TikTok: audience and hashtags need
   * `profile_analytics`, keywords `trend_search`); a connection without it answers 400
   * `tiktok_reconnect_required` before anything is sent.
   */
  gates?: Partial<Record<AnalyticsOperation, string>>;
  account(ctx: CallContext, input: AccountMetricsRequest): Promise<AccountMetrics>;
  post(ctx: CallContext, input: PostMetricsRequest): Promise<PostMetrics>;
  audience?(ctx: CallContext, input: { until: Date; days: number; benchmarkCategory?: string }): Promise<AudienceInsights>;
  suggestions?(ctx: CallContext, input: { type: SuggestionType; keyword?: string; limit?: number }): Promise<Suggestions>;
}

/** `available_metrics` and `metric_labels` of a catalogue list. */
export function describeMetrics(list: readonly MetricInfo[]): { available_metrics: string[]; metric_labels: Record<string, string> } {
  return {
    available_metrics: list.map((m) => m.name),
    metric_labels: Object.fromEntries(list.map((m) => [m.name, m.label])),
  };
}
