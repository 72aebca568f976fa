/**
 * Comments on X are replies (docs.x.com/x-api/posts/manage-tweets, timelines): a first comment or
 * a comment is `POST /2/tweets` with `reply.in_reply_to_tweet_id`; listing reads the account's
 * mentions timeline `GET /2/users/:id/mentions` (replies to its posts mention it) and keeps those
 * in the post's conversation, marked `source: mentions`; deleting is `DELETE /2/tweets/:id`, the
 * account's own posts only. X has no hiding through this API.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { CommentsPage, Comments, PlatformComment } from '../../../core/ports/platform';
import { isObject, str } from '../kit/http';
import type { XClient } from './client';
import { ids, invalid } from './plan';
import { stripLinks, TWEET_MAX_WEIGHT, xWeightedLength } from './text';

/** The mentions timeline takes 5 to 100 posts a page. */
const clampPage = (limit: number | undefined) => Math.min(Math.max(limit ?? 20, 5), 100);

export function createXComments(client: XClient, opts: { keepLinks: boolean }): Comments {
  const { keepLinks } = opts;
  return {
    async create(ctx, { post, text, replyTo }) {
      const threadIds = ids(post.extra?.post_ids);
      const target = replyTo?.id ?? threadIds[threadIds.length - 1] ?? post.id;
      if (!target) return { warnings: ['The X first comment was skipped: the post id is not known yet.'] };
      const warnings: string[] = [];
      const what = replyTo ? 'X comment' : 'X first comment';
      let comment = text.trim();
      if (!keepLinks) {
        const stripped = stripLinks(comment);
        if (stripped.removed) warnings.push(`${stripped.removed} link(s) were removed from the ${what}.`);
        comment = stripped.text;
      }
      if (!comment) return { warnings: [...warnings, `The ${what} was skipped: it is empty once its links are removed.`] };
      const weight = xWeightedLength(comment);
      if (weight > TWEET_MAX_WEIGHT) throw invalid('text_too_long', `The ${what} counts ${weight} characters; a reply holds at most ${TWEET_MAX_WEIGHT}.`);
      const commentId = await client.createTweet(ctx, client.accessToken(ctx), { text: comment, reply: { in_reply_to_tweet_id: target } });
      return { comment: { id: commentId, post }, warnings };
    },

    async list(ctx, post, page = {}): Promise<CommentsPage> {
      const userId = ctx.credentials.user_id;
      if (!userId) throw new PlatformError('x', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored X credentials lack the user id; reconnect the account.');
      const { body } = await client.api(client.accessToken(ctx), 'GET', `/2/users/${encodeURIComponent(userId)}/mentions`, {
        query: {
          max_results: String(clampPage(page.limit)), 'tweet.fields': 'created_at,author_id,conversation_id,in_reply_to_user_id,referenced_tweets',
          expansions: 'author_id', 'user.fields': 'username,name', ...(page.cursor ? { pagination_token: page.cursor } : {}),
        },
        signal: ctx.signal,
      });
      const users = new Map((isObject(body.includes) && Array.isArray(body.includes.users) ? body.includes.users.filter(isObject) : [])
        .map((u) => [str(u.id) ?? '', u]));
      const items: PlatformComment[] = [];
      for (const t of Array.isArray(body.data) ? body.data.filter(isObject) : []) {
        const id = str(t.id);
        if (!id || (str(t.conversation_id) && str(t.conversation_id) !== post.id)) continue;
        const author = users.get(str(t.author_id) ?? '');
        const replied = Array.isArray(t.referenced_tweets) ? t.referenced_tweets.filter(isObject).find((r) => r.type === 'replied_to') : undefined;
        items.push({
          ref: { id, post },
          text: str(t.text) ?? '',
          ...(author && str(author.username) ? { authorName: str(author.username)! } : {}),
          ...(str(t.author_id) ? { authorId: str(t.author_id)! } : {}),
          ...(str(t.created_at) ? { createdAt: str(t.created_at)! } : {}),
          ...(replied && str(replied.id) && str(replied.id) !== post.id ? { parentId: str(replied.id)! } : {}),
          extra: { source: 'mentions' },
        });
      }
      const meta = isObject(body.meta) ? body.meta : {};
      const next = str(meta.next_token);
      return { items, ...(next ? { cursor: next } : {}) };
    },

    async remove(ctx, comment) {
      await client.api(client.accessToken(ctx), 'DELETE', `/2/tweets/${encodeURIComponent(comment.id)}`, { signal: ctx.signal });
    },

    postIdFromUrl(raw) {
      try {
        const url = new URL(raw);
        if (!/^(www\.|mobile\.)?(x|twitter)\.com$/.test(url.hostname)) return undefined;
        return /^\/[^/]+\/status(?:es)?\/(\d+)/.exec(url.pathname)?.[1];
      } catch {
        return undefined;
      }
    },
  };
}
