/**
 * Replies on Threads (developers.facebook.com/docs/threads/reply-management): a first comment or a
 * comment is a TEXT container with `reply_to_id`, then published; listing reads
 * `GET /{post}/conversation` (every reply, flattened, with `after` cursors), which needs the
 * threads_read_replies permission: without it, only the account's own replies under the post
 * (`GET /{user}/replies`) are listed, with `partial: true` and a warning. Moderation:
 * `POST /{reply}/manage_reply?hide=` and `POST /{reply}/manage_pending_reply?approve=`.
 * Threads has no comment deletion through the API.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { CommentsPage, Comments, PlatformComment, PostRef } from '../../../core/ports/platform';
import { isObject, str, type Json } from '../kit/http';
import { graphCreatedAt } from '../kit/iso-time';
import { invalid, type ThreadsClient } from './client';
import { MAX_TEXT, threadsTextLength } from './limits';

const FIELDS = 'id,text,timestamp,username,replied_to,root_post,is_reply_owned_by_me,hide_status';
const PARTIAL_WARNING = 'Only replies made by this account are listed: the Threads connection lacks the threads_read_replies permission (reconnect the account to grant it).';

function replyOf(raw: Json, post: PostRef): PlatformComment | undefined {
  const id = str(raw.id);
  if (!id) return undefined;
  const parent = isObject(raw.replied_to) ? str(raw.replied_to.id) : undefined;
  const createdAt = graphCreatedAt(raw.timestamp);
  return {
    ref: { id, post },
    text: str(raw.text) ?? '',
    ...(str(raw.username) ? { authorName: str(raw.username)! } : {}),
    ...(createdAt ? { createdAt } : {}),
    ...(parent && parent !== post.id ? { parentId: parent } : {}),
    ...(typeof raw.hide_status === 'string' ? { hidden: raw.hide_status === 'HIDDEN' } : {}),
    ...(typeof raw.is_reply_owned_by_me === 'boolean' ? { isOwner: raw.is_reply_owned_by_me } : {}),
  };
}

const page = (body: Json) => {
  const data = Array.isArray(body.data) ? body.data.filter(isObject) : [];
  const paging = isObject(body.paging) ? body.paging : {};
  const next = paging.next && isObject(paging.cursors) ? str(paging.cursors.after) : undefined;
  return { data, next };
};

export function createThreadsComments(client: ThreadsClient): Comments {
  const { graphCall } = client;
  const { idOf } = client.meta;
  return {
    /** A reply (to the last post of the thread, or to `replyTo`): create a TEXT container with reply_to_id, then publish it. */
    async create(ctx, { post, text, replyTo }) {
      const ids = post.extra?.thread_post_ids;
      const last = replyTo?.id ?? (Array.isArray(ids) && typeof ids[ids.length - 1] === 'string' ? (ids[ids.length - 1] as string) : post.id);
      if (!last) return { warnings: ['The first comment was skipped: the Threads post id is not known yet.'] };
      const length = threadsTextLength(text);
      if (!text.trim() || length > MAX_TEXT) throw invalid(`A Threads reply has 1 to ${MAX_TEXT} characters; this one has ${length}.`, 'text_too_long');
      const { token, userId } = client.account(ctx.credentials);
      const container = idOf(await graphCall('POST', `/${encodeURIComponent(userId)}/threads`,
        { media_type: 'TEXT', text, reply_to_id: last }, token, 'a container id', ctx.signal), 'a container id');
      const reply = await graphCall('POST', `/${encodeURIComponent(userId)}/threads_publish`, { creation_id: container }, token, 'the reply id', ctx.signal);
      return { comment: { id: idOf(reply, 'the reply id'), post } };
    },

    async list(ctx, post, request = {}): Promise<CommentsPage> {
      const { token, userId } = client.account(ctx.credentials);
      const params = { fields: FIELDS, limit: String(request.limit ?? 25), ...(request.cursor ? { after: request.cursor } : {}) };
      try {
        const { data, next } = page(await graphCall('GET', `/${encodeURIComponent(post.id)}/conversation`, { ...params, reverse: 'false' }, token, 'the replies', ctx.signal));
        return { items: data.flatMap((r) => replyOf(r, post) ?? []), ...(next ? { cursor: next } : {}) };
      } catch (err) {
        if (!(err instanceof PlatformError && err.failure.kind === 'rejected' && err.failure.code === 'permission_denied')) throw err;
      }
      const { data, next } = page(await graphCall('GET', `/${encodeURIComponent(userId)}/replies`, params, token, 'the replies', ctx.signal));
      const mine = data.filter((r) => isObject(r.root_post) && str(r.root_post.id) === post.id);
      return { items: mine.flatMap((r) => replyOf(r, post) ?? []), ...(next ? { cursor: next } : {}), partial: true, warnings: [PARTIAL_WARNING] };
    },

    async act(ctx, { action, comment }) {
      const { token } = client.account(ctx.credentials);
      const node = `/${encodeURIComponent(comment!.id)}`;
      switch (action) {
        case 'hide': case 'unhide':
          await graphCall('POST', `${node}/manage_reply`, { hide: String(action === 'hide') }, token, 'the hide answer', ctx.signal);
          return;
        case 'approve': case 'ignore':
          await graphCall('POST', `${node}/manage_pending_reply`, { approve: String(action === 'approve') }, token, 'the approval answer', ctx.signal);
          return;
        default:
          throw new PlatformError('threads', { kind: 'unsupported' }, `Threads has no ${action} action on replies.`);
      }
    },
  };
}
