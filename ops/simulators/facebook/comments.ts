/**
 * Comments on the Facebook simulator (developers.facebook.com/docs/graph-api/reference/object/comments,
 * reference/comment, reference/object/likes): GET /{object}/comments (filter=toplevel|stream,
 * cursor paging), POST /{object}/comments with message / attachment_url / attachment_share_url,
 * replies as POST /{comment}/comments, POST /{comment} with is_hidden or message (edit),
 * POST and DELETE /{comment}/likes, DELETE /{comment}. Every call needs the token of the Page that
 * owns the post: a post of another Page answers (#200); reads need pages_read_user_content, writes
 * pages_manage_engagement.
 */
import { pageOf as pageOfList, type SimComment, type SimCommentStore } from '../kit/comments';

export interface FacebookCommentTarget { id: string; pageId: string; published: boolean }

export interface FacebookCommentDeps<Token, Failure> {
  store: SimCommentStore;
  /** The post, photo or video a comment goes under. */
  findObject(id: string): FacebookCommentTarget | undefined;
  /** Throws unless the token is that Page's token with the scopes. */
  pageOf(token: Token, pageId: string, ...scopes: string[]): { id: string; name: string };
  paramError(message: string, subcode?: number): Failure;
  /** A refusal of the action itself (Graph answers these with their own codes, not #100). */
  refusal(code: number, message: string): Failure;
  noSuchObject(id: string, method: string): Failure;
  newCommentId(objectId: string): string;
  iso(ms?: number): string;
}

const READ = 'pages_read_user_content';
const WRITE = 'pages_manage_engagement';

function view(c: SimComment, store: SimCommentStore, iso: (ms?: number) => string, fields: string | undefined): Record<string, unknown> {
  const all: Record<string, unknown> = {
    id: c.id, message: c.text, created_time: iso(c.createdAt.getTime()), from: { id: c.authorId, name: c.authorName },
    like_count: c.likedBy.length, comment_count: store.replyCount(c.id), is_hidden: c.hidden, can_hide: !c.extra.byPage,
    user_likes: c.likedBy.includes(String(c.extra.pageId ?? '')),
    ...(c.parentId ? { parent: { id: c.parentId } } : {}),
    ...(c.attachment ? { attachment: { url: c.attachment } } : {}),
  };
  const wanted = fields ? fields.split(',').map((f) => f.trim().replace(/\{.*$/, '')).filter(Boolean) : ['id', 'message', 'created_time'];
  return Object.fromEntries(wanted.filter((f) => all[f] !== undefined).map((f) => [f, all[f]]));
}

/** The answer to a comment call, or undefined when the call is not one (the caller routes it on). */
export function facebookCommentRoute<Token, Failure>(
  d: FacebookCommentDeps<Token, Failure>, method: string, token: Token, node: string, edge: string | undefined, params: Record<string, string>,
): unknown {
  const comment = d.store.get(node);
  if (comment) {
    const target = d.findObject(comment.postId);
    const pageId = target?.pageId ?? String(comment.extra.pageId);
    if (method === 'GET' && !edge) { d.pageOf(token, pageId, READ); return view(comment, d.store, d.iso, params.fields); }
    if (method === 'GET' && edge === 'comments') { d.pageOf(token, pageId, READ); return listAnswer(d, d.store.list(comment.postId, { parentId: comment.id }), params); }
    if (method === 'POST' && edge === 'comments') {
      const page = d.pageOf(token, pageId, WRITE);
      return create(d, comment.postId, page, params, comment.parentId ?? comment.id);
    }
    if (method === 'POST' && edge === 'likes') { const page = d.pageOf(token, pageId, WRITE); d.store.like(comment.id, page.id, true); return { success: true }; }
    if (method === 'DELETE' && edge === 'likes') { const page = d.pageOf(token, pageId, WRITE); d.store.like(comment.id, page.id, false); return { success: true }; }
    if (method === 'DELETE' && !edge) { d.pageOf(token, pageId, WRITE); d.store.remove(comment.id); return { success: true }; }
    if (method === 'POST' && !edge) {
      d.pageOf(token, pageId, WRITE);
      if (params.is_hidden !== undefined) {
        if (!['true', 'false'].includes(params.is_hidden)) throw d.paramError('is_hidden must be a boolean');
        if (comment.extra.byPage) throw d.refusal(1446036, "A Page's own comment cannot be hidden.");
        comment.hidden = params.is_hidden === 'true';
        return { success: true };
      }
      if (params.message !== undefined) {
        if (!comment.extra.byPage) throw d.refusal(1446037, 'Only the author of a comment can edit it.');
        if (!params.message.trim()) throw d.paramError('message must not be empty');
        comment.text = params.message;
        comment.editedAt = new Date();
        return { success: true };
      }
      throw d.paramError('Nothing to update: send is_hidden or message');
    }
    return undefined;
  }
  if (edge !== 'comments') return undefined;
  const target = d.findObject(node);
  if (!target) throw d.noSuchObject(node, method);
  if (method === 'GET') {
    d.pageOf(token, target.pageId, READ);
    const filter = params.filter ?? 'toplevel';
    if (!['toplevel', 'stream'].includes(filter)) throw d.paramError('filter must be toplevel or stream');
    return listAnswer(d, d.store.list(target.id, filter === 'stream' ? { parentId: null } : {}), params);
  }
  if (method === 'POST') {
    const page = d.pageOf(token, target.pageId, WRITE);
    if (!target.published) throw d.paramError('Cannot comment on an unpublished object');
    return create(d, target.id, page, params);
  }
  return undefined;
}

function listAnswer<T, F>(d: FacebookCommentDeps<T, F>, items: SimComment[], params: Record<string, string>): unknown {
  const order = params.order ?? 'chronological';
  if (!['chronological', 'reverse_chronological'].includes(order)) throw d.paramError('order must be chronological or reverse_chronological');
  const sorted = order === 'reverse_chronological' ? [...items].reverse() : items;
  const limit = Math.min(Math.max(Number(params.limit ?? 25) || 25, 1), 100);
  const page = pageOfList(sorted, params.after, limit);
  if (!page) throw d.paramError('The after cursor is invalid');
  const data = page.items.map((c) => view(c, d.store, d.iso, params.fields));
  return {
    data,
    paging: {
      cursors: { before: params.after ?? Buffer.from('o:0').toString('base64url'), after: page.next ?? '' },
      ...(page.next ? { next: `https://graph.facebook.com/comments?after=${page.next}` } : {}),
    },
    summary: { order, total_count: items.length, can_comment: true },
  };
}

function create<T, F>(d: FacebookCommentDeps<T, F>, postId: string, page: { id: string; name: string }, params: Record<string, string>, parentId?: string): unknown {
  const attachment = params.attachment_url ?? params.attachment_share_url;
  if (params.attachment_url && params.attachment_share_url) throw d.paramError('Only one of attachment_url and attachment_share_url can be given');
  if (!params.message && !attachment) throw d.paramError('Missing message or attachment');
  if (attachment && !/^https?:\/\//.test(attachment)) throw d.paramError('The attachment URL is invalid');
  const c = d.store.add({
    id: d.newCommentId(postId), postId, text: params.message ?? '', authorId: page.id, authorName: page.name,
    ...(parentId ? { parentId } : {}), extra: { byPage: true, pageId: page.id },
  });
  if (attachment) c.attachment = attachment;
  return { id: c.id };
}
