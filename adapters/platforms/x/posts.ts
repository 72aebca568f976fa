/**
 * Changes to a published X post (docs.x.com/x-api/fundamentals/edit-posts, posts/delete,
 * users/retweets): an edit is a new post (`POST /2/tweets` with `edit_options.previous_post_id`)
 * within 30 minutes of the original, at most 5 times, for Premium subscribers; X's own answers are
 * read first (`subscription_type`, the post's `edit_controls`) so each refusal says which rule it is.
 * Delete (`DELETE /2/tweets/:id`, the whole edit chain goes) and repost (`POST /2/users/:id/retweets`).
 */
import { PlatformError } from '../../../core/domain/errors';
import type { CallContext, PostEditor } from '../../../core/ports/platform';
import { isObject, str } from '../kit/http';
import type { XClient } from './client';

const NUMERIC = /^[0-9]{1,19}$/;

export function createXPostEditor(client: XClient): PostEditor {
  const refuse = (code: string, message: string) => new PlatformError('x', { kind: 'rejected', code }, message);
  const postId = (id: string) => {
    if (!NUMERIC.test(id)) throw new PlatformError('x', { kind: 'invalid_content', code: 'invalid_post_id' }, 'An X post id is a number (the digits at the end of its URL).');
    return id;
  };
  const urlOf = (ctx: CallContext, id: string) =>
    ctx.credentials.username ? `https://x.com/${ctx.credentials.username}/status/${id}` : `https://x.com/i/web/status/${id}`;

  /** The post with its edit controls; X answers an unknown post with 200 and `errors`. */
  async function readPost(ctx: CallContext, token: string, id: string) {
    const { body } = await client.api(token, 'GET', `/2/tweets/${id}`, { query: { 'tweet.fields': 'author_id,created_at,edit_controls' }, signal: ctx.signal });
    if (!isObject(body.data)) throw refuse('not_found', `X has no post ${id} (deleted, or never there).`);
    return body.data;
  }

  return {
    async edit(ctx, post, changes) {
      const text = changes.text ?? changes.title;
      if (text === undefined) throw new PlatformError('x', { kind: 'invalid_content', code: 'nothing_to_update' }, 'Nothing to update: an X edit changes the text; send it.');
      const token = client.accessToken(ctx);
      const id = postId(post.id);
      const me = await client.apiData(token, 'GET', '/2/users/me', 'the user', { query: { 'user.fields': 'subscription_type' }, signal: ctx.signal });
      if (str(me.subscription_type) === 'None') throw refuse('premium_required', 'Editing posts through the X API needs an X Premium subscription on the account.');
      const current = await readPost(ctx, token, id);
      if (ctx.credentials.user_id && str(current.author_id) && current.author_id !== ctx.credentials.user_id) {
        throw refuse('not_owner', `Post ${id} belongs to another X account: only the account's own posts can be edited.`);
      }
      const controls = isObject(current.edit_controls) ? current.edit_controls : {};
      const history = Array.isArray(current.edit_history_tweet_ids) ? current.edit_history_tweet_ids.map(String) : [id];
      if (history[history.length - 1] !== id) throw refuse('edit_window_closed', `Post ${id} was edited already: edit its latest version ${history[history.length - 1]}.`);
      if (controls.is_edit_eligible === false) throw refuse('edit_window_closed', `X says post ${id} cannot be edited (replies to others, polls, reposts and scheduled posts cannot).`);
      const until = str(controls.editable_until);
      if (until && Date.parse(until) <= client.now().getTime()) throw refuse('edit_window_closed', `The 30-minute edit window of post ${id} closed at ${until}.`);
      if (typeof controls.edits_remaining === 'number' && controls.edits_remaining <= 0) throw refuse('edit_limit_reached', `Post ${id} was edited 5 times, X's maximum.`);

      const data = await client.apiData(token, 'POST', '/2/tweets', 'the edited post', { json: { text, edit_options: { previous_post_id: id } }, signal: ctx.signal });
      const newId = str(data.id);
      if (!newId) throw client.failure({ kind: 'malformed', status: 201, what: 'the edited post id' });
      const editHistory = Array.isArray(data.edit_history_tweet_ids) ? data.edit_history_tweet_ids.map(String) : [...history, newId];
      return { id: newId, url: urlOf(ctx, newId), previousId: id, editHistory, updated: ['message'], ...(post.extra ? { extra: post.extra } : {}) };
    },
    async unpublish(ctx, post) {
      const token = client.accessToken(ctx);
      const { body } = await client.api(token, 'DELETE', `/2/tweets/${postId(post.id)}`, { signal: ctx.signal });
      if (!isObject(body.data) || body.data.deleted !== true) throw client.failure({ kind: 'malformed', status: 200, what: 'deleted: true' });
    },
    async repost(ctx, post) {
      const token = client.accessToken(ctx);
      const userId = ctx.credentials.user_id;
      if (!userId) throw new PlatformError('x', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored X credentials lack the user id; reconnect the account.');
      const data = await client.apiData(token, 'POST', `/2/users/${encodeURIComponent(userId)}/retweets`, 'the repost', { json: { tweet_id: postId(post.id) }, signal: ctx.signal });
      if (data.retweeted !== true) throw client.failure({ kind: 'malformed', status: 200, what: 'retweeted: true' });
      // X answers the repost's own id in newer API versions only; otherwise the reposted post stands for it.
      const id = str(data.id) ?? str(data.rest_id) ?? post.id;
      return { id, url: urlOf(ctx, id) };
    },
  };
}
