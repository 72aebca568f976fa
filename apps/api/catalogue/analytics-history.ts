import { z } from 'zod';
import { NETWORKS } from '../../../adapters/platforms';
import { checkRangeField, HISTORY_METRICS, impressionsMetricsOf, parseMetrics, parsePlatformFilter, PERIODS, type RangeQuery } from '../../../core/domain/analytics-history';
import { invalidInput } from '../../../core/domain/errors';
import { CACHED_PAGE_MAX, CACHED_QUERY } from '../../../core/usecases/analytics-history';
import { operation, queryRuledBy, ruledBy } from './types';
import { ok, ProfileUsername } from './common';

/** Which networks count which metric as impressions (their descriptors' `analytics.impressionsMetrics`): "reach for facebook, instagram; views for …". */
function impressionsByMetric(): string {
  const byMetric = new Map<string, string[]>();
  for (const { descriptor } of NETWORKS.filter((n) => n.descriptor.analytics?.impressionsMetrics?.length)) {
    const metric = impressionsMetricsOf(descriptor)[0]!;
    byMetric.set(metric, [...(byMetric.get(metric) ?? []), descriptor.id]);
  }
  return [...byMetric].map(([metric, ids]) => `${metric} for ${ids.join(', ')}`).join('; ');
}

/** A range field, checked as the range reads it (an overridden field is not read). */
const rangeField = (field: keyof RangeQuery, description: string) => ruledBy((v, all) => {
  const present = (name: keyof RangeQuery) => (typeof all[name] === 'string' && all[name] !== '' ? { [name]: all[name] as string } : {});
  if (typeof v === 'string' && v !== '') checkRangeField(field, { ...present('date'), ...present('start_date'), ...present('end_date'), ...present('period') });
  return v;
}, z.string().optional().describe(description));

/** A flag's text: true/false (also 1/0, yes/no); 400 otherwise. */
export function flagOf(name: string, v: string): boolean {
  if (['true', '1', 'yes'].includes(v.toLowerCase())) return true;
  if (['false', '0', 'no'].includes(v.toLowerCase())) return false;
  throw invalidInput(`${name} must be true or false; got "${v}".`, { field: name });
}

/** Stored analytics history (daily snapshots) and per-post metrics: total impressions, post analytics (by request id, live, cached). */

const Figures = z.record(z.string(), z.number());
const PerPlatform = z.record(z.string(), z.union([z.number(), Figures])).describe('Per network: the figure (or one per metric).');
const Snapshot = z.looseObject({ date: z.string().describe('YYYY-MM-DD (UTC).'), captured_at: z.string() }).nullable()
  .describe('The profile\'s stored daily snapshot of that network (its metrics), or null when none was taken.');
const PostMetrics = z.record(z.string(), z.unknown()).nullable().describe('The post\'s metrics under the spec\'s names (TikTok adds reach, favorites, retention, impression_sources, audience_types, …); null when they could not be read.');
const Source = z.enum(['live', 'cache']).nullable().describe('live: read from the network now; cache: read within the cache time (HERALD_POST_ANALYTICS_CACHE_MS); null: not read.');

export const getTotalImpressions = operation({
  id: 'getTotalImpressions', method: 'get', path: '/svc/total-impressions/{username}', tags: ['analytics'],
  summary: 'Total impressions from stored daily snapshots',
  description: 'Sums the profile\'s stored daily snapshots (taken by the analytics worker pool) over a date range: each network\'s default impressions metric (' + impressionsByMetric() + '), or the `metrics` asked for (flows summed; followers, following and video_count: the last value in the range). `breakdown=true` adds per_platform and per_day. A range of any length up to 366 days costs the same: each figure of a profile\'s year is stored as one series, so a range reads one or two of them per metric. Sums of daily snapshots overstate networks whose snapshot is a rolling total (facebook): use GET /analytics with days for exact figures. Errors: 400 invalid_date, invalid_period, invalid_metric, invalid_platform; 404 PROFILE_NOT_FOUND.',
  auth: 'apiKey',
  params: z.object({ username: ProfileUsername }),
  query: z.object({
    date: rangeField('date', 'One day, YYYY-MM-DD (overrides start_date/end_date).'),
    start_date: rangeField('start_date', 'YYYY-MM-DD; default 30 days before end_date.'),
    end_date: rangeField('end_date', 'YYYY-MM-DD; default today (UTC).'),
    period: rangeField('period', `${Object.keys(PERIODS).join(', ')}: the last N days to today; overrides the dates.`),
    platform: queryRuledBy(parsePlatformFilter, 'Comma list of networks (default: every network with analytics).'),
    breakdown: queryRuledBy((v) => flagOf('breakdown', v), 'true: add per_platform and per_day.'),
    metrics: queryRuledBy(parseMetrics, `Comma list of ${HISTORY_METRICS.join(', ')}: answer \`metrics\` instead of \`total_impressions\`.`),
  }),
  responses: {
    200: {
      description: 'The sums over the range.',
      schema: ok({
        profile_username: z.string(), start_date: z.string(), end_date: z.string(),
        total_impressions: z.number().optional(), metrics: Figures.optional(),
        platforms_filter: z.array(z.string()).nullable(),
        per_platform: PerPlatform.optional(),
        per_day: z.array(z.looseObject({ date: z.string(), total_impressions: z.number().optional(), metrics: Figures.optional(), per_platform: PerPlatform })).optional(),
      }),
    },
  },
  errors: { 400: 'invalid_date (not YYYY-MM-DD, start after end, over 366 days), invalid_period, invalid_metric, invalid_platform.', 404: 'PROFILE_NOT_FOUND.' },
});

export const listCachedPostAnalytics = operation({
  id: 'listCachedPostAnalytics', method: 'get', path: '/svc/post-analytics/cached', tags: ['analytics'],
  summary: 'Post metrics fetched before (not rate limited)',
  description: 'The last metrics fetched for each post (by GET /post-analytics or GET /post-analytics/{request_id}), newest first (captured_at, then the post), up to 200 a page; `captured_at` says when each was read, and a post fetched again moves to the top. Paged by cursor: send the previous page\'s `pagination.next_cursor` as `cursor`, with the same platform, since and until, until it is null (has_more false); every page costs the same however deep, and rows captured meanwhile never shift it. A cursor sent with other filters (or not issued here) is refused with 400 invalid_cursor. Not subject to the live endpoint\'s 100-per-5-minutes limit. Errors: 400 invalid_limit, invalid_date, invalid_cursor, invalid_platform.',
  auth: 'apiKey',
  query: z.object({
    platform: queryRuledBy(CACHED_QUERY.platform, 'Only this network.'),
    since: queryRuledBy(CACHED_QUERY.since, 'ISO-8601: captured at or after (exact, to the millisecond).'),
    until: queryRuledBy(CACHED_QUERY.until, 'ISO-8601: captured before (exact, to the millisecond).'),
    cursor: z.string().optional().describe('Opaque: pagination.next_cursor of the previous page, unchanged, with the same platform, since and until (else 400 invalid_cursor). Omit it for the newest rows.'),
    limit: queryRuledBy(CACHED_QUERY.limit, `1-${CACHED_PAGE_MAX} (default ${CACHED_PAGE_MAX}; more is clamped).`),
  }),
  responses: {
    200: {
      description: 'One page.',
      schema: ok({
        posts: z.array(z.object({
          platform: z.string(), platform_post_id: z.string(), profile_username: z.string(), source: z.enum(['organic', 'api_uploaded']),
          request_id: z.string().optional(), post_metrics: z.record(z.string(), z.unknown()), captured_at: z.string(),
        })),
        pagination: z.object({
          limit: z.number(),
          next_cursor: z.string().nullable().describe('The cursor of the next page (send it as `cursor`); null on the last page.'),
          has_more: z.boolean(),
        }),
      }),
    },
  },
  errors: { 400: 'invalid_limit, invalid_date, invalid_cursor, invalid_platform.' },
});

export const getLivePostAnalytics = operation({
  id: 'getLivePostAnalytics', method: 'get', path: '/svc/post-analytics', tags: ['analytics'],
  summary: 'Live metrics of any post',
  description: 'Reads a post\'s metrics from the network now (or from a cache of a minute), as the profile\'s connected account: `source` api_uploaded (with request_id) when a Herald upload published it, else organic. ' + NETWORKS.filter((n) => n.descriptor.analytics?.livePostMetrics).map((n) => n.id).join(', ') + '; reddit answers 503. At most 100 requests per 5 minutes per operator account: then 429 post_analytics_rate_limited with Retry-After (read GET /post-analytics/cached instead). A network\'s refusal is post_metrics_error in a 200. Errors: 400 missing_parameter, platform_not_supported, not_connected, tiktok_reconnect_required; 404 PROFILE_NOT_FOUND; 429; 503 reddit_unavailable.',
  auth: 'apiKey',
  query: z.object({
    platform_post_id: z.string().optional().describe('The post id on the network (required).'),
    platform: z.string().optional().describe('The network (required).'),
    user: z.string().optional().describe('The profile whose connected account reads it (required).'),
  }),
  responses: {
    200: {
      description: 'The post and its metrics.',
      schema: ok({
        post: z.object({ platform_post_id: z.string(), platform: z.string(), profile_username: z.string(), source: z.enum(['organic', 'api_uploaded']), request_id: z.string().optional() }),
        platforms: z.record(z.string(), z.looseObject({
          post_metrics: PostMetrics, post_metrics_source: Source, post_metrics_error: z.string().nullable(), captured_at: z.string().nullable(),
          available_metrics: z.array(z.string()), metric_labels: z.record(z.string(), z.string()), primary_impressions_field: z.string(),
        })),
      }),
    },
  },
  errors: { 400: 'missing_parameter, platform_not_supported, not_connected, tiktok_reconnect_required.', 404: 'PROFILE_NOT_FOUND.', 429: 'post_analytics_rate_limited (Retry-After).', 503: 'reddit_unavailable.' },
  mcp: { readOnly: true },
});

export const getPostAnalyticsByRequest = operation({
  id: 'getPostAnalyticsByRequest', method: 'get', path: '/svc/post-analytics/{request_id}', tags: ['analytics'],
  summary: 'Analytics of an upload, per network',
  description: 'For an upload: the post (title, caption, media type, time) and per targeted network its result (success, platform_post_id, post_url), its live metrics (cached a minute; post_metrics_error says why when they could not be read) and the profile\'s stored snapshots on the post\'s day and the latest one. Errors: 400 invalid_platform; 404 UPLOAD_NOT_FOUND, PLATFORM_NOT_IN_UPLOAD.',
  auth: 'apiKey',
  params: z.object({ request_id: z.string().min(1).max(255) }),
  query: z.object({ platform: z.string().optional().describe('Only this network of the upload.') }),
  responses: {
    200: {
      description: 'The post and its networks.',
      schema: ok({
        post: z.object({ request_id: z.string(), profile_username: z.string(), post_title: z.string(), post_caption: z.string(), media_type: z.string(), upload_timestamp: z.string() }),
        platforms: z.record(z.string(), z.object({
          success: z.boolean(), platform_post_id: z.string().nullable(), post_url: z.string().nullable(), post_metrics: PostMetrics,
          post_metrics_source: Source, post_metrics_error: z.string().nullable(),
          profile_snapshot_at_post_date: Snapshot, profile_snapshot_latest: Snapshot, profile_snapshot_latest_date: z.string().nullable(),
        })),
      }),
    },
  },
  errors: { 400: 'invalid_platform.', 404: 'UPLOAD_NOT_FOUND, PLATFORM_NOT_IN_UPLOAD.' },
});

export const analyticsHistoryOperations = [getTotalImpressions, listCachedPostAnalytics, getLivePostAnalytics, getPostAnalyticsByRequest];
