/**
 * Comment moderation on the Instagram simulator (developers.facebook.com/docs/instagram-platform/
 * instagram-graph-api/reference/ig-media/comments, ig-comment, comment-moderation, private-replies):
 * GET /{media}/comments and /{comment}/replies with cursor paging, POST /{media}/comments,
 * POST /{comment}/replies, POST /{comment}?hide=, DELETE /{comment}, POST /{media}?comment_enabled=,
 * GET /{comment}, and private replies with POST /{ig-user}/messages {recipient:{comment_id}, message}.
 * Only the account's own media can be read or moderated; comments need
 * instagram_business_manage_comments, private replies instagram_business_manage_messages.
 */
import type { ServerResponse } from 'node:http';
import { sendJson, type SimRequest } from '../kit/http';
import { pageOf, type SimComment, type SimCommentStore } from '../kit/comments';
import { MAX_CAPTION, type InstagramAccountFixture, type InstagramMedia } from './model';

/** Meta's private reply window: 7 days after the comment. */
export const INSTAGRAM_PRIVATE_REPLY_WINDOW_MS = 7 * 86400_000;

export interface InstagramCommentDeps {
  store: SimCommentStore;
  media: Map<string, InstagramMedia>;
  /** Media ids whose comments are turned off (comment_enabled=false). */
  commentsOff: Set<string>;
  /** Comments already answered in private (one private reply per comment). */
  privatelyAnswered: Set<string>;
  newId(prefix: string): string;
  paramError(res: ServerResponse, message: string, subcode?: number): void;
  graphError(res: ServerResponse, status: number, error: Record<string, unknown>): void;
}

export interface GraphCall {
  req: SimRequest;
  res: ServerResponse;
  owner: InstagramAccountFixture;
  scopes: string[];
  node: string;
  edge: string | undefined;
  params: Record<string, string>;
}

const igTime = (d: Date) => d.toISOString().replace(/\.\d{3}Z$/, '+0000');

function view(c: SimComment, store: SimCommentStore, fields?: string): Record<string, unknown> {
  // `replies{…}` expands the replies with their own field list, as Graph field expansion does.
  const expansion = /(?:^|,)replies\{([^}]*)\}/.exec(fields ?? '')?.[1];
  const replies = !c.parentId && expansion !== undefined
    ? { replies: { data: store.list(c.postId, { parentId: c.id }).map((r) => pick(view(r, store), expansion, ['id', 'text', 'timestamp'])) } } : {};
  return {
    ...replies,
    id: c.id, text: c.text, timestamp: igTime(c.createdAt), username: c.authorName, from: { id: c.authorId, username: c.authorName },
    like_count: c.likedBy.length, hidden: c.hidden, media: { id: c.postId }, ...(c.parentId ? { parent_id: c.parentId } : {}),
    replies_count: store.replyCount(c.id),
  };
}

const pick = (obj: Record<string, unknown>, fields: string | undefined, fallback: string[]) => {
  // Top-level field names only: `replies{id,text}` is one field.
  const wanted = fields ? fields.replace(/\{[^}]*\}/g, '').split(',').map((f) => f.trim()).filter(Boolean) : fallback;
  return Object.fromEntries(wanted.filter((f) => obj[f] !== undefined).map((f) => [f, obj[f]]));
};

/** Answers the call when it is a comment route; false when it is not one. */
export function instagramCommentRoute(d: InstagramCommentDeps, call: GraphCall): boolean {
  const { req, res, owner, node, edge, params: p } = call;
  const comment = d.store.get(node);
  const media = d.media.get(node);
  const notOwner = () => d.graphError(res, 403, { message: '(#10) Application does not have permission for this action: the media is not owned by this account.', code: 10 });
  const noScope = (scope: string) => d.graphError(res, 403, { message: `(#200) Requires ${scope} permission to manage the object`, code: 200 });
  const canComments = () => call.scopes.includes('instagram_business_manage_comments');

  // Private replies: POST /{ig-user}/messages.
  if (req.method === 'POST' && edge === 'messages' && (node === owner.id || node === 'me')) {
    if (!call.scopes.includes('instagram_business_manage_messages')) { noScope('instagram_business_manage_messages'); return true; }
    // JSON, or form fields whose values are JSON (`recipient={"comment_id":…}`), as the Send API takes both.
    const json = (v: unknown) => { try { return typeof v === 'string' ? JSON.parse(v) : v; } catch { return undefined; } };
    const raw = req.body.kind === 'json' && req.body.value && typeof req.body.value === 'object' ? req.body.value as Record<string, unknown> : p;
    const body: Record<string, any> = { recipient: json(raw.recipient), message: json(raw.message) };
    const target = d.store.get(String(body.recipient?.comment_id ?? ''));
    if (!target) { d.paramError(res, 'The parameter recipient is invalid: no such comment.'); return true; }
    if (d.media.get(target.postId)?.ownerId !== owner.id) { notOwner(); return true; }
    const message = body.message ?? {};
    const textOf = typeof message.text === 'string' ? message.text : message.attachment?.payload?.text;
    if (typeof textOf !== 'string' || !textOf.trim()) { d.paramError(res, 'The parameter message is required.'); return true; }
    if (message.attachment) {
      const payload = message.attachment.payload ?? {};
      const buttons: unknown[] = Array.isArray(payload.buttons) ? payload.buttons : [];
      if (message.attachment.type !== 'template' || payload.template_type !== 'button' || buttons.length < 1 || buttons.length > 3
        || buttons.some((b: any) => b?.type !== 'web_url' || typeof b.url !== 'string' || typeof b.title !== 'string')) {
        d.paramError(res, 'Invalid button template: 1 to 3 web_url buttons with url and title.');
        return true;
      }
    }
    if (target.authorId === owner.id) { d.paramError(res, 'Cannot send a private reply to your own comment.'); return true; }
    if (Date.now() - target.createdAt.getTime() > INSTAGRAM_PRIVATE_REPLY_WINDOW_MS) {
      d.graphError(res, 400, { message: 'This message is sent outside of allowed window.', code: 10, error_subcode: 2534022 });
      return true;
    }
    if (d.privatelyAnswered.has(target.id)) { d.graphError(res, 400, { message: '(#551) A private reply was already sent for this comment.', code: 551 }); return true; }
    d.privatelyAnswered.add(target.id);
    sendJson(res, 200, { recipient_id: target.authorId, message_id: `aWdfZAG1faXRlbToxOklHTWVzc2FnZAUlEOj${d.newId('1')}` });
    return true;
  }

  if (comment) {
    const parentMedia = d.media.get(comment.postId);
    if (!canComments()) { noScope('instagram_business_manage_comments'); return true; }
    if (parentMedia?.ownerId !== owner.id) { notOwner(); return true; }
    if (req.method === 'GET' && !edge) { sendJson(res, 200, pick(view(comment, d.store), p.fields, ['id', 'text', 'timestamp'])); return true; }
    if (req.method === 'GET' && edge === 'replies') { listAnswer(d, res, d.store.list(comment.postId, { parentId: comment.id }), p); return true; }
    if (req.method === 'POST' && edge === 'replies') { create(d, res, owner, comment.postId, p, comment.parentId ?? comment.id); return true; }
    if (req.method === 'POST' && !edge && p.hide !== undefined) {
      if (!['true', 'false'].includes(p.hide)) { d.paramError(res, 'hide must be true or false.'); return true; }
      if (comment.authorId === owner.id) { d.paramError(res, 'You cannot hide your own comment.'); return true; }
      comment.hidden = p.hide === 'true';
      sendJson(res, 200, { success: true });
      return true;
    }
    if (req.method === 'DELETE' && !edge) { d.store.remove(comment.id); sendJson(res, 200, { success: true }); return true; }
    return false;
  }

  if (media) {
    if (req.method === 'GET' && edge === 'comments') {
      if (!canComments()) { noScope('instagram_business_manage_comments'); return true; }
      if (media.ownerId !== owner.id) { notOwner(); return true; }
      listAnswer(d, res, d.store.list(media.id), p);
      return true;
    }
    if (req.method === 'POST' && edge === 'comments') {
      if (!canComments()) { noScope('instagram_business_manage_comments'); return true; }
      if (media.ownerId !== owner.id) { d.paramError(res, `Unsupported post request. Object with ID '${media.id}' does not exist.`, 33); return true; }
      if (media.media_product_type === 'STORY') { d.paramError(res, 'Comments are not supported on stories.'); return true; }
      create(d, res, owner, media.id, p);
      return true;
    }
    if (req.method === 'POST' && !edge && p.comment_enabled !== undefined) {
      if (!canComments()) { noScope('instagram_business_manage_comments'); return true; }
      if (media.ownerId !== owner.id) { notOwner(); return true; }
      if (!['true', 'false'].includes(p.comment_enabled)) { d.paramError(res, 'comment_enabled must be true or false.'); return true; }
      if (p.comment_enabled === 'true') d.commentsOff.delete(media.id);
      else d.commentsOff.add(media.id);
      sendJson(res, 200, { success: true });
      return true;
    }
  }
  return false;
}

function listAnswer(d: InstagramCommentDeps, res: ServerResponse, items: SimComment[], p: Record<string, string>): void {
  const limit = Math.min(Math.max(Number(p.limit ?? 25) || 25, 1), 50);
  const cursor = p.after ?? undefined;
  const page = pageOf(items, cursor, limit);
  if (!page) return d.paramError(res, 'The after cursor is invalid.');
  const data = page.items.map((c) => pick(view(c, d.store, p.fields), p.fields, ['id', 'text', 'timestamp']));
  sendJson(res, 200, {
    data,
    ...(data.length ? { paging: { cursors: { before: cursor ?? Buffer.from('o:0').toString('base64url'), after: page.next ?? cursor ?? '' }, ...(page.next ? { next: `https://graph.instagram.com/comments?after=${page.next}` } : {}) } } : {}),
  });
}

function create(d: InstagramCommentDeps, res: ServerResponse, owner: InstagramAccountFixture, mediaId: string, p: Record<string, string>, parentId?: string): void {
  if (d.commentsOff.has(mediaId)) return d.paramError(res, 'Comments are disabled for this media.');
  const text = p.message ?? '';
  if (!text.trim()) return d.paramError(res, 'The parameter message is required.');
  if ([...text].length > MAX_CAPTION) return d.paramError(res, 'The comment is too long.');
  const created = d.store.add({ id: d.newId('178'), postId: mediaId, text, authorId: owner.id, authorName: owner.username, ...(parentId ? { parentId } : {}) });
  sendJson(res, 200, { id: created.id });
}
