/**
 * Comments on Bluesky are replies (docs.bsky.app: app.bsky.feed.post reply refs,
 * app.bsky.feed.getPostThread, com.atproto.repo.deleteRecord): a first comment or a comment is a
 * post record with `reply {root, parent}`; listing reads the post's thread and flattens its
 * replies (the thread has no cursor: Herald pages through it by offset); deleting removes one of
 * the account's own records. Post and comment ids are at:// URIs.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { CallContext, Comments, CommentsPage, PlatformComment, PostRef as HeraldPostRef } from '../../../core/ports/platform';
import { isObject, str, type Json } from '../kit/http';
import type { BlueskyClient } from './client';
import { checkText, invalid } from './plan';
import type { BlueskyRecords } from './records';
import { rkeyOf, sessionOf, type Session, type StrongRef } from './session';
import { parsePostRef } from './settings';

const POST = 'app.bsky.feed.post';
const THREAD_DEPTH = 10;

const strongRef = (v: unknown): StrongRef | undefined =>
  (isObject(v) && typeof v.uri === 'string' && typeof v.cid === 'string' ? { uri: v.uri, cid: v.cid } : undefined);

/** Offset cursors over a thread that has none of its own. */
const offsetOf = (cursor: string | undefined): number => {
  if (!cursor) return 0;
  const n = Number(Buffer.from(cursor, 'base64url').toString('utf8').replace(/^o:/, ''));
  if (!Number.isInteger(n) || n < 0) throw invalid('invalid_cursor', 'The Bluesky comments cursor is not one Herald gave.');
  return n;
};

export function createBlueskyComments(records: BlueskyRecords, client: BlueskyClient): Comments {
  const xrpcGet = (session: Session, nsid: string, query: Record<string, string>, signal?: AbortSignal) =>
    client.xrpc(session.service, nsid, { method: 'GET', query, token: session.accessJwt, signal });

  /** The post an id names, as a strong ref with its did-based URI (handles in links are resolved). */
  async function resolve(ctx: CallContext, session: Session, id: string): Promise<StrongRef & { value?: Json }> {
    const ref = parsePostRef(id);
    if (!ref) throw invalid('invalid_post_id', `The Bluesky post id ${id} is not an at:// post URI.`);
    const { status, body } = await xrpcGet(session, 'com.atproto.repo.getRecord', { repo: ref.repo, collection: POST, rkey: ref.rkey }, ctx.signal);
    const uri = str(body.uri);
    const cid = str(body.cid);
    if (!uri || !cid) throw client.failure({ kind: 'malformed', status, what: 'the post (uri, cid)' });
    return { uri, cid, ...(isObject(body.value) ? { value: body.value } : {}) };
  }

  return {
    async create(ctx, { post, text, replyTo }) {
      if (!post.id && !replyTo) return { warnings: ['The Bluesky first comment was skipped: the post id is not known yet.'] };
      const session = sessionOf(ctx.credentials);
      checkText(text, false);
      let root: StrongRef;
      let parent: StrongRef;
      if (replyTo) {
        const target = await resolve(ctx, session, replyTo.id);
        parent = { uri: target.uri, cid: target.cid };
        root = strongRef(isObject(target.value?.reply) ? target.value!.reply.root : undefined) ?? parent;
      } else {
        const extra = post.extra ?? {};
        if (!parsePostRef(post.id)) throw invalid('invalid_post_id', `The Bluesky post id ${post.id} is not an at:// post URI.`);
        root = typeof extra.cid === 'string' && post.id.startsWith('at://did:') ? { uri: post.id, cid: extra.cid } : await resolve(ctx, session, post.id);
        root = { uri: root.uri, cid: root.cid };
        // On a gallery thread the comment follows the last post, as a reply in the same thread.
        const thread = Array.isArray(extra.thread) ? extra.thread.flatMap((t) => strongRef(t) ?? []) : [];
        parent = thread.length ? thread[thread.length - 1]! : root;
      }
      const reply = await records.postRecord(session, { langs: [], labels: [] }, text, undefined, { root, parent }, ctx.signal);
      return { comment: { id: reply.uri, post } };
    },

    async list(ctx, post: HeraldPostRef, page = {}): Promise<CommentsPage> {
      const session = sessionOf(ctx.credentials);
      const uri = post.id.startsWith('at://did:') ? post.id : (await resolve(ctx, session, post.id)).uri;
      const { status, body } = await xrpcGet(session, 'app.bsky.feed.getPostThread', { uri, depth: String(THREAD_DEPTH), parentHeight: '0' }, ctx.signal);
      if (!isObject(body.thread)) throw client.failure({ kind: 'malformed', status, what: 'the thread' });
      const all: PlatformComment[] = [];
      const walk = (node: Json, parentUri: string) => {
        for (const reply of Array.isArray(node.replies) ? node.replies.filter(isObject) : []) {
          const p = isObject(reply.post) ? reply.post : undefined;
          const id = p ? str(p.uri) : undefined;
          if (!p || !id) continue; // blocked or not-found replies carry no post
          const author = isObject(p.author) ? p.author : {};
          const record = isObject(p.record) ? p.record : {};
          all.push({
            ref: { id, post, extra: { cid: str(p.cid) } },
            text: str(record.text) ?? '',
            ...(str(author.handle) ? { authorName: str(author.handle)! } : {}),
            ...(str(author.did) ? { authorId: str(author.did)! } : {}),
            ...(str(record.createdAt) ? { createdAt: str(record.createdAt)! } : {}),
            ...(typeof p.likeCount === 'number' ? { likeCount: p.likeCount } : {}),
            ...(typeof p.replyCount === 'number' ? { replyCount: p.replyCount } : {}),
            ...(parentUri !== uri ? { parentId: parentUri } : {}),
            isOwner: str(author.did) === session.did,
          });
          walk(reply, id);
        }
      };
      walk(body.thread, uri);
      const start = offsetOf(page.cursor);
      const limit = Math.max(1, page.limit ?? 25);
      const items = all.slice(start, start + limit);
      const end = start + items.length;
      return { items, ...(end < all.length ? { cursor: Buffer.from(`o:${end}`).toString('base64url') } : {}) };
    },

    async remove(ctx, comment) {
      const session = sessionOf(ctx.credentials);
      const ref = parsePostRef(comment.id);
      if (!ref) throw invalid('invalid_comment_id', `The Bluesky comment id ${comment.id} is not an at:// post URI.`);
      if (ref.repo !== session.did && ref.repo !== session.handle) {
        throw new PlatformError('bluesky', { kind: 'rejected', code: 'not_owner' }, 'Bluesky deletes only posts of the connected account; this reply belongs to someone else.');
      }
      await client.xrpc(session.service, 'com.atproto.repo.deleteRecord', {
        method: 'POST', token: session.accessJwt, signal: ctx.signal, json: { repo: session.did, collection: POST, rkey: rkeyOf(comment.id) },
      });
    },

    postIdFromUrl(url) {
      const ref = parsePostRef(url);
      return ref ? `at://${ref.repo}/${POST}/${ref.rkey}` : undefined;
    },
  };
}
