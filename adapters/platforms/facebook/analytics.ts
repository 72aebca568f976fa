/**
 * Facebook Page insights (developers.facebook.com/docs/graph-api/reference/page/insights,
 * graph-api/reference/insights), with the Page's own token and the `read_insights` permission:
 * - `GET /{page-id}?fields=followers_count,fan_count`;
 * - `GET /{page-id}/insights?metric=page_impressions_unique,page_impressions,page_post_engagements,
 *   page_views_total&period=day&since&until`, in windows of at most 90 days (Meta allows 93), so the
 *   spec's `days` of up to 365 is read in chunks and the daily values joined;
 * - `GET /{post-id}/insights?metric=post_impressions,post_impressions_unique,post_reactions_like_total`
 *   and `GET /{post-id}?fields=shares,comments.summary(true)` for photo and text posts
 *   (`{page_id}_{post_id}`);
 * - videos and reels (their id is the video id: it names no Page, and a Video node has neither
 *   `insights` nor `shares`): `GET /{video-id}/video_insights?metric=…` (graph-api/reference/video/
 *   video_insights; reels answer their own metrics) after `GET /{video-id}?fields=permalink_url,comments.summary(true)`.
 *   The Page is the one the upload stored (`extra.page_id`), the only connected one, or the video's
 *   owner (`GET /{video-id}?fields=from` with the user token).
 * Reach and impressions are the sums of the daily values over the window (a daily-unique sum
 * overstates unique reach; the spec's note on Facebook says so), with both series and period_days.
 */
import type { AccountMetrics, Analytics, CallContext, MetricCatalogue, PostRef, TimePoint } from '../../../core/ports/platform';
import { isObject, type Json } from '../kit/http';
import { addDays, chunksOf, metricList, numberOr, startOf, sumSeries, valuesFor, windowOf } from '../kit/analytics';
import type { FacebookClient } from './client';
import { choosePage, storedPages } from './pages';

/** Days per insights call: the spec's chunks (Meta's own cap is 93). */
export const FACEBOOK_INSIGHTS_CHUNK_DAYS = 90;
const PAGE_METRICS = ['page_impressions_unique', 'page_impressions', 'page_post_engagements', 'page_views_total'] as const;
const POST_METRICS = ['post_impressions', 'post_impressions_unique', 'post_reactions_like_total'];
const VIDEO_METRICS = ['total_video_impressions', 'total_video_impressions_unique', 'total_video_reactions_by_type_total', 'total_video_stories_by_action_type'];
// Reels count plays where videos count impressions.
const REEL_METRICS = ['blue_reels_play_count', 'post_impressions_unique', 'post_video_likes_by_reaction_type', 'post_video_social_actions'];

export const facebookCatalogue: MetricCatalogue = {
  metricType: 'reach',
  primaryImpressionsField: 'reach',
  postPrimaryImpressionsField: 'impressions',
  account: metricList([
    ['followers', 'Page followers'], ['likes', 'Page likes'], ['reach', 'Reach (daily unique, summed)'], ['impressions', 'Impressions'],
    ['profileViews', 'Page views'], ['engagement', 'Post engagements'],
  ]),
  post: metricList([
    ['impressions', 'Impressions'], ['reach', 'Reach'], ['likes', 'Likes'], ['comments', 'Comments'], ['shares', 'Shares'],
    ['engagement', 'Likes, comments and shares'],
  ]),
};

const seriesOf = (entry: Json | undefined): TimePoint[] =>
  (Array.isArray(entry?.values) ? entry.values.filter(isObject) : []).flatMap((v) => {
    const end = Date.parse(String(v.end_time ?? ''));
    const value = numberOr(v.value);
    return Number.isFinite(end) && value !== null ? [{ date: new Date(end - 1).toISOString().slice(0, 10), value }] : [];
  });
const byName = (body: Json) => new Map((Array.isArray(body.data) ? body.data.filter(isObject) : []).map((e) => [String(e.name), e]));

/** One kind's count in a by-type value (`{like: 3, love: 1}`, `{REACTION_LIKE: 3}`, `{SHARE: 2}`): 0 when the kind is absent, null when the metric is. */
function countOf(value: unknown, kind: string): number | null {
  if (typeof value === 'number') return value;
  if (!isObject(value)) return null;
  const entry = Object.entries(value).find(([k]) => k.toLowerCase().replace(/^reaction_/, '') === kind);
  return entry ? numberOr(entry[1]) : 0;
}

export function createFacebookAnalytics(client: FacebookClient): Analytics {
  const { graph } = client;

  /**
   * The Page a post's metrics are read as. A photo or text post names it (`{page_id}_{post_id}`);
   * a video's id does not, so: the Page the upload stored, the only connected Page, or the Page
   * the video belongs to, asked with the user token (which sees every connected Page's videos).
   */
  async function pageOfPost(ctx: CallContext, post: PostRef, video: boolean) {
    const stored = typeof post.extra?.page_id === 'string' ? post.extra.page_id : undefined;
    if (stored || !video) return choosePage(ctx.credentials, stored ?? post.id.split('_')[0]);
    const userToken = ctx.credentials.user_access_token;
    if (storedPages(ctx.credentials).length <= 1 || !userToken) return choosePage(ctx.credentials);
    const owner = await graph('GET', `/${post.id}`, { fields: 'from' }, { token: userToken, signal: ctx.signal, singlePage: false });
    return choosePage(ctx.credentials, isObject(owner.from) && typeof owner.from.id === 'string' ? owner.from.id : undefined);
  }
  const unix = (day: string) => String(Math.floor(startOf(day).getTime() / 1000));
  return {
    catalogue: facebookCatalogue,
    async account(ctx, input): Promise<AccountMetrics> {
      const { page, singlePage } = choosePage(ctx.credentials, input.target);
      const call = { token: page.token, signal: ctx.signal, singlePage };
      const w = windowOf(input);
      const fields = await graph('GET', `/${page.id}`, { fields: 'followers_count,fan_count' }, call);
      const series: Record<string, TimePoint[]> = Object.fromEntries(PAGE_METRICS.map((m) => [m, []]));
      for (const chunk of chunksOf(w.since, w.until, FACEBOOK_INSIGHTS_CHUNK_DAYS)) {
        const body = byName(await graph('GET', `/${page.id}/insights`, {
          metric: PAGE_METRICS.join(','), period: 'day', since: unix(chunk.since), until: unix(addDays(chunk.until, 1)),
        }, call));
        for (const m of PAGE_METRICS) series[m]!.push(...seriesOf(body.get(m)));
      }
      const reach = series.page_impressions_unique!;
      const impressions = series.page_impressions!;
      return {
        values: valuesFor(facebookCatalogue.account, {
          followers: numberOr(fields.followers_count), likes: numberOr(fields.fan_count), reach: sumSeries(reach),
          impressions: sumSeries(impressions), profileViews: sumSeries(series.page_views_total!), engagement: sumSeries(series.page_post_engagements!),
        }),
        reachTimeseries: reach,
        impressionsTimeseries: impressions,
        periodDays: w.days,
      };
    },
    async post(ctx, { post }) {
      const video = !post.id.includes('_');
      const { page, singlePage } = await pageOfPost(ctx, post, video);
      const call = { token: page.token, signal: ctx.signal, singlePage };
      const lifetime = (insights: Map<string, Json>, name: string) => {
        const v = insights.get(name)?.values;
        return Array.isArray(v) && isObject(v[0]) ? v[0].value : undefined;
      };
      if (video) {
        // A reel asked for video metrics is refused: the stored media type says which, else its permalink (/reel/…).
        const fields = await graph('GET', `/${post.id}`, { fields: 'permalink_url,comments.summary(true).limit(0)' }, call);
        const reel = post.extra?.media_type === 'REELS' || (!post.extra?.media_type && /\/reels?\//.test(String(fields.permalink_url ?? '')));
        const insights = byName(await graph('GET', `/${post.id}/video_insights`, { metric: (reel ? REEL_METRICS : VIDEO_METRICS).join(',') }, call));
        const comments = isObject(fields.comments) && isObject(fields.comments.summary) ? numberOr(fields.comments.summary.total_count) : null;
        const likes = countOf(lifetime(insights, reel ? 'post_video_likes_by_reaction_type' : 'total_video_reactions_by_type_total'), 'like');
        const shares = countOf(lifetime(insights, reel ? 'post_video_social_actions' : 'total_video_stories_by_action_type'), 'share') ?? 0;
        return {
          values: valuesFor(facebookCatalogue.post, {
            impressions: numberOr(lifetime(insights, reel ? 'blue_reels_play_count' : 'total_video_impressions')),
            reach: numberOr(lifetime(insights, reel ? 'post_impressions_unique' : 'total_video_impressions_unique')), likes, comments, shares,
            engagement: (likes ?? 0) + (comments ?? 0) + shares,
          }),
        };
      }
      const insights = byName(await graph('GET', `/${post.id}/insights`, { metric: POST_METRICS.join(',') }, call));
      const fields = await graph('GET', `/${post.id}`, { fields: 'shares,comments.summary(true).limit(0)' }, call);
      const likes = numberOr(lifetime(insights, 'post_reactions_like_total'));
      const comments = isObject(fields.comments) && isObject(fields.comments.summary) ? numberOr(fields.comments.summary.total_count) : null;
      // Facebook leaves `shares` out of a post nobody shared.
      const shares = isObject(fields.shares) ? numberOr(fields.shares.count) : 0;
      return {
        values: valuesFor(facebookCatalogue.post, {
          impressions: numberOr(lifetime(insights, 'post_impressions')), reach: numberOr(lifetime(insights, 'post_impressions_unique')), likes, comments, shares,
          engagement: (likes ?? 0) + (comments ?? 0) + (shares ?? 0),
        }),
      };
    },
  };
}
