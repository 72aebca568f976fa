/**
 * Replies on the Bluesky simulator (docs.bsky.app: app.bsky.feed.getPostThread,
 * com.atproto.repo.deleteRecord): a thread view of a post with its replies (depth, parentHeight),
 * and record deletion in the caller's own repo only. Replies by other users are seeded as
 * app.bsky.feed.post records of a second account, with reply {root, parent} strong refs.
 */
import type { ServerResponse } from 'node:http';
import { sendJson, type SimRequest } from '../kit/http';
import type { SeedCommentInput } from '../kit/comments';
import type { createBlueskyAuth } from './auth';
import { POST, type BlueskyRecord, type BlueskyState } from './state';
import { AT_URI, base32, cidOf, invalidRequest, isObj, jsonBody, need, param, XrpcError } from './xrpc';

export const BLUESKY_COMMENT_METHODS: Record<string, 'GET' | 'POST'> = {
  'app.bsky.feed.getPostThread': 'GET',
  'com.atproto.repo.deleteRecord': 'POST',
};

export function createBlueskyComments(s: BlueskyState, auth: ReturnType<typeof createBlueskyAuth>) {
  const { records, accounts } = s;

  const replyOf = (r: BlueskyRecord) => (isObj(r.value.reply) && isObj(r.value.reply.parent) ? String(r.value.reply.parent.uri) : undefined);
  const repliesTo = (uri: string) => [...records.values()].filter((r) => r.collection === POST && replyOf(r) === uri);

  function postView(r: BlueskyRecord): Record<string, unknown> {
    const a = accounts.get(r.did);
    return {
      uri: r.uri, cid: r.cid, author: { did: r.did, handle: a?.handle ?? 'handle.invalid', ...(a?.displayName ? { displayName: a.displayName } : {}), labels: [] },
      record: r.value, replyCount: repliesTo(r.uri).length, repostCount: 0, likeCount: 0, quoteCount: 0, indexedAt: r.indexedAt, labels: [],
    };
  }

  function threadView(r: BlueskyRecord, depth: number): Record<string, unknown> {
    return {
      $type: 'app.bsky.feed.defs#threadViewPost', post: postView(r),
      ...(depth > 0 ? { replies: repliesTo(r.uri).map((c) => threadView(c, depth - 1)) } : {}),
    };
  }

  function comments(nsid: string, req: SimRequest, res: ServerResponse): void {
    switch (nsid) {
      case 'app.bsky.feed.getPostThread': {
        auth.authenticate(req, 'access');
        const uri = param(req, 'uri');
        if (!AT_URI.test(uri)) throw invalidRequest('Error: uri must be a valid at-uri');
        const depth = req.query.depth === undefined ? 6 : Number(req.query.depth);
        if (!Number.isInteger(depth) || depth < 0 || depth > 1000) throw invalidRequest('Error: depth must be an integer from 0 to 1000');
        const record = records.get(uri);
        if (!record) throw new XrpcError(400, 'NotFound', `Post not found: ${uri}`);
        return sendJson(res, 200, { thread: threadView(record, depth) });
      }
      case 'com.atproto.repo.deleteRecord': {
        const { account } = auth.authenticate(req, 'access');
        const input = jsonBody(req);
        const repo = need(input, 'repo');
        if (repo !== account.did && repo !== account.handle) throw invalidRequest(`Invalid repo: ${repo} is not the authenticated account`);
        const uri = `at://${account.did}/${need(input, 'collection')}/${need(input, 'rkey')}`;
        // Deleting a record that does not exist succeeds, as on a PDS.
        records.delete(uri);
        return sendJson(res, 200, { commit: { cid: cidOf(0x71, `commit:delete:${uri}`), rev: s.nextTid() } });
      }
      default:
        throw new XrpcError(501, 'MethodNotImplemented', `Method Not Implemented: ${nsid}`);
    }
  }

  /** A reply by another Bluesky user (`POST /__sim/comment`), from an account made on first use. */
  function seedComment(input: SeedCommentInput): BlueskyRecord {
    const root = records.get(input.postId);
    if (!root) throw new Error(`no post ${input.postId}`);
    const parent = input.parentId ? records.get(input.parentId) : root;
    if (!parent) throw new Error(`no post ${input.parentId}`);
    const handle = (input.authorName ?? 'a-reader.bsky.social').replace(/^@/, '');
    let fan = [...accounts.values()].find((a) => a.handle === handle);
    if (!fan) {
      fan = { did: `did:plc:${base32(s.seeded('fan-did')).slice(0, 24)}`, handle, displayName: handle.split('.')[0]!, email: `${handle}@example.com`, emailConfirmed: true, appPasswords: [] };
      accounts.set(fan.did, fan);
    }
    const rootRef = isObj(root.value.reply) && isObj(root.value.reply.root) ? root.value.reply.root : { uri: root.uri, cid: root.cid };
    const rkey = s.nextTid();
    const value = {
      $type: POST, text: input.text, createdAt: new Date(Date.now() - (input.ageMs ?? 0)).toISOString(),
      reply: { root: rootRef, parent: { uri: parent.uri, cid: parent.cid } },
    };
    const uri = `at://${fan.did}/${POST}/${rkey}`;
    const record: BlueskyRecord = { uri, cid: cidOf(0x71, JSON.stringify(value)), did: fan.did, collection: POST, rkey, value, indexedAt: new Date().toISOString() };
    records.set(uri, record);
    return structuredClone(record);
  }

  return { comments, seedComment };
}
