/**
 * YouTube statistics and YouTube Analytics on the simulator: `statistics` parts of channels.list
 * (viewCount, subscriberCount, hiddenSubscriberCount, videoCount) and videos.list (viewCount,
 * likeCount, favoriteCount, commentCount), and the Analytics API's
 * `GET /v2/reports?ids=channel==MINE&startDate&endDate&metrics&dimensions&filters&sort`
 * (developers.google.com/youtube/analytics/reference/reports/query), answered as a
 * `youtubeAnalytics#resultTable` and needing the yt-analytics.readonly scope. Channel figures are
 * daily seeded values plus what each video adds; a video's figures grow with the days since upload.
 */
import type { ServerResponse } from 'node:http';
import { sendJson } from '../kit/http';
import { addDays, daysBetween, type AnalyticsModel, type MetricShape } from '../kit/metrics';
import type { SimChannel, SimComment, SimVideo } from './types';

export const YOUTUBE_ANALYTICS_SCOPE = 'https://www.googleapis.com/auth/yt-analytics.readonly';
export const YOUTUBE_CHANNEL_SHAPES: Record<string, MetricShape> = {
  views: { base: [100, 800], perPost: 150 },
  estimatedMinutesWatched: { base: [50, 400], perPost: 70 },
  likes: { base: [5, 40], perPost: 6 },
  comments: { base: [0, 8], perPost: 1 },
  shares: { base: [0, 6], perPost: 1 },
  subscribersGained: { base: [0, 12], perPost: 2 },
};
export const YOUTUBE_SUBSCRIBERS: MetricShape = { base: [100, 5000], perDay: 3, perPost: 5 };
export const YOUTUBE_LIFETIME_VIEWS: MetricShape = { base: [10_000, 90_000], perDay: 500, perPost: 150 };
export const YOUTUBE_VIDEO_SHAPES: Record<string, MetricShape> = {
  views: { base: [30, 200] }, likes: { base: [1, 15] }, estimatedMinutesWatched: { base: [10, 100] }, shares: { base: [0, 3] },
};
const REPORT_METRICS = [...Object.keys(YOUTUBE_CHANNEL_SHAPES), 'averageViewDuration'];
const DATE = /^\d{4}-\d{2}-\d{2}$/;

export interface YoutubeAnalyticsState {
  model: AnalyticsModel;
  videos: () => Iterable<SimVideo>;
  comments: () => readonly SimComment[];
  /** Google's error body (wire.ts). */
  apiError(res: ServerResponse, code: number, reason: string, message: string, domain?: string): void;
}

export function createYoutubeAnalytics(s: YoutubeAnalyticsState) {
  const { model, apiError } = s;
  const uploads = (channelId: string) => [...s.videos()].filter((v) => v.channelId === channelId);
  const times = (channelId: string) => uploads(channelId).map((v) => v.createdAt);
  const api = {
    model,
    daily: (channelId: string, metric: string, day: string): number => {
      if (metric === 'averageViewDuration') {
        const views = api.daily(channelId, 'views', day);
        return views ? Math.floor((api.daily(channelId, 'estimatedMinutesWatched', day) * 60) / views) : 0;
      }
      return model.daily(channelId, metric, YOUTUBE_CHANNEL_SHAPES[metric]!, day, times(channelId));
    },
    total(channelId: string, metric: string, since: string, until: string): number {
      if (metric === 'averageViewDuration') {
        const views = api.total(channelId, 'views', since, until);
        return views ? Math.round((api.total(channelId, 'estimatedMinutesWatched', since, until) * 60) / views) : 0;
      }
      let sum = 0;
      for (let d = since; d <= until; d = addDays(d, 1)) sum += api.daily(channelId, metric, d);
      return sum;
    },
    statistics: (channel: SimChannel) => ({
      viewCount: String(model.level(channel.id, 'viewCount', YOUTUBE_LIFETIME_VIEWS, model.now(), times(channel.id))),
      subscriberCount: String(model.level(channel.id, 'subscriberCount', YOUTUBE_SUBSCRIBERS, model.now(), times(channel.id))),
      hiddenSubscriberCount: false,
      videoCount: String(uploads(channel.id).length),
    }),
    /** A video's lifetime figures now (what videos.list statistics and a video==ID report answer). */
    video(v: SimVideo): Record<string, number> {
      const out = Object.fromEntries(Object.entries(YOUTUBE_VIDEO_SHAPES).map(([m, shape]) => [m, model.post(v.id, m, shape, v.createdAt)]));
      out.comments = s.comments().filter((c) => c.videoId === v.id).length;
      out.averageViewDuration = out.views ? Math.round((out.estimatedMinutesWatched! * 60) / out.views) : 0;
      return out;
    },
    videoStatistics(v: SimVideo) {
      const f = api.video(v);
      return { viewCount: String(f.views), likeCount: String(f.likes), favoriteCount: '0', commentCount: String(f.comments) };
    },
  };

  /** GET /v2/reports for `channel` (the token's). */
  function reports(res: ServerResponse, channel: SimChannel, q: Record<string, string | undefined>) {
    const bad = (message: string) => apiError(res, 400, 'badRequest', message, 'global');
    if (q.ids !== 'channel==MINE' && q.ids !== `channel==${channel.id}`) return bad('Invalid value at ids: expected channel==MINE or the channel of the credentials.');
    if (!DATE.test(q.startDate ?? '') || !DATE.test(q.endDate ?? '')) return bad('startDate and endDate are required, YYYY-MM-DD.');
    if (q.endDate! < q.startDate!) return bad('The end date must be on or after the start date.');
    const metrics = (q.metrics ?? '').split(',').filter(Boolean);
    if (!metrics.length) return bad('Required parameter: metrics');
    const unknown = metrics.find((m) => !REPORT_METRICS.includes(m));
    if (unknown) return bad(`Unknown identifier (${unknown}) given in field parameters.metrics.`);
    const dimensions = q.dimensions ?? '';
    if (dimensions !== '' && dimensions !== 'day') return bad(`The query is not supported (dimensions=${dimensions}).`);
    const header = (name: string, type: 'DIMENSION' | 'METRIC') => ({ name, columnType: type, dataType: type === 'DIMENSION' ? 'STRING' : name === 'averageViewDuration' ? 'INTEGER' : 'INTEGER' });
    const filter = /^video==([\w-]+)$/.exec(q.filters ?? '');
    if (q.filters && !filter) return bad(`Invalid filter: ${q.filters}`);
    if (filter) {
      const v = [...s.videos()].find((x) => x.id === filter[1]);
      if (!v || v.channelId !== channel.id) return apiError(res, 403, 'forbidden', 'Forbidden', 'global');
      if (dimensions === 'day') return bad('The simulator answers video reports without dimensions only.');
      const f = api.video(v);
      return sendJson(res, 200, { kind: 'youtubeAnalytics#resultTable', columnHeaders: metrics.map((m) => header(m, 'METRIC')), rows: [metrics.map((m) => f[m] ?? 0)] });
    }
    if (daysBetween(q.startDate!, q.endDate!) > 3660) return bad('The date range is too long.');
    if (dimensions === 'day') {
      const rows: Array<Array<string | number>> = [];
      for (let d = q.startDate!; d <= q.endDate!; d = addDays(d, 1)) rows.push([d, ...metrics.map((m) => api.daily(channel.id, m, d))]);
      if (q.sort === '-day') rows.reverse();
      return sendJson(res, 200, { kind: 'youtubeAnalytics#resultTable', columnHeaders: [header('day', 'DIMENSION'), ...metrics.map((m) => header(m, 'METRIC'))], rows });
    }
    return sendJson(res, 200, {
      kind: 'youtubeAnalytics#resultTable', columnHeaders: metrics.map((m) => header(m, 'METRIC')),
      rows: [metrics.map((m) => api.total(channel.id, m, q.startDate!, q.endDate!))],
    });
  }

  return { ...api, reports };
}
export type YoutubeAnalytics = ReturnType<typeof createYoutubeAnalytics>;
