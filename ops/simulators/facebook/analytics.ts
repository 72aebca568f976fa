/**
 * Facebook Page insights on the simulator (developers.facebook.com/docs/graph-api/reference/page/insights,
 * /reference/insights, post insights): `GET /{page-id}/insights?metric=…&period=day&since&until`
 * (at most 93 days between since and until, Unix seconds; the `read_insights` permission and the
 * Page's own token), `GET /{page-id}?fields=followers_count,fan_count`, and
 * `GET /{post-id}/insights?metric=post_impressions,post_impressions_unique,post_reactions_like_total`
 * with `GET /{post-id}?fields=shares,comments.summary(true)`. Figures come from the seeded model
 * and the Page's posts.
 */
import { addDays, dayOf, type AnalyticsModel, type MetricShape } from '../kit/metrics';
import type { FacebookSimComment, FacebookSimPage, FacebookSimPost } from './model';

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
const MAX_RANGE_S = 93 * 86400;

export interface FacebookAnalyticsState {
  model: AnalyticsModel;
  posts: () => readonly FacebookSimPost[];
  comments: () => readonly FacebookSimComment[];
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
      v.comments = s.comments().filter((c) => c.objectId === post.id).length;
      return v;
    },
  };

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
