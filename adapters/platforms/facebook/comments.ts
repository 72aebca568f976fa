/**
 * Comments under the Page's posts (developers.facebook.com/docs/graph-api/reference/object/comments,
 * reference/comment, reference/object/likes), always with the Page's token: a first comment or a
 * comment is `POST /{object}/comments` (message, attachment_url, attachment_share_url), a reply
 * `POST /{comment}/comments`; `GET /{object}/comments?filter=stream` with `after` cursors;
 * hide with `POST /{comment}?is_hidden=`, edit with `POST /{comment}?message=`, like with
 * `POST|DELETE /{comment}/likes`, `DELETE /{comment}`. Post ids are the video id or
 * `{page_id}_{post_id}`; comment ids `{post_id}_{comment_id}`.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { CallContext, Comments, CommentsPage, PlatformComment, PostRef } from '../../../core/ports/platform';
import { isObject, str, type Json } from '../kit/http';
import { graphCreatedAt } from '../kit/iso-time';
import type { FacebookClient } from './client';
import { choosePage, storedPages } from './pages';
import { facebookPostIds } from './post-ids';

const FIELDS = 'id,message,created_time,from,like_count,comment_count,is_hidden,parent';

function commentOf(raw: Json, post: PostRef): PlatformComment | undefined {
  const id = str(raw.id);
  if (!id) return undefined;
  const from = isObject(raw.from) ? raw.from : {};
  const parent = isObject(raw.parent) ? str(raw.parent.id) : undefined;
  const createdAt = graphCreatedAt(raw.created_time);
  return {
    ref: { id, post },
    text: str(raw.message) ?? '',
    ...(str(from.name) ? { authorName: str(from.name)! } : {}),
    ...(str(from.id) ? { authorId: str(from.id)! } : {}),
    ...(createdAt ? { createdAt } : {}),
    ...(typeof raw.like_count === 'number' ? { likeCount: raw.like_count } : {}),
    ...(typeof raw.comment_count === 'number' ? { replyCount: raw.comment_count } : {}),
    ...(typeof raw.is_hidden === 'boolean' ? { hidden: raw.is_hidden } : {}),
    ...(parent ? { parentId: parent } : {}),
  };
}

export function createFacebookComments(client: FacebookClient): Comments {
  const { graph } = client;
  /** The Page whose token acts on `objectId`: the `{page_id}_` prefix names it; otherwise the only (or first) Page. */
  const pageFor = (ctx: CallContext, objectId: string) => {
    const prefix = objectId.includes('_') ? objectId.split('_')[0] : undefined;
    const known = prefix && storedPages(ctx.credentials).some((p) => p.id === prefix) ? prefix : undefined;
    if (known) return choosePage(ctx.credentials, known);
    const pages = storedPages(ctx.credentials);
    return choosePage(ctx.credentials, pages.length > 1 ? pages[0]!.id : undefined);
  };
  const call = (ctx: CallContext, method: 'GET' | 'POST' | 'DELETE', objectId: string, path: string, params: Record<string, string | undefined>, expect?: string) => {
    const { page, singlePage } = pageFor(ctx, objectId);
    return graph(method, path, params, { token: page.token, signal: ctx.signal, singlePage, ...(expect ? { expect } : {}) });
  };

  return {
    async create(ctx, { post, text, replyTo, attachmentUrl, attachmentShareUrl }) {
      const extra = post.extra ?? {};
      const media = { message: text || undefined, attachment_url: attachmentUrl, attachment_share_url: attachmentShareUrl };
      if (replyTo) {
        const reply = await call(ctx, 'POST', post.id || replyTo.id, `/${replyTo.id}/comments`, media, 'id');
        return { comment: { id: String(reply.id), post } };
      }
      if (!post.id) return { warnings: ['The first comment was skipped: the Facebook post id is not known yet.'] };
      if (extra.media_type === 'STORIES') return { warnings: ['The first comment was skipped: Facebook stories take no comments.'] };
      if (extra.published === false) return { warnings: ['The first comment was skipped: the Facebook post is a draft or unpublished.'] };
      const { page, singlePage } = str(extra.page_id) ? choosePage(ctx.credentials, str(extra.page_id)) : pageFor(ctx, post.id);
      const comment = await graph('POST', `/${post.id}/comments`, media, { token: page.token, signal: ctx.signal, singlePage, expect: 'id' });
      return { comment: { id: String(comment.id), post } };
    },

    async list(ctx, post, page = {}): Promise<CommentsPage> {
      const body = await call(ctx, 'GET', post.id, `/${post.id}/comments`, {
        fields: FIELDS, filter: 'stream', order: 'chronological', limit: String(page.limit ?? 25), after: page.cursor,
      });
      const data = Array.isArray(body.data) ? body.data.filter(isObject) : [];
      const paging = isObject(body.paging) ? body.paging : {};
      const next = paging.next && isObject(paging.cursors) ? str(paging.cursors.after) : undefined;
      return { items: data.flatMap((c) => commentOf(c, post) ?? []), ...(next ? { cursor: next } : {}) };
    },

    async remove(ctx, comment) {
      await call(ctx, 'DELETE', comment.id, `/${comment.id}`, {});
    },

    async act(ctx, { action, comment, message }) {
      const id = comment!.id;
      switch (action) {
        case 'hide': case 'unhide':
          await call(ctx, 'POST', id, `/${id}`, { is_hidden: String(action === 'hide') });
          return;
        case 'like':
          await call(ctx, 'POST', id, `/${id}/likes`, {});
          return;
        case 'unlike':
          await call(ctx, 'DELETE', id, `/${id}/likes`, {});
          return;
        case 'edit':
          await call(ctx, 'POST', id, `/${id}`, { message });
          return;
        default:
          throw new PlatformError('facebook', { kind: 'unsupported' }, `Facebook has no ${action} action on comments.`);
      }
    },

    ...facebookPostIds,
  };
}
