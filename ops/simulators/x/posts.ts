/**
 * Published-post operations of the X simulator (docs.x.com/x-api/fundamentals/edit-posts,
 * posts/delete, retweets): `POST /2/tweets` with `edit_options.previous_post_id` (a new post id,
 * within 30 minutes of the original, at most 5 edits, Premium accounts only, own posts only; the
 * chain's ids in `edit_history_tweet_ids`), `GET /2/tweets/:id` (with `edit_controls`),
 * `DELETE /2/tweets/:id` (the whole edit chain goes) and `POST /2/users/:id/retweets`.
 */
import type { ServerResponse } from 'node:http';
import { sendJson, type SimRequest } from '../kit/http';
import { problem, type XSimAccount, type XSimTweet } from './fixtures';

export const X_EDIT_WINDOW_MS = 30 * 60_000;
export const X_MAX_EDITS = 5;

export interface XPostsState {
  tweets: XSimTweet[];
  liveId(): string;
  weightedLength(text: string): number;
  forbidden(res: ServerResponse, detail: string): void;
  invalidRequest(res: ServerResponse, message: string, parameters?: Record<string, unknown[]>): void;
}

const notFound = (res: ServerResponse, what: string) =>
  sendJson(res, 404, problem(404, 'Not Found Error', `Could not find ${what}.`, 'https://api.twitter.com/2/problems/resource-not-found'));

/** The first post of a chain and its ids, oldest first. */
function chainOf(tweets: XSimTweet[], tweet: XSimTweet): { origin: XSimTweet; ids: string[] } {
  const origin = tweets.find((t) => t.id === (tweet.edit_history_tweet_ids?.[0] ?? tweet.id)) ?? tweet;
  return { origin, ids: tweet.edit_history_tweet_ids ?? [tweet.id] };
}

function editControls(tweets: XSimTweet[], tweet: XSimTweet) {
  const { origin, ids } = chainOf(tweets, tweet);
  const until = Date.parse(origin.created_at) + X_EDIT_WINDOW_MS;
  const eligible = !tweet.in_reply_to_tweet_id && !tweet.superseded_by;
  return { is_edit_eligible: eligible, editable_until: new Date(until).toISOString(), edits_remaining: Math.max(0, X_MAX_EDITS - (ids.length - 1)) };
}

const view = (tweets: XSimTweet[], t: XSimTweet, fields: string[]) => ({
  id: t.id, text: t.text, edit_history_tweet_ids: chainOf(tweets, t).ids,
  ...(fields.includes('author_id') ? { author_id: t.author_id } : {}),
  ...(fields.includes('created_at') ? { created_at: t.created_at } : {}),
  ...(fields.includes('edit_controls') ? { edit_controls: editControls(tweets, t) } : {}),
});

/** `POST /2/tweets` with edit_options: answers and returns true when the body is an edit. */
export function handleTweetEdit(s: XPostsState, res: ServerResponse, account: XSimAccount, body: Record<string, unknown>): boolean {
  if (body.edit_options === undefined) return false;
  const options = body.edit_options as { previous_post_id?: unknown } | null;
  const unknownKey = Object.keys(body).find((k) => !['text', 'edit_options', 'media'].includes(k));
  if (unknownKey) {
    s.invalidRequest(res, `[${unknownKey}] cannot be changed by an edit.`, { [unknownKey]: [] });
    return true;
  }
  if (!options || typeof options !== 'object' || typeof options.previous_post_id !== 'string') {
    s.invalidRequest(res, 'edit_options.previous_post_id is required.', { 'edit_options.previous_post_id': [] });
    return true;
  }
  const previous = s.tweets.find((t) => t.id === options.previous_post_id && !t.deleted);
  if (!previous) {
    notFound(res, `the post ${options.previous_post_id}`);
    return true;
  }
  if (previous.author_id !== account.id) {
    s.forbidden(res, 'You can only edit your own posts.');
    return true;
  }
  if (!account.premium) {
    s.forbidden(res, 'Editing posts is available to X Premium subscribers only.');
    return true;
  }
  const controls = editControls(s.tweets, previous);
  if (previous.superseded_by) {
    s.forbidden(res, `Post ${previous.id} was edited already; edit its latest version ${previous.superseded_by}.`);
    return true;
  }
  if (!controls.is_edit_eligible) {
    s.forbidden(res, 'This post is not eligible for editing.');
    return true;
  }
  if (Date.parse(controls.editable_until) <= Date.now()) {
    s.forbidden(res, 'The 30-minute edit window of this post has passed.');
    return true;
  }
  if (controls.edits_remaining <= 0) {
    s.forbidden(res, `A post can be edited at most ${X_MAX_EDITS} times.`);
    return true;
  }
  if (body.text !== undefined && typeof body.text !== 'string') {
    s.invalidRequest(res, 'text must be a string.', { text: [] });
    return true;
  }
  const text = (body.text as string | undefined) ?? previous.text;
  if (!text.trim() && !previous.media_ids.length) {
    s.invalidRequest(res, 'You must specify text or media.', { text: [] });
    return true;
  }
  if (s.weightedLength(text) > 25_000) {
    sendJson(res, 400, problem(400, 'Bad Request', 'Your Tweet text is too long.'));
    return true;
  }
  const id = s.liveId();
  const ids = [...chainOf(s.tweets, previous).ids, id];
  const edited: XSimTweet = { ...previous, id, text, created_at: new Date().toISOString(), edit_history_tweet_ids: ids };
  delete edited.superseded_by;
  previous.superseded_by = id;
  for (const t of s.tweets) if (ids.includes(t.id)) t.edit_history_tweet_ids = ids;
  s.tweets.push(edited);
  sendJson(res, 201, { data: { id, text, edit_history_tweet_ids: ids } });
  return true;
}

/** GET/DELETE /2/tweets/:id and POST /2/users/:id/retweets; false when the route is not one of them. */
export function handlePostRoutes(s: XPostsState, req: SimRequest, res: ServerResponse, account: XSimAccount): boolean {
  const one = /^\/2\/tweets\/([0-9]{1,19})$/.exec(req.path);
  if (one && req.method === 'GET') {
    const tweet = s.tweets.find((t) => t.id === one[1] && !t.deleted);
    if (!tweet) {
      sendJson(res, 200, { errors: [{ value: one[1], detail: `Could not find tweet with id: [${one[1]}].`, title: 'Not Found Error', resource_type: 'tweet', parameter: 'id', resource_id: one[1], type: 'https://api.twitter.com/2/problems/resource-not-found' }] });
      return true;
    }
    sendJson(res, 200, { data: view(s.tweets, tweet, (req.query['tweet.fields'] ?? '').split(',')) });
    return true;
  }
  if (one && req.method === 'DELETE') {
    const tweet = s.tweets.find((t) => t.id === one[1] && !t.deleted);
    if (!tweet) {
      notFound(res, `the post ${one[1]}`);
      return true;
    }
    if (tweet.author_id !== account.id) {
      sendJson(res, 403, problem(403, 'Forbidden', 'You are not allowed to delete a Tweet you did not create.', 'https://api.twitter.com/2/problems/not-authorized-for-resource'));
      return true;
    }
    // Deleting any version deletes the whole edit chain (and the reposts of it).
    const ids = chainOf(s.tweets, tweet).ids;
    for (const t of s.tweets) if (ids.includes(t.id) || (t.retweet_of && ids.includes(t.retweet_of))) t.deleted = true;
    sendJson(res, 200, { data: { deleted: true } });
    return true;
  }
  const retweets = /^\/2\/users\/([0-9]+)\/retweets$/.exec(req.path);
  if (retweets && req.method === 'POST') {
    if (retweets[1] !== account.id) {
      s.forbidden(res, 'You are not permitted to repost on behalf of another user.');
      return true;
    }
    const body = req.body.kind === 'json' && req.body.value && typeof req.body.value === 'object' ? req.body.value as Record<string, unknown> : {};
    const target = s.tweets.find((t) => t.id === body.tweet_id && !t.deleted);
    if (typeof body.tweet_id !== 'string' || !target) {
      s.invalidRequest(res, 'tweet_id is not a post you can repost.', { tweet_id: [String(body.tweet_id)] });
      return true;
    }
    const existing = s.tweets.find((t) => t.retweet_of === target.id && t.author_id === account.id && !t.deleted);
    if (existing) {
      // X answers a repeated repost as done (idempotent).
      sendJson(res, 200, { data: { id: existing.id, retweeted: true } });
      return true;
    }
    const id = s.liveId();
    s.tweets.push({ id, author_id: account.id, text: `RT: ${target.text}`, created_at: new Date().toISOString(), conversation_id: id, media_ids: [], retweet_of: target.id });
    sendJson(res, 200, { data: { id, retweeted: true } });
    return true;
  }
  return false;
}
