/**
 * Threads insights on the simulator (developers.facebook.com/docs/threads/insights), permission
 * `threads_manage_insights`: `GET /{threads-user-id}/threads_insights?metric=views,likes,replies,
 * reposts,quotes,followers_count&since&until` (views as a daily series `values[{value, end_time}]`,
 * the others as `total_value`; since no earlier than 1712991600, Threads' first insights day) and
 * `GET /{media-id}/insights?metric=views,likes,replies,reposts,quotes,shares`. Replies and quotes
 * are the simulator's real posts; the rest is seeded and grows with time and posts.
 */
import type { ServerResponse } from 'node:http';
import { sendJson } from '../kit/http';
import { addDays, dayOf, type AnalyticsModel, type MetricShape } from '../kit/metrics';

export const THREADS_INSIGHTS_SCOPE = 'threads_manage_insights';
export const THREADS_EARLIEST = 1712991600;
export const THREADS_DAILY: Record<string, MetricShape> = {
  views: { base: [50, 500], perPost: 60 }, likes: { base: [5, 50], perPost: 6 }, reposts: { base: [0, 8], perPost: 1 },
};
export const THREADS_FOLLOWERS: MetricShape = { base: [80, 3000], perDay: 1, perPost: 2 };
export const THREADS_POST: Record<string, MetricShape> = { views: { base: [20, 200] }, likes: { base: [1, 20] }, reposts: { base: [0, 4] }, shares: { base: [0, 3] } };

interface Post { id: string; ownerId: string; timestamp: string; replyToId?: string; quotePostId?: string }

export interface ThreadsAnalyticsState {
  model: AnalyticsModel;
  posts: () => Iterable<Post>;
  paramError(res: ServerResponse, message: string): void;
  permissionDenied(res: ServerResponse): void;
}

export function createThreadsAnalytics(s: ThreadsAnalyticsState) {
  const { model } = s;
  const all = () => [...s.posts()];
  const at = (p: Post) => new Date(p.timestamp.replace('+0000', 'Z'));
  const own = (ownerId: string) => all().filter((p) => p.ownerId === ownerId);
  const api = {
    model,
    daily: (ownerId: string, metric: string, day: string) => model.daily(ownerId, metric, THREADS_DAILY[metric]!, day, own(ownerId).map(at)),
    followers: (ownerId: string) => model.level(ownerId, 'followers_count', THREADS_FOLLOWERS, model.now(), own(ownerId).map(at)),
    /** Replies and quotes of the owner's posts made in [since, until] (UTC days). */
    received(ownerId: string, kind: 'replies' | 'quotes', since: string, until: string): number {
      const ids = new Set(own(ownerId).map((p) => p.id));
      return all().filter((p) => (kind === 'replies' ? p.replyToId : p.quotePostId) && ids.has((kind === 'replies' ? p.replyToId : p.quotePostId)!)
        && dayOf(at(p)) >= since && dayOf(at(p)) <= until).length;
    },
    media(p: Post): Record<string, number> {
      const v = Object.fromEntries(Object.entries(THREADS_POST).map(([m, shape]) => [m, model.post(p.id, m, shape, at(p))]));
      v.replies = all().filter((x) => x.replyToId === p.id).length;
      v.quotes = all().filter((x) => x.quotePostId === p.id).length;
      return v;
    },
  };

  function userInsights(res: ServerResponse, ownerId: string, q: Record<string, string>) {
    const metrics = (q.metric ?? '').split(',').filter(Boolean);
    const known = ['views', 'likes', 'replies', 'reposts', 'quotes', 'followers_count'];
    const bad = metrics.find((m) => !known.includes(m));
    if (!metrics.length || bad) return s.paramError(res, `metric must be some of ${known.join(', ')}.`);
    const since = Number(q.since);
    const until = Number(q.until);
    if (!Number.isInteger(since) || !Number.isInteger(until) || until <= since) return s.paramError(res, 'since and until must be Unix timestamps with since before until.');
    if (since < THREADS_EARLIEST) return s.paramError(res, `since cannot be earlier than ${THREADS_EARLIEST}.`);
    const first = dayOf(new Date(since * 1000));
    const last = dayOf(new Date(until * 1000 - 1000));
    const sum = (m: string) => { let t = 0; for (let d = first; d <= last; d = addDays(d, 1)) t += api.daily(ownerId, m, d); return t; };
    const data = metrics.map((name) => {
      const base = { name, period: 'day', title: name, id: `${ownerId}/insights/${name}/day` };
      if (name === 'views') {
        const values: Array<{ value: number; end_time: string }> = [];
        for (let d = first; d <= last; d = addDays(d, 1)) values.push({ value: api.daily(ownerId, 'views', d), end_time: `${addDays(d, 1)}T00:00:00+0000` });
        return { ...base, values };
      }
      const value = name === 'followers_count' ? api.followers(ownerId)
        : name === 'replies' || name === 'quotes' ? api.received(ownerId, name, first, last) : sum(name);
      return { ...base, total_value: { value } };
    });
    sendJson(res, 200, { data });
  }

  return {
    ...api,
    /** `GET /{node}/threads_insights` or `GET /{media}/insights`; false when neither. */
    route(res: ServerResponse, ownerId: string, scopes: readonly string[], node: string, edge: string, q: Record<string, string>): boolean {
      if (edge !== 'threads_insights' && edge !== 'insights') return false;
      if (!scopes.includes(THREADS_INSIGHTS_SCOPE)) { s.permissionDenied(res); return true; }
      if (edge === 'threads_insights' && (node === 'me' || node === ownerId)) { userInsights(res, ownerId, q); return true; }
      const post = all().find((p) => p.id === node && p.ownerId === ownerId);
      if (edge !== 'insights' || !post) return false;
      const metrics = (q.metric ?? '').split(',').filter(Boolean);
      const known = ['views', 'likes', 'replies', 'reposts', 'quotes', 'shares'];
      if (!metrics.length || metrics.some((m) => !known.includes(m))) { s.paramError(res, `metric must be some of ${known.join(', ')}.`); return true; }
      const v = api.media(post);
      sendJson(res, 200, { data: metrics.map((name) => ({ name, period: 'lifetime', values: [{ value: v[name] }], title: name, id: `${post.id}/insights/${name}/lifetime` })) });
      return true;
    },
  };
}
export type ThreadsAnalytics = ReturnType<typeof createThreadsAnalytics>;
