/**
 * Comments on the account's own media (developers.facebook.com/docs/instagram-platform/instagram-graph-api/
 * reference/ig-media/comments, ig-comment/replies, comment-moderation; instagram-platform/private-replies):
 * a first comment is `POST /{media}/comments`; created comments are replies (`POST /{comment}/replies`);
 * `GET /{media}/comments` with `after` cursors; hide with `POST /{comment}?hide=`; comments on or off
 * with `POST /{media}?comment_enabled=`; `DELETE /{comment}`; private replies with
 * `POST /{ig-user}/messages` and `recipient={comment_id}`, optionally a button template.
 */
import { PlatformError } from '../../../core/domain/errors';
import { graphCreatedAt } from '../kit/iso-time';
import type { Comments, CommentsPage, PlatformComment, PostRef } from '../../../core/ports/platform';
import type { Json } from '../kit/http';
import { invalid, type InstagramClient } from './client';
import { captionLength, MAX_CAPTION } from './limits';

const ONE = 'id,text,timestamp,username,from,like_count,hidden,parent_id';
/** Top-level comments with their replies expanded (Graph field expansion). */
const FIELDS = `${ONE},replies_count,replies{${ONE}}`;
/** Herald's private replies follow the spec's 24-hour messaging window (Meta itself allows 7 days). */
const PRIVATE_REPLY_WINDOW_MS = 24 * 3600_000;
const MAX_PRIVATE_REPLY = 1000;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : undefined);
const num = (v: unknown): number | undefined => (typeof v === 'number' ? v : undefined);

function commentOf(raw: Json, post: PostRef): PlatformComment | undefined {
  const id = str(raw.id);
  if (!id) return undefined;
  const from = (raw.from && typeof raw.from === 'object' ? raw.from : {}) as Json;
  const parentId = str(raw.parent_id);
  const likes = num(raw.like_count);
  const replies = num(raw.replies_count);
  const authorId = str(from.id);
  const authorName = str(raw.username) ?? str(from.username);
  // The local str: a numeric timestamp is read as its text, as it always was.
  const createdAt = graphCreatedAt(str(raw.timestamp));
  return {
    ref: { id, post },
    text: str(raw.text) ?? '',
    ...(authorName ? { authorName } : {}),
    ...(authorId ? { authorId } : {}),
    ...(createdAt ? { createdAt } : {}),
    ...(likes !== undefined ? { likeCount: likes } : {}),
    ...(replies !== undefined ? { replyCount: replies } : {}),
    ...(typeof raw.hidden === 'boolean' ? { hidden: raw.hidden } : {}),
    ...(parentId ? { parentId } : {}),
  };
}

export function createInstagramComments(client: InstagramClient): Comments {
  const { graphCall, idOf } = client.meta;
  const checkLength = (text: string) => {
    const length = captionLength(text);
    if (length > MAX_CAPTION) throw invalid(`Instagram comments are limited to ${MAX_CAPTION} characters; this one has ${length}.`, 'text_too_long');
  };
  const node = (id: string) => `/${encodeURIComponent(id)}`;

  return {
    async create(ctx, { post, text, replyTo }) {
      const { token } = client.account(ctx.credentials);
      checkLength(text);
      if (replyTo) {
        const reply = await graphCall('POST', `${node(replyTo.id)}/replies`, { message: text }, token, 'the reply id', {}, ctx.signal);
        return { comment: { id: idOf(reply, 'the reply id'), post } };
      }
      if (!post.id) return { warnings: ['The first comment was skipped: the Instagram post id is not known yet.'] };
      // Stories take no comments: asked first so the warning says so instead of Meta's error.
      const media = await graphCall('GET', node(post.id), { fields: 'media_product_type' }, token, 'the media type', {}, ctx.signal);
      if (media.media_product_type === 'STORY') {
        return { warnings: ['The first comment was skipped: Instagram stories take no comments.'] };
      }
      const comment = await graphCall('POST', `${node(post.id)}/comments`, { message: text }, token, 'the comment id', {}, ctx.signal);
      return { comment: { id: idOf(comment, 'the comment id'), post } };
    },

    async list(ctx, post, page = {}): Promise<CommentsPage> {
      const { token } = client.account(ctx.credentials);
      const body = await graphCall('GET', `${node(post.id)}/comments`, {
        fields: FIELDS, limit: String(Math.min(page.limit ?? 25, 50)), ...(page.cursor ? { after: page.cursor } : {}),
      }, token, 'the comments', {}, ctx.signal);
      const data = Array.isArray(body.data) ? body.data as Json[] : [];
      const paging = (body.paging && typeof body.paging === 'object' ? body.paging : {}) as Json;
      const cursors = (paging.cursors && typeof paging.cursors === 'object' ? paging.cursors : {}) as Json;
      // Graph gives `next` only when there is a next page; `after` alone is the last one's end.
      const next = paging.next ? str(cursors.after) : undefined;
      const items = data.flatMap((c) => {
        const replies = c.replies && typeof c.replies === 'object' && Array.isArray((c.replies as Json).data) ? (c.replies as Json).data as Json[] : [];
        return [c, ...replies].flatMap((one) => commentOf(one, post) ?? []);
      });
      return { items, ...(next ? { cursor: next } : {}) };
    },

    async remove(ctx, comment) {
      const { token } = client.account(ctx.credentials);
      await graphCall('DELETE', node(comment.id), {}, token, 'the deletion', {}, ctx.signal);
    },

    async act(ctx, { action, comment, post }) {
      const { token } = client.account(ctx.credentials);
      switch (action) {
        case 'hide':
        case 'unhide':
          await graphCall('POST', node(comment!.id), { hide: String(action === 'hide') }, token, 'the hide answer', {}, ctx.signal);
          return;
        case 'enable_comments':
        case 'disable_comments':
          await graphCall('POST', node(post!.id), { comment_enabled: String(action === 'enable_comments') }, token, 'the comment switch', {}, ctx.signal);
          return;
        default:
          throw new PlatformError('instagram', { kind: 'unsupported' }, `Instagram has no ${action} action on comments.`);
      }
    },

    async privateReply(ctx, { comment, text, buttons }) {
      const { token, igUserId } = client.account(ctx.credentials);
      if ([...text].length > MAX_PRIVATE_REPLY) throw invalid(`Instagram private replies are limited to ${MAX_PRIVATE_REPLY} characters.`, 'text_too_long');
      const read = await graphCall('GET', node(comment.id), { fields: 'id,timestamp' }, token, 'the comment', {}, ctx.signal);
      const writtenAt = Date.parse(String(read.timestamp ?? '').replace(/\+0000$/, 'Z'));
      if (Number.isFinite(writtenAt) && client.now().getTime() - writtenAt > PRIVATE_REPLY_WINDOW_MS) {
        throw invalid('Instagram private replies must be sent within 24 hours of the comment; this comment is older.', 'outside_reply_window');
      }
      const message = buttons?.length
        ? { attachment: { type: 'template', payload: { template_type: 'button', text, buttons: buttons.map((b) => ({ type: 'web_url', url: b.url, title: b.title })) } } }
        : { text };
      const sent = await graphCall('POST', `${node(igUserId)}/messages`, {
        recipient: JSON.stringify({ comment_id: comment.id }), message: JSON.stringify(message),
      }, token, 'the message id', {}, ctx.signal);
      const messageId = str(sent.message_id);
      if (!messageId) throw client.fail({ kind: 'malformed', status: 200, what: 'the message id' });
      return { messageId, ...(str(sent.recipient_id) ? { recipientId: str(sent.recipient_id)! } : {}) };
    },

    postIdFromUrl() {
      // Links carry a shortcode, not the media id the Graph API takes.
      return undefined;
    },
  };
}
