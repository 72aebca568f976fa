/**
 * YouTube analytics: the Data API's `channels.list?part=statistics&mine=true` (subscriberCount,
 * videoCount) and `videos.list?part=statistics,snippet&id=` (viewCount, likeCount, commentCount),
 * and the YouTube Analytics API (developers.google.com/youtube/analytics/reference/reports/query,
 * scope yt-analytics.readonly) on its own host: `GET /v2/reports?ids=channel==MINE&startDate&endDate
 * &metrics=views,estimatedMinutesWatched,averageViewDuration,likes,comments,shares&dimensions=day`
 * for the window, and the same without dimensions and with `filters=video==ID` (from the upload day
 * to today) for a video's watch time. Views are YouTube's impressions (the spec's alias).
 */
import { PlatformError } from '../../../core/domain/errors';
import type { AccountMetrics, Analytics, MetricCatalogue, TimePoint } from '../../../core/ports/platform';
import { exchangeJson, isObject, type Json } from '../kit/http';
import { dayOf, metricList, numberOr, sumSeries, valuesFor, windowOf } from '../kit/analytics';
import type { YoutubeClient } from './client';

export const YOUTUBE_ANALYTICS_API_BASE = 'https://youtubeanalytics.googleapis.com';
const CHANNEL_METRICS = ['views', 'estimatedMinutesWatched', 'likes', 'comments', 'shares'] as const;

export const youtubeCatalogue: MetricCatalogue = {
  metricType: 'views',
  primaryImpressionsField: 'views',
  postPrimaryImpressionsField: 'views',
  account: metricList([
    ['followers', 'Subscribers'], ['posts_count', 'Videos'], ['views', 'Views'], ['impressions', 'Views (impressions)'],
    ['likes', 'Likes'], ['comments', 'Comments'], ['shares', 'Shares'], ['watch_time_minutes', 'Watch time (minutes)'],
    ['average_view_duration_seconds', 'Average view duration (seconds)'],
  ]),
  post: metricList([
    ['views', 'Views'], ['impressions', 'Views (impressions)'], ['likes', 'Likes'], ['comments', 'Comments'], ['shares', 'Shares'],
    ['watch_time_minutes', 'Watch time (minutes)'], ['average_view_duration_seconds', 'Average view duration (seconds)'],
  ]),
};

/** A result table as rows of {column: value}. */
function rowsOf(table: Json): Array<Record<string, unknown>> {
  const headers = Array.isArray(table.columnHeaders) ? table.columnHeaders.filter(isObject).map((h) => String(h.name)) : [];
  return (Array.isArray(table.rows) ? table.rows : []).filter(Array.isArray).map((row: unknown[]) => Object.fromEntries(headers.map((h, i) => [h, row[i]])));
}

export function createYoutubeAnalytics(client: YoutubeClient, opts: { analyticsApiBase: string }): Analytics {
  async function report(token: string, query: Record<string, string>, signal?: AbortSignal): Promise<Array<Record<string, unknown>>> {
    const outcome = await exchangeJson(`${opts.analyticsApiBase}/v2/reports?${new URLSearchParams(query)}`, {
      method: 'GET', headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
    }, { fetch: client.fetch, timeoutMs: client.timeoutMs, signal });
    if (outcome.kind === 'no_response' || outcome.status < 200 || outcome.status >= 300) throw client.failure(outcome);
    if (!isObject(outcome.body)) throw client.failure({ kind: 'malformed', status: outcome.status, what: 'an analytics result table' });
    return rowsOf(outcome.body);
  }

  return {
    catalogue: youtubeCatalogue,
    async account(ctx, input): Promise<AccountMetrics> {
      const token = client.tokenOf(ctx);
      const w = windowOf({ until: input.until, days: input.days });
      const channels = await client.api(token, 'GET', '/youtube/v3/channels?part=statistics&mine=true', undefined, ctx.signal);
      const channel = Array.isArray(channels.items) && isObject(channels.items[0]) ? channels.items[0] : undefined;
      if (!channel) throw new PlatformError('youtube', { kind: 'rejected', code: 'channel_not_found' }, 'YouTube: the connected account has no channel.');
      const stats = isObject(channel.statistics) ? channel.statistics : {};
      const rows = await report(token, {
        ids: 'channel==MINE', startDate: w.since, endDate: w.until, metrics: CHANNEL_METRICS.join(','), dimensions: 'day', sort: 'day',
      }, ctx.signal);
      const series = (m: string): TimePoint[] => rows.map((r) => ({ date: String(r.day), value: numberOr(r[m]) ?? 0 }));
      const views = series('views');
      const minutes = sumSeries(series('estimatedMinutesWatched'));
      const totalViews = sumSeries(views);
      return {
        values: valuesFor(youtubeCatalogue.account, {
          followers: stats.hiddenSubscriberCount === true ? null : numberOr(stats.subscriberCount), posts_count: numberOr(stats.videoCount),
          views: totalViews, impressions: totalViews, likes: sumSeries(series('likes')), comments: sumSeries(series('comments')),
          shares: sumSeries(series('shares')), watch_time_minutes: minutes,
          // Weighted by views over the window, as YouTube computes it for a whole range.
          average_view_duration_seconds: totalViews ? Math.round((minutes * 60) / totalViews) : 0,
        }),
        impressionsTimeseries: views,
      };
    },
    async post(ctx, { post }) {
      const token = client.tokenOf(ctx);
      const list = await client.api(token, 'GET', `/youtube/v3/videos?part=statistics,snippet&id=${encodeURIComponent(post.id)}`, undefined, ctx.signal);
      const video = Array.isArray(list.items) && isObject(list.items[0]) ? list.items[0] : undefined;
      if (!video) throw new PlatformError('youtube', { kind: 'rejected', code: 'not_found' }, `YouTube: video ${post.id} was not found.`);
      const stats = isObject(video.statistics) ? video.statistics : {};
      const published = isObject(video.snippet) && typeof video.snippet.publishedAt === 'string' ? new Date(video.snippet.publishedAt) : client.now();
      const [row] = await report(token, {
        ids: 'channel==MINE', startDate: dayOf(published), endDate: dayOf(client.now()), metrics: 'estimatedMinutesWatched,averageViewDuration,shares',
        filters: `video==${post.id}`,
      }, ctx.signal);
      const views = numberOr(stats.viewCount);
      return {
        values: valuesFor(youtubeCatalogue.post, {
          views, impressions: views, likes: numberOr(stats.likeCount), comments: numberOr(stats.commentCount),
          shares: numberOr(row?.shares), watch_time_minutes: numberOr(row?.estimatedMinutesWatched), average_view_duration_seconds: numberOr(row?.averageViewDuration),
        }),
      };
    },
  };
}
