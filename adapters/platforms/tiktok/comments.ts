/**
 * Comments through TikTok API for Business, the only TikTok API that reads and writes comments
 * (business-api.tiktok.com/portal/docs, "Comment", v1.3), every call with an `Access-Token` header
 * and `business_id` (the account's open_id); the connection's token is used for it:
 * `POST /business/comment/create/ {business_id, video_id, text}` (first comments too) and
 * `/business/comment/reply/create/ {…, comment_id}`; `GET /business/comment/list/` and
 * `/business/comment/reply/list/?comment_id=` (offset `cursor`, `max_count` ≤ 30, answering
 * `{comments[], cursor, has_more}`); `POST /business/comment/delete/ {business_id, comment_id}`
 * (own comments only); `/business/comment/hide/` (HIDE/UNHIDE), `/like/` (LIKE/UNLIKE) and `/pin/`
 * (PIN/UNPIN, one pin per video) with `action`. Comments written here show in listings after ~10 s.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { CallContext, Comments, CommentsPage, PlatformComment, PostRef } from '../../../core/ports/platform';
import { exchangeJson, isObject, str, type Json } from '../kit/http';
import type { TikTokClient } from './client';
import { capabilitiesOf } from './connect';
import { chars, invalid } from './validate';

/** API for Business takes up to 1,200 characters of comment text. */
const COMMENT_MAX_CHARS = 1200;
/** The largest page of /business/comment/list/. */
const PAGE_MAX = 30;
const VERBS = { hide: ['hide', 'HIDE'], unhide: ['hide', 'UNHIDE'], like: ['like', 'LIKE'], unlike: ['like', 'UNLIKE'], pin: ['pin', 'PIN'], unpin: ['pin', 'UNPIN'] } as const;

function commentOf(raw: Json, post: PostRef): PlatformComment | undefined {
  const id = str(raw.comment_id);
  if (!id) return undefined;
  const created = typeof raw.create_time === 'number' ? new Date(raw.create_time * 1000).toISOString() : undefined;
  const author = str(raw.username) ?? str(raw.display_name);
  return {
    ref: { id, post }, text: str(raw.text) ?? '',
    ...(author ? { authorName: author } : {}),
    ...(str(raw.user_id) ? { authorId: str(raw.user_id)! } : {}),
    ...(created ? { createdAt: created } : {}),
    ...(typeof raw.likes === 'number' ? { likeCount: raw.likes } : {}),
    ...(typeof raw.replies === 'number' ? { replyCount: raw.replies } : {}),
    hidden: raw.status === 'HIDDEN',
    ...(str(raw.parent_comment_id) ? { parentId: str(raw.parent_comment_id)! } : {}),
    ...(typeof raw.owner === 'boolean' ? { isOwner: raw.owner } : {}),
    extra: { pinned: raw.pinned === true, liked: raw.liked === true },
  };
}

export function createTikTokComments(client: TikTokClient): Comments {
  /** One API for Business call; answers `data`, or throws the mapped failure. */
  const call = async (ctx: CallContext, path: string, payload: Record<string, string | number>, method: 'GET' | 'POST' = 'POST'): Promise<Json> => {
    const params = { business_id: ctx.credentials.open_id ?? '', ...payload };
    const url = `${client.businessBase}/v1.3/business/comment/${path}/`;
    const outcome = await exchangeJson(method === 'GET' ? `${url}?${new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, String(v)]))}` : url, {
      method,
      headers: { 'access-token': client.tokenOf(ctx), accept: 'application/json', ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
      ...(method === 'POST' ? { body: JSON.stringify(params) } : {}),
    }, { fetch: client.bigIdFetch, timeoutMs: client.timeoutMs, signal: ctx.signal });
    if (outcome.kind === 'no_response') throw client.failure(outcome);
    const body = isObject(outcome.body) ? outcome.body : {};
    if (outcome.status < 200 || outcome.status >= 300 || body.code !== 0) throw client.failure(outcome);
    return isObject(body.data) ? body.data : {};
  };
  const checkText = (text: string) => {
    if (chars(text) > COMMENT_MAX_CHARS) throw invalid('text_too_long', `TikTok comments are limited to ${COMMENT_MAX_CHARS} characters; this one has ${chars(text)}.`);
  };

  return {
    async list(ctx, post, page = {}): Promise<CommentsPage> {
      if (page.cursor !== undefined && !/^\d+$/.test(page.cursor)) throw invalid('invalid_cursor', 'This TikTok cursor was not given by a TikTok listing (it is a number).');
      const data = await call(ctx, page.parent ? 'reply/list' : 'list', {
        video_id: post.id, max_count: Math.min(Math.max(page.limit ?? 20, 1), PAGE_MAX),
        ...(page.cursor !== undefined ? { cursor: page.cursor } : {}), ...(page.parent ? { comment_id: page.parent.id } : {}),
      }, 'GET');
      const items = (Array.isArray(data.comments) ? data.comments.filter(isObject) : []).map((c) => commentOf(c, post)).filter((c): c is PlatformComment => !!c);
      const next = data.has_more === true && typeof data.cursor === 'number' ? String(data.cursor) : undefined;
      return { items, ...(next ? { cursor: next } : {}) };
    },

    async remove(ctx, comment) {
      try {
        await call(ctx, 'delete', { comment_id: comment.id });
      } catch (err) {
        // 40001 on delete: the comment is another user's (TikTok deletes only the account's own comments).
        if (err instanceof PlatformError && err.failure.kind === 'rejected' && err.failure.code === '40001') {
          throw new PlatformError('tiktok', { kind: 'rejected', code: 'not_owner' }, `${err.message} TikTok deletes only comments the connected account wrote; hide others' comments instead.`, err.upstream);
        }
        throw err;
      }
    },

    async act(ctx, { action, comment, post }) {
      const verb = (VERBS as Partial<Record<string, readonly [string, string]>>)[action];
      if (!verb || !comment) throw new PlatformError('tiktok', { kind: 'unsupported' }, `TikTok has no ${action} action on comments.`);
      const [path, wire] = verb;
      // like takes no video_id; hide and pin address the comment under its video.
      await call(ctx, path, { comment_id: comment.id, action: wire, ...(path !== 'like' ? { video_id: post?.id ?? comment.post.id } : {}) });
    },

    async create(ctx, { post, text, replyTo }) {
      if (replyTo) {
        checkText(text);
        const data = await call(ctx, 'reply/create', { video_id: post.id, comment_id: replyTo.id, text });
        if (typeof data.comment_id !== 'string') throw client.failure({ kind: 'malformed', status: 200, what: 'a comment_id' });
        return { comment: { id: data.comment_id, post } };
      }
      if (!capabilitiesOf(ctx.credentials).has('comments')) {
        return { warnings: ['The first comment was skipped: this TikTok connection lacks the "comments" capability (reconnect the account to get it).'] };
      }
      const publishId = isObject(post.extra) ? post.extra.publish_id : undefined;
      if (!post.id || post.id === publishId) {
        return { warnings: ['The first comment was skipped: TikTok has not released the post id yet (drafts never get one).'] };
      }
      checkText(text);
      const data = await call(ctx, 'create', { video_id: post.id, text });
      if (typeof data.comment_id !== 'string') throw client.failure({ kind: 'malformed', status: 200, what: 'a comment_id' });
      return { comment: { id: data.comment_id, post } };
    },
  };
}
