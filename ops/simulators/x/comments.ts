/**
 * What X offers for comments, on the simulator (docs.x.com/x-api/posts/timelines/api-reference/
 * get-users-id-mentions, posts/manage-tweets/api-reference/delete-tweets-id): the mentions
 * timeline `GET /2/users/:id/mentions` (max_results 5–100, pagination_token, tweet.fields,
 * expansions=author_id with includes.users) — replies to the account's posts mention it — and
 * `DELETE /2/tweets/:id`, the author's only. Other users' replies are seeded with the control route.
 */
import type { ServerResponse } from 'node:http';
import { sendJson, type SimRequest } from '../kit/http';
import { pageOf } from '../kit/comments';
import { problem, type XSimAccount, type XSimTweet } from './fixtures';

export interface XFan { id: string; username: string; name: string }

export interface XCommentDeps {
  tweets: XSimTweet[];
  accounts: Map<string, XSimAccount>;
  /** Other users who reply (seeded). */
  fans: Map<string, XFan>;
  invalidRequest(res: ServerResponse, message: string, parameters?: Record<string, unknown[]>): void;
}

/** Scopes of the routes below (X's authentication mapping). */
export const X_COMMENT_SCOPES: Array<[RegExp, string[]]> = [
  [/^\/2\/users\/[0-9]+\/mentions$/, ['tweet.read', 'users.read']],
  [/^\/2\/tweets\/[0-9]+$/, ['tweet.read', 'tweet.write', 'users.read']],
];

/** Posts by others that mention the account: replies to its posts, or its @handle in the text. Newest first. */
export function mentionsOf(d: XCommentDeps, account: XSimAccount): XSimTweet[] {
  const own = new Set(d.tweets.filter((t) => t.author_id === account.id && !t.deleted).map((t) => t.id));
  const handle = new RegExp(`(^|[^\\w])@${account.username}\\b`, 'i');
  return d.tweets.filter((t) => !t.deleted && t.author_id !== account.id && ((t.in_reply_to_tweet_id && own.has(t.in_reply_to_tweet_id)) || handle.test(t.text))).reverse();
}

/** Answers the call when it is a comment route; false otherwise. */
export function xCommentRoute(d: XCommentDeps, req: SimRequest, res: ServerResponse, caller: XSimAccount): boolean {
  const mentions = /^\/2\/users\/([0-9]+)\/mentions$/.exec(req.path);
  if (mentions && req.method === 'GET') {
    if (mentions[1] !== caller.id) {
      sendJson(res, 403, problem(403, 'Forbidden', 'You can only read the mentions timeline of the authenticated user.', 'https://api.twitter.com/2/problems/not-authorized-for-resource'));
      return true;
    }
    const q = req.query;
    const max = q.max_results === undefined ? 10 : Number(q.max_results);
    if (!Number.isInteger(max) || max < 5 || max > 100) { d.invalidRequest(res, 'The `max_results` query parameter value is not between 5 and 100.', { max_results: [q.max_results ?? ''] }); return true; }
    const page = pageOf(mentionsOf(d, caller), q.pagination_token, max);
    if (!page) { d.invalidRequest(res, 'The `pagination_token` query parameter value is invalid.', { pagination_token: [q.pagination_token ?? ''] }); return true; }
    const fields = new Set((q['tweet.fields'] ?? '').split(',').filter(Boolean));
    const data = page.items.map((t) => ({
      id: t.id, text: t.text, edit_history_tweet_ids: [t.id],
      ...(fields.has('created_at') ? { created_at: t.created_at } : {}),
      ...(fields.has('author_id') ? { author_id: t.author_id } : {}),
      ...(fields.has('conversation_id') ? { conversation_id: t.conversation_id } : {}),
      ...(fields.has('in_reply_to_user_id') && t.in_reply_to_tweet_id ? { in_reply_to_user_id: d.tweets.find((p) => p.id === t.in_reply_to_tweet_id)?.author_id } : {}),
      ...(fields.has('referenced_tweets') && t.in_reply_to_tweet_id ? { referenced_tweets: [{ type: 'replied_to', id: t.in_reply_to_tweet_id }] } : {}),
    }));
    const users = (q.expansions ?? '').split(',').includes('author_id')
      ? [...new Set(page.items.map((t) => t.author_id))].map((id) => d.fans.get(id) ?? d.accounts.get(id)).filter(Boolean).map((u) => ({ id: u!.id, username: u!.username, name: u!.name }))
      : [];
    sendJson(res, 200, {
      ...(data.length ? { data } : {}),
      ...(users.length ? { includes: { users } } : {}),
      meta: { result_count: data.length, ...(data.length ? { newest_id: data[0]!.id, oldest_id: data.at(-1)!.id } : {}), ...(page.next ? { next_token: page.next } : {}) },
    });
    return true;
  }
  // DELETE /2/tweets/:id is the post routes' (posts.ts): a deleted reply is marked, and left out below.
  return false;
}
