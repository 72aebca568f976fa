/**
 * Comments under the channel's videos (developers.google.com/youtube/v3/docs/commentThreads, comments):
 * a first comment or a comment is a top-level thread (`commentThreads.insert`), a reply
 * `comments.insert` with `snippet.parentId`; listing is `commentThreads.list` (part=snippet,replies,
 * pageToken) or `comments.list?parentId=`; `comments.delete`; moderation is
 * `comments.setModerationStatus`: hide → rejected (with banAuthor), unhide → published,
 * hold → heldForReview.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { CallContext, CommentsPage, Comments, PlatformComment, PostRef } from '../../../core/ports/platform';
import { isObject, str, type Json } from '../kit/http';
import type { YoutubeClient } from './client';

const COMMENT_MAX_CHARS = 10_000;
const MODERATION = { hide: 'rejected', unhide: 'published', hold: 'heldForReview' } as const;

function commentOf(raw: unknown, post: PostRef, replyCount?: number): PlatformComment | undefined {
  if (!isObject(raw)) return undefined;
  const id = str(raw.id);
  const s = isObject(raw.snippet) ? raw.snippet : {};
  if (!id) return undefined;
  const author = isObject(s.authorChannelId) ? str(s.authorChannelId.value) : undefined;
  const status = str(s.moderationStatus);
  return {
    ref: { id, post },
    text: str(s.textOriginal) ?? str(s.textDisplay) ?? '',
    ...(str(s.authorDisplayName) ? { authorName: str(s.authorDisplayName)! } : {}),
    ...(author ? { authorId: author } : {}),
    ...(str(s.publishedAt) ? { createdAt: str(s.publishedAt)! } : {}),
    ...(typeof s.likeCount === 'number' ? { likeCount: s.likeCount } : {}),
    ...(replyCount !== undefined ? { replyCount } : {}),
    ...(str(s.parentId) ? { parentId: str(s.parentId)! } : {}),
    ...(status ? { hidden: status === 'rejected', extra: { moderation_status: status } } : {}),
  };
}

/** Uploads treat 403 `forbidden` as a channel pause; on comments it is the video owner's right the caller lacks. */
function asCommentFailure(err: unknown): unknown {
  if (!(err instanceof PlatformError) || err.failure.kind !== 'restricted') return err;
  const code = err.upstream.code === 'forbidden' ? 'not_owner' : 'permission_denied';
  return new PlatformError('youtube', { kind: 'rejected', code }, err.message.replace(/ The channel does not allow this; it is paused for 24 hours\.$/, ''), err.upstream);
}

export function createYoutubeComments(client: YoutubeClient): Comments {
  const call = async (ctx: CallContext, method: 'GET' | 'POST' | 'DELETE', path: string, payload?: Json): Promise<Json> => {
    try {
      return await client.api(client.tokenOf(ctx), method, path, payload, ctx.signal);
    } catch (err) {
      throw asCommentFailure(err);
    }
  };
  const checkText = (text: string) => {
    if (text.trim() === '') throw new PlatformError('youtube', { kind: 'invalid_content', code: 'text_empty' }, 'The comment is empty.');
    if ([...text].length > COMMENT_MAX_CHARS) {
      throw new PlatformError('youtube', { kind: 'invalid_content', code: 'text_too_long' }, `YouTube comments are at most ${COMMENT_MAX_CHARS} characters.`);
    }
  };

  return {
    async create(ctx, { post, text, replyTo }) {
      if (!replyTo && !post.id) return { warnings: ['The first comment was skipped: the YouTube video id is not known yet.'] };
      checkText(text);
      if (replyTo) {
        const reply = await call(ctx, 'POST', '/youtube/v3/comments?part=snippet', { snippet: { parentId: replyTo.id, textOriginal: text } });
        const id = str(reply.id);
        if (!id) throw client.failure({ kind: 'malformed', status: 200, what: 'the id of the reply' });
        return { comment: { id, post } };
      }
      const thread = await call(ctx, 'POST', '/youtube/v3/commentThreads?part=snippet',
        { snippet: { videoId: post.id, topLevelComment: { snippet: { textOriginal: text } } } });
      const id = str(thread.id);
      if (!id) throw client.failure({ kind: 'malformed', status: 200, what: 'the id of the comment thread' });
      return { comment: { id, post } };
    },

    async list(ctx, post, page = {}): Promise<CommentsPage> {
      const params = new URLSearchParams({ part: 'snippet,replies', videoId: post.id, maxResults: String(page.limit ?? 20), textFormat: 'plainText' });
      if (page.cursor) params.set('pageToken', page.cursor);
      const body = await call(ctx, 'GET', `/youtube/v3/commentThreads?${params}`);
      const items: PlatformComment[] = [];
      for (const thread of Array.isArray(body.items) ? body.items.filter(isObject) : []) {
        const snippet = isObject(thread.snippet) ? thread.snippet : {};
        const top = commentOf(snippet.topLevelComment, post, typeof snippet.totalReplyCount === 'number' ? snippet.totalReplyCount : undefined);
        if (top) items.push(top);
        const replies = isObject(thread.replies) && Array.isArray(thread.replies.comments) ? thread.replies.comments : [];
        for (const r of replies) {
          const reply = commentOf(r, post);
          if (reply) items.push(reply);
        }
      }
      const next = str(body.nextPageToken);
      return { items, ...(next ? { cursor: next } : {}) };
    },

    async remove(ctx, comment) {
      await call(ctx, 'DELETE', `/youtube/v3/comments?${new URLSearchParams({ id: comment.id })}`);
    },

    async act(ctx, { action, comment, banAuthor }) {
      if (action !== 'hide' && action !== 'unhide' && action !== 'hold') {
        throw new PlatformError('youtube', { kind: 'unsupported' }, `YouTube has no ${action} action on comments.`);
      }
      const params = new URLSearchParams({ id: comment!.id, moderationStatus: MODERATION[action] });
      if (banAuthor && action === 'hide') params.set('banAuthor', 'true');
      await call(ctx, 'POST', `/youtube/v3/comments/setModerationStatus?${params}`);
    },

    postIdFromUrl(raw) {
      try {
        const url = new URL(raw);
        const host = url.hostname.replace(/^(www|m|music)\./, '');
        if (host === 'youtu.be') return url.pathname.slice(1).split('/')[0] || undefined;
        if (host !== 'youtube.com') return undefined;
        if (url.pathname === '/watch') return url.searchParams.get('v') ?? undefined;
        const m = /^\/(?:shorts|live|embed)\/([\w-]{6,})/.exec(url.pathname);
        return m?.[1];
      } catch {
        return undefined;
      }
    },
  };
}
