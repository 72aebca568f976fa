/**
 * Reply management on the Threads simulator (developers.facebook.com/docs/threads/reply-management):
 * GET /{media}/conversation (every reply in the tree, flattened, with `after` cursors) and
 * GET /{media}/replies (top-level replies) need threads_read_replies; GET /{user}/replies lists
 * the account's own replies; POST /{reply}/manage_reply?hide= and
 * POST /{reply}/manage_pending_reply?approve= need threads_manage_replies and the root post to be
 * the account's. Replies are the simulator's posts with a replyToId.
 */
import type { ServerResponse } from 'node:http';
import { sendJson, type SimRequest } from '../kit/http';
import { pageOf } from '../kit/comments';

export interface ThreadsReplyLike { id: string; ownerId: string; text?: string; timestamp: string; replyToId?: string }

export interface ThreadsCommentDeps<P extends ThreadsReplyLike> {
  posts: Map<string, P>;
  usernameOf(accountId: string): string | undefined;
  /** Reply ids hidden by the root post's owner. */
  hidden: Set<string>;
  /** Replies waiting for approval (reply_approvals), and those ignored. */
  pending: Map<string, 'pending' | 'ignored'>;
  paramError(res: ServerResponse, message: string, subcode?: number): void;
  permissionDenied(res: ServerResponse, scope: string): void;
}

export function rootOf<P extends ThreadsReplyLike>(posts: Map<string, P>, post: P): P {
  let at = post;
  for (let i = 0; at.replyToId && posts.has(at.replyToId) && i < 100; i++) at = posts.get(at.replyToId)!;
  return at;
}

/** Answers the call when it is a reply-management route; false otherwise. */
export function threadsCommentRoute<P extends ThreadsReplyLike>(
  d: ThreadsCommentDeps<P>, req: SimRequest, res: ServerResponse, owner: { id: string }, scopes: string[], node: string, edge: string | undefined, p: Record<string, string>,
): boolean {
  const view = (r: P) => {
    const all: Record<string, unknown> = {
      id: r.id, text: r.text, timestamp: r.timestamp, username: d.usernameOf(r.ownerId), replied_to: r.replyToId ? { id: r.replyToId } : undefined,
      root_post: { id: rootOf(d.posts, r).id }, is_reply: !!r.replyToId, is_reply_owned_by_me: r.ownerId === owner.id,
      hide_status: d.hidden.has(r.id) ? 'HIDDEN' : 'NOT_HUSHED', has_replies: [...d.posts.values()].some((x) => x.replyToId === r.id),
    };
    const wanted = (p.fields ?? 'id').split(',').map((f) => f.trim());
    return Object.fromEntries(wanted.filter((f) => all[f] !== undefined).map((f) => [f, all[f]]));
  };
  const answer = (items: P[]) => {
    const page = pageOf(items, p.after, Math.min(Math.max(Number(p.limit ?? 25) || 25, 1), 100));
    if (!page) return d.paramError(res, 'The after cursor is invalid.');
    sendJson(res, 200, { data: page.items.map(view), paging: { cursors: { before: p.after ?? '', after: page.next ?? '' }, ...(page.next ? { next: `https://graph.threads.net/replies?after=${page.next}` } : {}) } });
  };
  const visible = (r: P) => !d.pending.has(r.id);

  if (req.method === 'GET' && edge === 'replies' && (node === 'me' || node === owner.id)) {
    answer([...d.posts.values()].filter((r) => r.ownerId === owner.id && r.replyToId).reverse());
    return true;
  }
  const target = d.posts.get(node);
  if (!target) return false;
  if (req.method === 'GET' && (edge === 'conversation' || edge === 'replies')) {
    if (!scopes.includes('threads_read_replies')) { d.permissionDenied(res, 'threads_read_replies'); return true; }
    const all = [...d.posts.values()].filter((r) => r.replyToId && visible(r));
    const items = edge === 'replies' ? all.filter((r) => r.replyToId === target.id) : all.filter((r) => rootOf(d.posts, r).id === target.id && r.id !== target.id);
    answer(items);
    return true;
  }
  if (req.method === 'POST' && (edge === 'manage_reply' || edge === 'manage_pending_reply')) {
    if (!scopes.includes('threads_manage_replies')) { d.permissionDenied(res, 'threads_manage_replies'); return true; }
    if (!target.replyToId) { d.paramError(res, 'The object is not a reply.'); return true; }
    if (rootOf(d.posts, target).ownerId !== owner.id) { d.permissionDenied(res, 'ownership of the root post'); return true; }
    if (edge === 'manage_reply') {
      if (!['true', 'false'].includes(p.hide ?? '')) { d.paramError(res, 'Param hide must be a boolean'); return true; }
      if (p.hide === 'true') d.hidden.add(target.id);
      else d.hidden.delete(target.id);
    } else {
      if (!['true', 'false'].includes(p.approve ?? '')) { d.paramError(res, 'Param approve must be a boolean'); return true; }
      if (p.approve === 'true') d.pending.delete(target.id);
      else d.pending.set(target.id, 'ignored');
    }
    sendJson(res, 200, { success: true });
    return true;
  }
  return false;
}
