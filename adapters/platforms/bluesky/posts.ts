/**
 * Deleting a published Bluesky post: `com.atproto.repo.deleteRecord` of the post record, of the
 * other posts of a gallery thread, and of their threadgates and postgates (a gate shares its post's rkey).
 * Only posts in the account's own repo; Bluesky has no edit.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { PostEditor } from '../../../core/ports/platform';
import { isObject } from '../kit/http';
import type { BlueskyClient } from './client';
import { sessionOf } from './session';
import { parsePostRef } from './settings';

const GATES = ['app.bsky.feed.threadgate', 'app.bsky.feed.postgate'];

export function createBlueskyPostEditor(client: BlueskyClient): PostEditor {
  return {
    async unpublish(ctx, post) {
      const session = sessionOf(ctx.credentials);
      const ref = parsePostRef(post.id);
      if (!ref) throw new PlatformError('bluesky', { kind: 'invalid_content', code: 'invalid_post_id' }, `The Bluesky post id ${post.id} is not an at:// post URI.`);
      if (ref.repo !== session.did && ref.repo !== session.handle) {
        throw new PlatformError('bluesky', { kind: 'rejected', code: 'not_owner' }, `${post.id} is in another account's repository: only the account's own posts can be deleted.`);
      }
      const thread = Array.isArray(post.extra?.thread) ? post.extra.thread.filter(isObject).map((t) => parsePostRef(String(t.uri ?? ''))).filter((r) => r !== undefined) : [];
      const rkeys = [...new Set([ref.rkey, ...thread.filter((t) => t.repo === ref.repo).map((t) => t.rkey)])];
      const del = (collection: string, rkey: string) => client.xrpc(session.service, 'com.atproto.repo.deleteRecord', {
        method: 'POST', json: { repo: session.did, collection, rkey }, token: session.accessJwt, signal: ctx.signal,
      });
      // A PDS answers a delete of a record that is not there as done: gates that were never made cost nothing.
      for (const rkey of rkeys) {
        await del('app.bsky.feed.post', rkey);
        for (const collection of GATES) await del(collection, rkey);
      }
    },
  };
}
