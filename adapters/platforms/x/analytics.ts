/**
 * X metrics (docs.x.com/x-api/fundamentals/metrics), with the user's OAuth 2 token (tweet.read,
 * users.read): `GET /2/users/me?user.fields=public_metrics` for followers, following and posts,
 * `GET /2/users/:id/tweets?tweet.fields=public_metrics,non_public_metrics&start_time&end_time
 * &max_results=100` (paged with `pagination_token`) for the window's posts, whose metrics are
 * summed, and `GET /2/tweets/:id` for one post. Non-public metrics (impressions as the author sees
 * them, profile clicks) exist for the author's posts of the last 30 days; X returns the post with a
 * field error otherwise, and the public impression_count is used.
 */
import type { AccountMetrics, Analytics, MetricCatalogue } from '../../../core/ports/platform';
import { isObject, type Json } from '../kit/http';
import { addDays, metricList, numberOr, startOf, valuesFor, windowOf } from '../kit/analytics';
import type { XClient } from './client';

/** Pages of 100 posts read per window at most (X's timeline reaches back 3,200 posts). */
const MAX_PAGES = 32;

export const xCatalogue: MetricCatalogue = {
  metricType: 'impressions',
  primaryImpressionsField: 'impressions',
  postPrimaryImpressionsField: 'impressions',
  account: metricList([
    ['followers', 'Followers'], ['following', 'Following'], ['posts_count', 'Posts'], ['impressions', 'Impressions'],
    ['likes', 'Likes'], ['comments', 'Replies'], ['shares', 'Reposts'], ['quotes', 'Quotes'], ['saves', 'Bookmarks'],
    ['profileViews', 'Profile clicks'], ['engagement', 'Likes, replies, reposts and quotes'],
  ]),
  post: metricList([
    ['impressions', 'Impressions'], ['likes', 'Likes'], ['comments', 'Replies'], ['shares', 'Reposts'], ['quotes', 'Quotes'],
    ['saves', 'Bookmarks'], ['profile_views', 'Profile clicks'], ['engagement', 'Likes, replies, reposts and quotes'],
  ]),
};

interface PostFigures { impressions: number; likes: number; comments: number; shares: number; quotes: number; saves: number; profileClicks: number }

function figuresOf(tweet: Json): PostFigures {
  const pub = isObject(tweet.public_metrics) ? tweet.public_metrics : {};
  const priv = isObject(tweet.non_public_metrics) ? tweet.non_public_metrics : undefined;
  const n = (v: unknown) => numberOr(v) ?? 0;
  return {
    impressions: n(priv?.impression_count ?? pub.impression_count), likes: n(pub.like_count), comments: n(pub.reply_count),
    shares: n(pub.retweet_count), quotes: n(pub.quote_count), saves: n(pub.bookmark_count), profileClicks: n(priv?.user_profile_clicks),
  };
}
const engagement = (f: PostFigures) => f.likes + f.comments + f.shares + f.quotes;

export function createXAnalytics(client: XClient): Analytics {
  return {
    catalogue: xCatalogue,
    async account(ctx, input): Promise<AccountMetrics> {
      const token = client.accessToken(ctx);
      const me = await client.apiData(token, 'GET', '/2/users/me', 'the account', { query: { 'user.fields': 'public_metrics' }, signal: ctx.signal });
      const userMetrics = isObject(me.public_metrics) ? me.public_metrics : {};
      const w = windowOf(input);
      const sum: PostFigures = { impressions: 0, likes: 0, comments: 0, shares: 0, quotes: 0, saves: 0, profileClicks: 0 };
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const { body } = await client.api(token, 'GET', `/2/users/${encodeURIComponent(String(me.id))}/tweets`, {
          query: {
            'tweet.fields': 'created_at,public_metrics,non_public_metrics', max_results: '100',
            start_time: startOf(w.since).toISOString(), end_time: startOf(addDays(w.until, 1)).toISOString(),
            ...(cursor ? { pagination_token: cursor } : {}),
          },
          signal: ctx.signal,
        });
        for (const tweet of (Array.isArray(body.data) ? body.data : []).filter(isObject)) {
          const f = figuresOf(tweet);
          for (const k of Object.keys(sum) as Array<keyof PostFigures>) sum[k] += f[k];
        }
        cursor = isObject(body.meta) && typeof body.meta.next_token === 'string' ? body.meta.next_token : undefined;
        if (!cursor) break;
      }
      return {
        values: valuesFor(xCatalogue.account, {
          followers: numberOr(userMetrics.followers_count), following: numberOr(userMetrics.following_count), posts_count: numberOr(userMetrics.tweet_count),
          impressions: sum.impressions, likes: sum.likes, comments: sum.comments, shares: sum.shares, quotes: sum.quotes, saves: sum.saves,
          profileViews: sum.profileClicks, engagement: engagement(sum),
        }),
      };
    },
    async post(ctx, { post }) {
      const token = client.accessToken(ctx);
      const tweet = await client.apiData(token, 'GET', `/2/tweets/${encodeURIComponent(post.id)}`, 'the post', {
        query: { 'tweet.fields': 'public_metrics,non_public_metrics' }, signal: ctx.signal,
      });
      const f = figuresOf(tweet);
      return {
        values: valuesFor(xCatalogue.post, {
          impressions: f.impressions, likes: f.likes, comments: f.comments, shares: f.shares, quotes: f.quotes, saves: f.saves,
          profile_views: f.profileClicks, engagement: engagement(f),
        }),
      };
    },
  };
}
