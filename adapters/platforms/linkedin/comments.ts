/**
 * Comments under LinkedIn organization posts (Community Management API, socialActions comments):
 * `POST /rest/socialActions/{postUrn}/comments` (a first comment or a comment, as the post's
 * author), `POST /rest/socialActions/{commentUrn}/comments` with `parentComment` (a reply: the
 * post is the one the comment URN names), `GET …/comments?start&count` (paged by offset; the
 * cursor is the next start), and `DELETE …/comments/{commentId}?actor=`. Ids are URNs: the post
 * URN, the comment's `urn:li:comment:(postUrn,id)` (or its id). Member posts answer 400: the API
 * moderates organization posts only.
 */
import { codePointLength, type CallContext, type Comments, type CommentsPage } from '../../../core/ports/platform';
import { isObject, str } from '../kit/http';
import type { LinkedInClient } from './client';
import { credentialsMissing, invalid } from './publish';

const COMMENT_MAX_CHARS = 1250;

/** `urn:li:comment:(urn:li:share:1,42)` → `42`; a bare id stays as it is. */
const commentIdOf = (id: string) => /^urn:li:comment:\(.+,([^,)]+)\)$/.exec(id)?.[1] ?? id;
/** `urn:li:comment:(urn:li:share:1,42)` → `urn:li:share:1`; undefined for a bare id. */
const postUrnOfComment = (id: string) => /^urn:li:comment:\((urn:li:[a-zA-Z]+:[^,]+),[^,)]+\)$/.exec(id)?.[1];

export function createLinkedInComments(client: LinkedInClient): Comments {
  const tokenOf = (ctx: CallContext) => {
    const token = ctx.credentials.access_token;
    if (!token) throw credentialsMissing();
    return token;
  };
  /** The post's author: the comment speaks as it, and moderation is for organization posts only. */
  const authorOf = async (ctx: CallContext, postUrn: string, organizationOnly: boolean): Promise<string> => {
    const existing = await client.rest('GET', `/posts/${encodeURIComponent(postUrn)}`, tokenOf(ctx), undefined, ctx.signal);
    const author = isObject(existing.body) && typeof existing.body.author === 'string' ? existing.body.author : ctx.credentials.member_urn ?? '';
    if (organizationOnly && !author.startsWith('urn:li:organization:')) {
      throw invalid('LinkedIn comments can be read and moderated on organization (page) posts only; this post belongs to a member.', 'organization_posts_only');
    }
    return author;
  };

  return {
    async create(ctx, input) {
      const parent = input.replyTo?.id;
      const parentPost = parent !== undefined ? postUrnOfComment(parent) : undefined;
      if (parent !== undefined && !parentPost) {
        throw invalid(`LinkedIn replies name the comment by its URN, urn:li:comment:(<post URN>,<id>); "${parent}" is not one.`, 'invalid_comment_id');
      }
      const postUrn = parentPost ?? input.post.id;
      if (!postUrn) return { warnings: ['The LinkedIn post id is not known yet; the first comment was skipped.'] };
      const token = tokenOf(ctx);
      if (input.text.trim() === '') throw invalid('The first comment is empty.', 'text_empty');
      if (codePointLength(input.text) > COMMENT_MAX_CHARS) throw invalid(`LinkedIn comments are limited to ${COMMENT_MAX_CHARS} characters.`, 'text_too_long');
      const path = `/socialActions/${encodeURIComponent(parent ?? postUrn)}/comments`;
      const actor = await authorOf(ctx, postUrn, false);
      const payload = { actor, object: postUrn, message: { text: input.text }, ...(parent !== undefined ? { parentComment: parent } : {}) };
      const reply = await client.rest('POST', path, token, payload, ctx.signal);
      const body = isObject(reply.body) ? reply.body : {};
      const id = typeof body.$URN === 'string' ? body.$URN : reply.headers.get('x-restli-id');
      if (!id) throw client.malformed(reply.status, 'the comment id');
      return { comment: { id, post: parentPost ? { id: parentPost } : input.post } };
    },

    async list(ctx, post, page = {}): Promise<CommentsPage> {
      await authorOf(ctx, post.id, true);
      const start = page.cursor ? Number(page.cursor) : 0;
      if (!Number.isInteger(start) || start < 0) throw invalid('The LinkedIn comments cursor is not one Herald gave.', 'invalid_cursor');
      const count = Math.min(Math.max(page.limit ?? 10, 1), 100);
      const reply = await client.rest('GET', `/socialActions/${encodeURIComponent(post.id)}/comments?start=${start}&count=${count}`, tokenOf(ctx), undefined, ctx.signal);
      const body = isObject(reply.body) ? reply.body : {};
      const elements = Array.isArray(body.elements) ? body.elements.filter(isObject) : [];
      const paging = isObject(body.paging) ? body.paging : {};
      const total = typeof paging.total === 'number' ? paging.total : start + elements.length;
      const items = elements.flatMap((e) => {
        const id = str(e.$URN) ?? str(e.id);
        if (!id) return [];
        const created = isObject(e.created) ? e.created : {};
        return [{
          ref: { id, post },
          text: isObject(e.message) ? str(e.message.text) ?? '' : '',
          ...(str(e.actor) ? { authorId: str(e.actor)!, authorName: str(e.actor)! } : {}),
          ...(typeof created.time === 'number' ? { createdAt: new Date(created.time).toISOString() } : {}),
        }];
      });
      const next = start + elements.length;
      return { items, ...(elements.length && next < total ? { cursor: String(next) } : {}) };
    },

    async remove(ctx, comment) {
      const postUrn = comment.post.id;
      const actor = await authorOf(ctx, postUrn, true);
      await client.rest('DELETE', `/socialActions/${encodeURIComponent(postUrn)}/comments/${encodeURIComponent(commentIdOf(comment.id))}?actor=${encodeURIComponent(actor)}`,
        tokenOf(ctx), undefined, ctx.signal);
    },

    postIdFromUrl(raw) {
      try {
        const m = /\/feed\/update\/(urn:li:(?:share|ugcPost|activity):\d+)/.exec(new URL(raw).pathname);
        return m?.[1];
      } catch {
        return undefined;
      }
    },
  };
}
