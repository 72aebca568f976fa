/**
 * Comments on the LinkedIn simulator (learn.microsoft.com/linkedin/marketing/community-management/
 * shares/comments-api): `GET /rest/socialActions/{postUrn}/comments` (the first-level comments,
 * start/count paging), `GET /rest/socialActions/{commentUrn}/comments` (the nested ones under a
 * comment) and `DELETE /rest/socialActions/{postUrn}/comments/{commentId}?actor=`. Reading and
 * deleting need a token that may act as the post's author (an organization the member
 * administers); a comment is deleted by its actor or by the post's author, its nested comments with it.
 */
import type { ServerResponse } from 'node:http';
import { sendEmpty, sendJson, type SimRequest } from '../kit/http';
import { accessDenied, badRequest, notFound } from './answers';
import { mayActAs } from './requests';
import type { LinkedInSimComment, LinkedInState, TokenRecord } from './state';

const view = (c: LinkedInSimComment) => {
  const created = { actor: c.actor, time: c.createdAt };
  return { id: c.id, $URN: c.urn, actor: c.actor, object: c.postUrn, message: { text: c.text }, created, lastModified: created, ...(c.parentComment ? { parentComment: c.parentComment } : {}) };
};

/** `comments.list` / `comments.delete` (classified by the caller); true when answered. */
export function linkedinCommentRoute(s: LinkedInState, op: string, req: SimRequest, res: ServerResponse, token: TokenRecord, param: string, version: string): boolean {
  if (op !== 'comments.list' && op !== 'comments.delete') return false;
  const [target, commentId] = param.split('\n') as [string, string | undefined];
  const parent = target.startsWith('urn:li:comment:') ? s.comments.find((c) => c.urn === target) : undefined;
  if (target.startsWith('urn:li:comment:') && (!parent || op !== 'comments.list')) { notFound(res, `Comment ${target}`); return true; }
  const postUrn = parent ? parent.postUrn : target;
  const post = s.posts.find((p) => p.id === postUrn);
  if (!post) { notFound(res, `Post ${postUrn}`); return true; }
  if (op === 'comments.list') {
    if (!mayActAs(s, token, post.author)) { accessDenied(res, 'socialActions.comments.FINDER', version); return true; }
    const start = Number(req.query.start ?? 0);
    const count = Number(req.query.count ?? 10);
    if (!Number.isInteger(start) || start < 0 || !Number.isInteger(count) || count < 1 || count > 100) { badRequest(res, 'start must be ≥ 0 and count from 1 to 100'); return true; }
    const all = s.comments.filter((c) => c.postUrn === postUrn && c.parentComment === parent?.urn).sort((a, b) => a.createdAt - b.createdAt);
    sendJson(res, 200, { elements: all.slice(start, start + count).map(view), paging: { start, count, total: all.length, links: [] } });
    return true;
  }
  const actor = req.query.actor;
  if (!actor || !mayActAs(s, token, actor)) { accessDenied(res, 'socialActions.comments.DELETE', version); return true; }
  const at = s.comments.findIndex((c) => c.postUrn === postUrn && c.id === commentId);
  if (at < 0) { notFound(res, `Comment ${commentId}`); return true; }
  if (s.comments[at]!.actor !== actor && post.author !== actor) { accessDenied(res, 'socialActions.comments.DELETE', version); return true; }
  const gone = s.comments[at]!.urn;
  // In place: the simulator's other modules hold this array.
  for (let i = s.comments.length - 1; i >= 0; i--) if (s.comments[i]!.urn === gone || s.comments[i]!.parentComment === gone) s.comments.splice(i, 1);
  sendEmpty(res, 204);
  return true;
}
