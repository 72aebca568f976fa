/**
 * Facebook Page insights on the simulator (developers.facebook.com/docs/graph-api/reference/page/insights,
 * /reference/insights, post insights): `GET /{page-id}/insights?metric=…&period=day&since&until`
 * (at most 93 days between since and until, Unix seconds; the `read_insights` permission and the
 * Page's own token), `GET /{page-id}?fields=followers_count,fan_count`, and
 * `GET /{post-id}/insights?metric=post_impressions,post_impressions_unique,post_reactions_like_total`
 * with `GET /{post-id}?fields=shares,comments.summary(true)`, and for videos and reels
 * `GET /{video-id}/video_insights?metric=…` (graph-api/reference/video/video_insights: videos and
 * reels take different metrics, by-type values are objects). Figures come from the seeded model
 * and the Page's posts.
 */
import { addDays, dayOf, type AnalyticsModel, type MetricShape } from '../kit/metrics';
import type { FacebookSimPage, FacebookSimPost, FacebookSimVideo } from './model';

export const FACEBOOK_INSIGHTS_SCOPE = 'read_insights';
export const FACEBOOK_PAGE_SHAPES: Record<string, MetricShape> = {
  page_impressions_unique: { base: [80, 400], perPost: 50 },
  page_impressions: { base: [150, 900], perPost: 120 },
  page_post_engagements: { base: [10, 80], perPost: 12 },
  page_views_total: { base: [5, 60], perPost: 4 },
};
export const FACEBOOK_FOLLOWERS_SHAPE: MetricShape = { base: [200, 3000], perDay: 2, perPost: 3 };
export const FACEBOOK_FANS_SHAPE: MetricShape = { base: [150, 2500], perDay: 1, perPost: 2 };
export const FACEBOOK_POST_SHAPES: Record<string, MetricShape> = {
  post_impressions: { base: [60, 300] }, post_impressions_unique: { base: [40, 200] }, post_reactions_like_total: { base: [2, 20] }, shares: { base: [0, 4] },
};
export const FACEBOOK_VIDEO_SHAPES: Record<string, MetricShape> = {
  impressions: { base: [70, 350] }, reach: { base: [40, 220] }, plays: { base: [90, 500] }, likes: { base: [2, 25] }, loves: { base: [0, 6] }, shares: { base: [0, 5] },
};
/** The metrics video_insights answers, per kind of video (any other is an invalid metric). */
const VIDEO_METRICS: Record<'video' | 'reel', readonly string[]> = {
  video: ['total_video_impressions', 'total_video_impressions_unique', 'total_video_reactions_by_type_total', 'total_video_stories_by_action_type'],
  reel: ['blue_reels_play_count', 'post_impressions_unique', 'post_video_likes_by_reaction_type', 'post_video_social_actions'],
};
const MAX_RANGE_S = 93 * 86400;

export interface FacebookAnalyticsState {
  model: AnalyticsModel;
  posts: () => readonly FacebookSimPost[];
  /** Comments under a post or video (the simulator's comment store). */
  commentCount: (postId: string) => number;
  paramError(message: string): Error | object;
}

export function createFacebookAnalytics(s: FacebookAnalyticsState) {
  const { model } = s;
  const postTimes = (pageId: string) => s.posts().filter((p) => p.pageId === pageId && p.published).map((p) => new Date(p.createdTime.replace('+0000', 'Z')));
  const api = {
    model,
    daily: (pageId: string, metric: string, day: string) => model.daily(pageId, metric, FACEBOOK_PAGE_SHAPES[metric]!, day, postTimes(pageId)),
    total(pageId: string, metric: string, since: string, until: string): number {
      let sum = 0;
      for (let d = since; d <= until; d = addDays(d, 1)) sum += api.daily(pageId, metric, d);
      return sum;
    },
    followers: (pageId: string) => model.level(pageId, 'followers_count', FACEBOOK_FOLLOWERS_SHAPE, model.now(), postTimes(pageId)),
    fans: (pageId: string) => model.level(pageId, 'fan_count', FACEBOOK_FANS_SHAPE, model.now(), postTimes(pageId)),
    postInsights(post: FacebookSimPost): Record<string, number> {
      const at = new Date(post.createdTime.replace('+0000', 'Z'));
      const v = Object.fromEntries(Object.entries(FACEBOOK_POST_SHAPES).map(([name, shape]) => [name, model.post(post.id, name, shape, at)]));
      v.comments = s.commentCount(post.id);
      return v;
    },
    /** A video's figures; the model's clock is its first day (videos keep no creation time here). */
    videoInsights(video: FacebookSimVideo): Record<string, number> {
      const v = Object.fromEntries(Object.entries(FACEBOOK_VIDEO_SHAPES).map(([name, shape]) => [name, model.post(video.id, name, shape, model.now())]));
      v.comments = s.commentCount(video.id);
      return v;
    },
  };

  function videoInsightsAnswer(video: FacebookSimVideo, params: Record<string, string>) {
    const kind = video.kind === 'reel' ? 'reel' : 'video';
    const metrics = (params.metric ?? VIDEO_METRICS[kind].join(',')).split(',').map((m) => m.trim()).filter(Boolean);
    const bad = metrics.find((m) => !VIDEO_METRICS[kind].includes(m));
    if (!metrics.length || bad) throw s.paramError(`The value must be a valid insights metric: ${bad ?? ''}`);
    const v = api.videoInsights(video);
    const values: Record<string, unknown> = {
      total_video_impressions: v.impressions, total_video_impressions_unique: v.reach,
      total_video_reactions_by_type_total: { like: v.likes, love: v.loves },
      total_video_stories_by_action_type: { share: v.shares, like: v.likes! + v.loves!, comment: v.comments },
      blue_reels_play_count: v.plays, post_impressions_unique: v.reach,
      post_video_likes_by_reaction_type: { REACTION_LIKE: v.likes, REACTION_LOVE: v.loves },
      post_video_social_actions: { SHARE: v.shares, COMMENT: v.comments },
    };
    return { data: metrics.map((name) => ({ name, period: 'lifetime', values: [{ value: values[name] }], title: name, id: `${video.id}/video_insights/${name}/lifetime` })) };
  }

  function pageInsights(page: FacebookSimPage, params: Record<string, string>) {
    const metrics = (params.metric ?? '').split(',').map((m) => m.trim()).filter(Boolean);
    if (!metrics.length) throw s.paramError('The parameter metric is required.');
    const unknown = metrics.find((m) => !FACEBOOK_PAGE_SHAPES[m]);
    if (unknown) throw s.paramError(`The value must be a valid insights metric: ${unknown}`);
    if ((params.period ?? 'day') !== 'day') throw s.paramError('period must be day for these metrics.');
    const since = Number(params.since);
    const until = Number(params.until);
    if (!Number.isInteger(since) || !Number.isInteger(until) || until <= since) throw s.paramError('since and until must be Unix timestamps with since before until.');
    if (until - since > MAX_RANGE_S) throw s.paramError('There cannot be more than 93 days (8035200 s) between since and until');
    const first = dayOf(new Date(since * 1000));
    const last = dayOf(new Date(until * 1000 - 1000));
    return {
      data: metrics.map((name) => {
        const values: Array<{ value: number; end_time: string }> = [];
        for (let d = first; d <= last; d = addDays(d, 1)) values.push({ value: api.daily(page.id, name, d), end_time: `${addDays(d, 1)}T00:00:00+0000` });
        return { name, period: 'day', values, title: name, description: `Daily: ${name}`, id: `${page.id}/insights/${name}/day` };
      }),
      paging: { previous: '', next: '' },
    };
  }

  function postInsights(post: FacebookSimPost, params: Record<string, string>) {
    const metrics = (params.metric ?? '').split(',').map((m) => m.trim()).filter(Boolean);
    const allowed = ['post_impressions', 'post_impressions_unique', 'post_reactions_like_total'];
    const bad = metrics.find((m) => !allowed.includes(m));
    if (!metrics.length || bad) throw s.paramError(`The value must be a valid insights metric: ${bad ?? ''}`);
    const v = api.postInsights(post);
    return { data: metrics.map((name) => ({ name, period: 'lifetime', values: [{ value: v[name] }], title: name, id: `${post.id}/insights/${name}/lifetime` })) };
  }

  return {
    ...api,
    /** The answer of `GET /{node}/insights`, or undefined when `node` is neither the page nor its post. */
    insights(page: FacebookSimPage | undefined, post: FacebookSimPost | undefined, params: Record<string, string>): unknown {
      if (page) return pageInsights(page, params);
      if (post) return postInsights(post, params);
      return undefined;
    },
    /** The answer of `GET /{video-id}/video_insights`. */
    videoInsightsAnswer,
    /** Page fields the insights add to `GET /{page-id}`. */
    pageFields: (page: FacebookSimPage) => ({ followers_count: api.followers(page.id), fan_count: api.fans(page.id) }),
    /** Post fields the insights add to `GET /{post-id}`. */
    postFields(post: FacebookSimPost, fields: string[]) {
      const v = api.postInsights(post);
      return {
        ...(fields.includes('shares') ? { shares: { count: v.shares } } : {}),
        ...(fields.some((f) => f.startsWith('comments')) ? { comments: { data: [], summary: { order: 'ranked', total_count: v.comments, can_comment: true } } } : {}),
      };
    },
  };
}
export type FacebookAnalytics = ReturnType<typeof createFacebookAnalytics>;
