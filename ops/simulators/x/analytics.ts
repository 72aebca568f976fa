/**
 * X metrics on the simulator (docs.x.com/x-api/fundamentals/metrics): `public_metrics` of the user
 * (`GET /2/users/me?user.fields=public_metrics`: followers_count, following_count, tweet_count,
 * listed_count, like_count), and of posts (`GET /2/users/:id/tweets` with `tweet.fields`,
 * `start_time`, `end_time`, `max_results` 5-100 and `pagination_token`; `GET /2/tweets/:id`):
 * retweet_count, reply_count, like_count, quote_count, bookmark_count, impression_count, and
 * `non_public_metrics` (impression_count, url_link_clicks, user_profile_clicks) for the
 * author's own posts of the last 30 days only, as X answers them. Replies and quotes are the
 * simulator's real posts; the rest is seeded and grows with the days since posting.
 */
import type { ServerResponse } from 'node:http';
import { sendJson } from '../kit/http';
import type { AnalyticsModel, MetricShape } from '../kit/metrics';
import type { XSimAccount, XSimTweet } from './fixtures';

export const X_POST_SHAPES: Record<string, MetricShape> = {
  impression_count: { base: [50, 400] }, like_count: { base: [1, 20] }, retweet_count: { base: [0, 5] }, bookmark_count: { base: [0, 4] },
  url_link_clicks: { base: [0, 10] }, user_profile_clicks: { base: [0, 6] },
};
export const X_USER_SHAPES: Record<string, MetricShape> = {
  followers_count: { base: [100, 4000], perDay: 2, perPost: 3 }, following_count: { base: [50, 800] },
  listed_count: { base: [0, 30] }, like_count: { base: [100, 2000], perDay: 1 },
};
const NON_PUBLIC_DAYS = 30;
export const TWEET_FIELDS = ['id', 'text', 'created_at', 'author_id', 'conversation_id', 'public_metrics', 'non_public_metrics'];

export interface XAnalyticsState {
  model: AnalyticsModel;
  tweets: () => readonly XSimTweet[];
  invalidRequest(res: ServerResponse, message: string, parameters?: Record<string, unknown[]>): void;
  forbidden(res: ServerResponse, detail: string): void;
}

export function createXAnalytics(s: XAnalyticsState) {
  const { model } = s;
  const own = (authorId: string) => s.tweets().filter((t) => t.author_id === authorId);
  const api = {
    model,
    userMetrics(a: XSimAccount): Record<string, number> {
      const times = own(a.id).map((t) => new Date(t.created_at));
      return {
        followers_count: model.level(a.id, 'followers_count', X_USER_SHAPES.followers_count!, model.now(), times),
        following_count: model.level(a.id, 'following_count', X_USER_SHAPES.following_count!, model.now(), []),
        tweet_count: own(a.id).length,
        listed_count: model.level(a.id, 'listed_count', X_USER_SHAPES.listed_count!, model.now(), []),
        like_count: model.level(a.id, 'like_count', X_USER_SHAPES.like_count!, model.now(), []),
        media_count: own(a.id).filter((t) => t.media_ids.length).length,
      };
    },
    publicMetrics(t: XSimTweet): Record<string, number> {
      const at = new Date(t.created_at);
      const v = (m: string) => model.post(t.id, m, X_POST_SHAPES[m]!, at);
      return {
        retweet_count: v('retweet_count'), reply_count: s.tweets().filter((r) => r.in_reply_to_tweet_id === t.id).length,
        like_count: v('like_count'), quote_count: s.tweets().filter((q) => q.quote_tweet_id === t.id).length,
        bookmark_count: v('bookmark_count'), impression_count: v('impression_count'),
      };
    },
    nonPublicMetrics(t: XSimTweet): Record<string, number> {
      const at = new Date(t.created_at);
      return {
        impression_count: model.post(t.id, 'impression_count', X_POST_SHAPES.impression_count!, at),
        url_link_clicks: model.post(t.id, 'url_link_clicks', X_POST_SHAPES.url_link_clicks!, at),
        user_profile_clicks: model.post(t.id, 'user_profile_clicks', X_POST_SHAPES.user_profile_clicks!, at),
      };
    },
  };

  function fieldsOf(res: ServerResponse, raw: string | undefined): string[] | undefined {
    const fields = (raw ?? '').split(',').filter(Boolean);
    const unknown = fields.find((f) => !TWEET_FIELDS.includes(f));
    if (unknown) { s.invalidRequest(res, `The \`tweet.fields\` query parameter value [${unknown}] is not one of [${TWEET_FIELDS.join(',')}]`, { 'tweet.fields': [unknown] }); return undefined; }
    return fields;
  }

  function view(t: XSimTweet, fields: string[], caller: XSimAccount, errors: unknown[]) {
    const out: Record<string, unknown> = { id: t.id, text: t.text, edit_history_tweet_ids: [t.id] };
    if (fields.includes('created_at')) out.created_at = t.created_at;
    if (fields.includes('author_id')) out.author_id = t.author_id;
    if (fields.includes('conversation_id')) out.conversation_id = t.conversation_id;
    if (fields.includes('public_metrics')) out.public_metrics = api.publicMetrics(t);
    if (fields.includes('non_public_metrics')) {
      const fresh = model.now().getTime() - Date.parse(t.created_at) <= NON_PUBLIC_DAYS * 86_400_000;
      if (t.author_id === caller.id && fresh) out.non_public_metrics = api.nonPublicMetrics(t);
      else errors.push({ value: t.id, detail: 'Sorry, you are not authorized to access non_public_metrics on this Tweet.', field: 'non_public_metrics', resource_type: 'tweet', title: 'Field Authorization Error', type: 'https://api.twitter.com/2/problems/not-authorized-for-field' });
    }
    return out;
  }

  return {
    ...api,
    /** GET /2/users/:id/tweets */
    userTweets(res: ServerResponse, caller: XSimAccount, userId: string, q: Record<string, string | undefined>) {
      const fields = fieldsOf(res, q['tweet.fields']);
      if (!fields) return;
      const max = q.max_results === undefined ? 10 : Number(q.max_results);
      if (!Number.isInteger(max) || max < 5 || max > 100) return s.invalidRequest(res, 'The `max_results` query parameter value is not between 5 and 100', { max_results: [q.max_results ?? ''] });
      const start = q.start_time ? Date.parse(q.start_time) : -Infinity;
      const end = q.end_time ? Date.parse(q.end_time) : Infinity;
      if (Number.isNaN(start) || Number.isNaN(end)) return s.invalidRequest(res, 'start_time and end_time must be RFC 3339 dates.');
      const all = own(userId).filter((t) => Date.parse(t.created_at) >= start && Date.parse(t.created_at) < end)
        .sort((a, b) => (BigInt(b.id) > BigInt(a.id) ? 1 : -1));
      const offset = q.pagination_token ? Number(Buffer.from(q.pagination_token, 'base64url').toString()) : 0;
      const page = all.slice(offset, offset + max);
      const errors: unknown[] = [];
      const data = page.map((t) => view(t, fields, caller, errors));
      const next = offset + max < all.length ? Buffer.from(String(offset + max)).toString('base64url') : undefined;
      sendJson(res, 200, {
        ...(data.length ? { data } : {}),
        meta: { result_count: data.length, ...(data.length ? { newest_id: data[0]!.id, oldest_id: data.at(-1)!.id } : {}), ...(next ? { next_token: next } : {}) },
        ...(errors.length ? { errors } : {}),
      });
    },
    /** GET /2/tweets/:id */
    tweet(res: ServerResponse, caller: XSimAccount, id: string, q: Record<string, string | undefined>) {
      const fields = fieldsOf(res, q['tweet.fields']);
      if (!fields) return;
      const t = s.tweets().find((x) => x.id === id);
      if (!t) return sendJson(res, 200, { errors: [{ value: id, detail: `Could not find tweet with id: [${id}].`, title: 'Not Found Error', resource_type: 'tweet', parameter: 'id', type: 'https://api.twitter.com/2/problems/resource-not-found' }] });
      const errors: unknown[] = [];
      const data = view(t, fields, caller, errors);
      sendJson(res, 200, { data, ...(errors.length ? { errors } : {}) });
    },
  };
}
export type XAnalytics = ReturnType<typeof createXAnalytics>;
