/**
 * Bluesky counts (docs.bsky.app; lexicons app.bsky.actor.getProfile, app.bsky.feed.getAuthorFeed,
 * app.bsky.feed.getPosts) on the account's PDS with its session: followersCount, followsCount and
 * postsCount of the profile; likes, reposts, replies and quotes summed over the window's posts
 * (the author feed, newest first, 100 a page, until a post older than the window); one post's
 * counts from getPosts. Bluesky shows no reach or impressions: its headline figure is engagement
 * (metric_type `score`, like reddit's).
 */
import { PlatformError } from '../../../core/domain/errors';
import type { AccountMetrics, Analytics, MetricCatalogue } from '../../../core/ports/platform';
import { isObject, type Json } from '../kit/http';
import { addDays, metricList, numberOr, startOf, valuesFor, windowOf } from '../kit/analytics';
import type { BlueskyClient } from './client';
import { sessionOf } from './session';

const MAX_PAGES = 20;

export const blueskyCatalogue: MetricCatalogue = {
  metricType: 'score',
  primaryImpressionsField: 'engagement',
  postPrimaryImpressionsField: 'engagement',
  account: metricList([
    ['followers', 'Followers'], ['following', 'Following'], ['posts_count', 'Posts'], ['likes', 'Likes'], ['shares', 'Reposts'],
    ['comments', 'Replies'], ['quotes', 'Quotes'], ['engagement', 'Likes, reposts, replies and quotes'],
  ]),
  post: metricList([['likes', 'Likes'], ['shares', 'Reposts'], ['comments', 'Replies'], ['quotes', 'Quotes'], ['engagement', 'Likes, reposts, replies and quotes']]),
};

const countsOf = (post: Json) => {
  const n = (k: string) => numberOr(post[k]) ?? 0;
  return { likes: n('likeCount'), shares: n('repostCount'), comments: n('replyCount'), quotes: n('quoteCount') };
};
const total = (c: ReturnType<typeof countsOf>) => c.likes + c.shares + c.comments + c.quotes;

export function createBlueskyAnalytics(client: BlueskyClient): Analytics {
  return {
    catalogue: blueskyCatalogue,
    async account(ctx, input): Promise<AccountMetrics> {
      const session = sessionOf(ctx.credentials);
      const { body: profile } = await client.xrpc(session.service, 'app.bsky.actor.getProfile', { method: 'GET', query: { actor: session.did }, token: session.accessJwt, signal: ctx.signal });
      const w = windowOf(input);
      const from = startOf(w.since).getTime();
      const to = startOf(addDays(w.until, 1)).getTime();
      const sum = { likes: 0, shares: 0, comments: 0, quotes: 0 };
      let cursor: string | undefined;
      pages: for (let page = 0; page < MAX_PAGES; page++) {
        const { body } = await client.xrpc(session.service, 'app.bsky.feed.getAuthorFeed', {
          method: 'GET', query: { actor: session.did, limit: '100', filter: 'posts_with_replies', ...(cursor ? { cursor } : {}) }, token: session.accessJwt, signal: ctx.signal,
        });
        for (const item of (Array.isArray(body.feed) ? body.feed.filter(isObject) : [])) {
          const post = isObject(item.post) ? item.post : undefined;
          // Reposts of others' posts appear in the feed with `reason`: not this account's posts.
          if (!post || item.reason !== undefined || (isObject(post.author) && post.author.did !== session.did)) continue;
          const at = Date.parse(String(isObject(post.record) ? post.record.createdAt : post.indexedAt));
          if (at >= to) continue;
          if (at < from) break pages;
          const c = countsOf(post);
          sum.likes += c.likes; sum.shares += c.shares; sum.comments += c.comments; sum.quotes += c.quotes;
        }
        cursor = typeof body.cursor === 'string' ? body.cursor : undefined;
        if (!cursor) break;
      }
      return {
        values: valuesFor(blueskyCatalogue.account, {
          followers: numberOr(profile.followersCount), following: numberOr(profile.followsCount), posts_count: numberOr(profile.postsCount),
          ...sum, engagement: total(sum),
        }),
      };
    },
    async post(ctx, { post }) {
      const session = sessionOf(ctx.credentials);
      const { body } = await client.xrpc(session.service, 'app.bsky.feed.getPosts', { method: 'GET', query: { uris: post.id }, token: session.accessJwt, signal: ctx.signal });
      const found = (Array.isArray(body.posts) ? body.posts.filter(isObject) : []).find((p) => p.uri === post.id);
      if (!found) throw new PlatformError('bluesky', { kind: 'rejected', code: 'not_found' }, `Bluesky: the post ${post.id} was not found.`);
      const c = countsOf(found);
      return { values: valuesFor(blueskyCatalogue.post, { ...c, engagement: total(c) }) };
    },
  };
}
