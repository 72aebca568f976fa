import { z } from 'zod';
import { invalidInput } from '../../../core/domain/errors';
import { NETWORKS } from '../../../adapters/platforms';
import { networksWith } from './settings';
import { operation, ruledBy } from './types';
import { ok, Platform, ProfileUsername } from './common';

/** Analytics: live account metrics per network, the metric catalogue, TikTok audience and suggestions. */

/** The query parameters of GET /analytics the networks declare (their descriptors' `analytics.accountTarget` and `analytics.days`). */
function networkAnalyticsParams(): Record<string, z.ZodType> {
  const shape: Record<string, z.ZodType> = {};
  const withDays = NETWORKS.flatMap((n) => (n.descriptor.analytics?.days ? [[n.descriptor.displayName, n.descriptor.analytics.days] as const] : []));
  if (withDays.length) {
    const read = withDays.map(([name, d]) => `${name} ${d.min}-${d.max}, default ${d.default}`).join('; ');
    shape.days = z.string().optional().describe(`Read for these networks only: ${read}. Other networks answer the last 30 days.`);
  }
  for (const n of NETWORKS) {
    const target = n.descriptor.analytics?.accountTarget;
    if (target) shape[target.param] = z.string().optional().describe(`${n.descriptor.displayName}: ${target.description}`);
  }
  return shape;
}

const TimeSeries = z.array(z.object({ date: z.string().describe('YYYY-MM-DD (UTC).'), value: z.number() }));
const Demographics = z.object({
  age: z.record(z.string(), z.number()).optional(), gender: z.record(z.string(), z.number()).optional().describe('F, M, U.'),
  country: z.record(z.string(), z.number()).optional().describe('ISO 3166-1 alpha-2 codes.'), city: z.record(z.string(), z.number()).optional(),
}).describe('Counts per bucket; an empty object below Meta\'s thresholds (about 100 followers / engaged accounts).');
const Catalogue = {
  metric_type: z.enum(['reach', 'views', 'impressions', 'score']),
  primary_impressions_field: z.string().describe('The metric that is this network\'s impressions figure.'),
  available_metrics: z.array(z.string()),
  metric_labels: z.record(z.string(), z.string()),
};
const PlatformAnalytics = z.looseObject({
  success: z.boolean().describe('false: `error_code` and `message` say why (not connected, no analytics on this network, reddit, the network refused).'),
  error_code: z.string().optional(), message: z.string().optional(),
  followers: z.number().nullable().optional(), reach: z.number().nullable().optional(), views: z.number().nullable().optional(),
  impressions: z.number().nullable().optional().describe('Alias of views on instagram, youtube, tiktok.'),
  profileViews: z.number().nullable().optional(), likes: z.number().nullable().optional(), comments: z.number().nullable().optional(),
  shares: z.number().nullable().optional(), saves: z.number().nullable().optional(), engagement: z.number().nullable().optional(),
  following: z.number().nullable().optional(), posts_count: z.number().nullable().optional(), quotes: z.number().nullable().optional(),
  pin_clicks: z.number().nullable().optional(), outbound_clicks: z.number().nullable().optional(),
  website_clicks: z.number().nullable().optional(), call_clicks: z.number().nullable().optional(), direction_requests: z.number().nullable().optional(),
  conversations: z.number().nullable().optional(), bookings: z.number().nullable().optional().describe('google_business customer actions (an extension).'),
  watch_time_minutes: z.number().nullable().optional(), average_view_duration_seconds: z.number().nullable().optional(),
  reach_timeseries: TimeSeries.optional(), impressions_timeseries: TimeSeries.optional(), period_days: z.number().optional(),
  follower_demographics: Demographics.optional(), engaged_audience_demographics: Demographics.optional(),
  metric_type: Catalogue.metric_type.optional(), primary_impressions_field: z.string().optional(),
  available_metrics: z.array(z.string()).optional(), metric_labels: z.record(z.string(), z.string()).optional(),
});

export const getProfileAnalytics = operation({
  id: 'getProfileAnalytics', method: 'get', path: '/analytics/{username}', tags: ['analytics'],
  summary: 'Profile analytics per network',
  description: 'Live account metrics of a profile\'s connected accounts, one entry per requested platform (followers, reach, views, impressions, likes, comments, shares, saves, series, Instagram demographics, the network\'s metric catalogue). Answers are cached for a few minutes. A platform that is not connected, has no analytics (' + networksWith('analytics').cannot.join(', ') + '), is reddit, or refuses the call gets `success: false` with `error_code` and `message` instead of failing the request. Errors: 400 missing or unknown platforms, Facebook without page_id, days outside 1-365; 404 PROFILE_NOT_FOUND.',
  auth: 'apiKey',
  params: z.object({ username: ProfileUsername }),
  query: z.object({
    // Which networks have analytics is the registry's: the core checks the list (invalid_platforms) and the fields of the networks it names.
    platforms: z.string().optional().describe(`Comma list (required; alias platform): ${networksWith('analytics').can.join(', ')}.`),
    platform: z.string().optional().describe('Alias of platforms.'),
    ...networkAnalyticsParams(),
  }),
  responses: { 200: { description: 'An object keyed by platform.', schema: z.record(z.string(), PlatformAnalytics) } },
  errors: { 400: 'platforms missing or unknown; page_id missing for facebook; days out of range; page_urn not an organization URN or id.', 404: 'PROFILE_NOT_FOUND.' },
});

export const getPlatformMetrics = operation({
  id: 'getPlatformMetrics', method: 'get', path: '/svc/platform-metrics', tags: ['analytics'],
  summary: 'Metric catalogue per network',
  description: 'For every network with analytics: metric_type, primary_impressions_field, available_metrics and metric_labels of account metrics, the same for post metrics under `post`, and the connection capabilities some operations need (TikTok). Also lists the networks without analytics.',
  auth: 'apiKey',
  responses: {
    200: {
      description: 'The catalogue.',
      schema: ok({
        platforms: z.record(z.string(), z.looseObject({ ...Catalogue, post: z.object(Catalogue), capabilities_required: z.record(z.string(), z.string()).optional() })),
        unsupported_platforms: z.array(z.string()),
      }),
    },
  },
});

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);

const ProfileQuery = {
  profile_username: ruledBy((v, all) => {
    const username = text(v) ?? text(all.user) ?? text(all.profile);
    if (!username) throw invalidInput('profile_username is required.', { violations: [{ field: 'profile_username', message: 'required' }] });
    return username;
  }, ProfileUsername.describe('The profile (required; also `user` or `profile`).')),
  user: z.string().optional().describe('Alias of profile_username.'),
  profile: z.string().optional().describe('Alias of profile_username.'),
  platform: ruledBy((v) => (typeof v === 'string' || v === undefined ? text(v)?.toLowerCase() ?? 'tiktok' : v), Platform.describe('tiktok (the default and, today, the only network with this).')),
};

/** A whole number from 1 to `max` (`fallback` when absent). */
const wholeNumber = (name: string, max: number, fallback?: number) => ruledBy((v) => {
  const raw = typeof v === 'string' || v === undefined ? text(v) : String(v);
  if (raw === undefined) return fallback;
  const n = /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > max) throw invalidInput(`${name} must be a whole number from 1 to ${max}.`, { violations: [{ field: name, message: 'out of range' }] });
  return n;
}, z.int().min(1).max(max).optional());

export const getAudience = operation({
  id: 'getAudience', method: 'get', path: '/svc/audience', tags: ['analytics'],
  summary: 'Audience insights (TikTok)',
  description: 'Audience of the profile\'s TikTok account: range, audience (age, gender, country shares), activity_by_hour, followers_daily, profile_actions, bio_description, benchmark_categories, and benchmark when benchmark_category is sent. Needs the connection capability profile_analytics: without it 400 tiktok_reconnect_required (reconnect the account).',
  auth: 'apiKey',
  query: z.object({
    ...ProfileQuery,
    days: wholeNumber('days', 60, 30).describe('Days up to today, 1-60 (default 30).'),
    benchmark_category: z.string().optional().describe('One of benchmark_categories: adds `benchmark`.'),
  }),
  responses: {
    200: {
      description: 'Audience insights.',
      schema: ok({
        profile_username: z.string(), platform: z.string(),
        range: z.object({ start_date: z.string(), end_date: z.string() }),
        audience: z.object({ age: z.record(z.string(), z.number()), gender: z.record(z.string(), z.number()), country: z.record(z.string(), z.number()) }),
        activity_by_hour: z.array(z.object({ hour: z.number(), value: z.number() })),
        followers_daily: TimeSeries,
        profile_actions: z.record(z.string(), z.number()),
        bio_description: z.string().nullable(),
        benchmark_categories: z.array(z.string()),
        benchmark: z.object({ category: z.string(), metrics: z.record(z.string(), z.number()) }).optional(),
      }),
    },
  },
  errors: { 400: 'profile_username missing; platform without audience insights (platform_not_supported); not_connected; tiktok_reconnect_required.', 404: 'PROFILE_NOT_FOUND.', 409: 'reauth_required.' },
});

export const getSuggestions = operation({
  id: 'getSuggestions', method: 'get', path: '/svc/suggestions', tags: ['analytics'],
  summary: 'Hashtag and keyword suggestions (TikTok)',
  description: 'type=hashtags (capability profile_analytics): hashtags[{name, view_count}] for a keyword; type=keywords (capability trend_search): keywords[{keyword, search_volume}]. A missing capability answers 400 tiktok_reconnect_required.',
  auth: 'apiKey',
  query: z.object({
    ...ProfileQuery,
    type: ruledBy((v) => {
      const type = typeof v === 'string' || v === undefined ? text(v) ?? 'hashtags' : v;
      if (type !== 'hashtags' && type !== 'keywords') throw invalidInput('type must be hashtags or keywords.', { violations: [{ field: 'type', message: 'hashtags or keywords' }] });
      return type;
    }, z.enum(['hashtags', 'keywords']).describe('hashtags (default) or keywords.')),
    keyword: ruledBy((v, all) => {
      const keyword = text(v) ?? text(all.query) ?? text(all.q);
      if (!keyword) throw invalidInput('keyword is required: the word or topic to find suggestions for.', { violations: [{ field: 'keyword', message: 'required' }] });
      return keyword;
    }, z.string().describe('What to find suggestions for (required; also `query` or `q`).')),
    query: z.string().optional().describe('Alias of keyword.'),
    q: z.string().optional().describe('Alias of keyword (the commercial API\'s clients send it).'),
    limit: ruledBy((v) => {
      const raw = typeof v === 'string' || v === undefined ? text(v) : v;
      const limit = raw === undefined ? undefined : Number(raw);
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 50)) throw invalidInput('limit must be a whole number from 1 to 50.', { violations: [{ field: 'limit', message: 'out of range' }] });
      return limit;
    }, z.int().min(1).max(50).optional().describe('1-50, default 10.')),
  }),
  responses: {
    200: {
      description: 'Suggestions.',
      schema: ok({
        profile_username: z.string(), platform: z.string(), type: z.enum(['hashtags', 'keywords']),
        hashtags: z.array(z.object({ name: z.string(), view_count: z.number() })).optional(),
        keywords: z.array(z.object({ keyword: z.string(), search_volume: z.number() })).optional(),
      }),
    },
  },
  errors: { 400: 'type not hashtags/keywords; keyword missing; platform_not_supported; not_connected; tiktok_reconnect_required.', 404: 'PROFILE_NOT_FOUND.', 409: 'reauth_required.' },
});

export const analyticsOperations = [getProfileAnalytics, getPlatformMetrics, getAudience, getSuggestions];
