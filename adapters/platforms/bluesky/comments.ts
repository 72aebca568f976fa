/** Comments under Bluesky posts: today the first comment, a reply in the post's thread. */
import type { Comments } from '../../../core/ports/platform';
import { isObject } from '../kit/http';
import { checkText, invalid } from './plan';
import type { BlueskyRecords } from './records';
import { sessionOf, type StrongRef } from './session';
import { parsePostRef } from './settings';

export function createBlueskyComments(records: BlueskyRecords): Comments {
  return {
    async create(ctx, { post, text }) {
      if (!post.id) return { warnings: ['The Bluesky first comment was skipped: the post id is not known yet.'] };
      const session = sessionOf(ctx.credentials);
      checkText(text, false);
      const extra = post.extra ?? {};
      const rootRef = parsePostRef(post.id);
      if (!rootRef) throw invalid('invalid_post_id', `The Bluesky post id ${post.id} is not an at:// post URI.`);
      const root: StrongRef = typeof extra.cid === 'string' ? { uri: post.id, cid: extra.cid } : await records.resolvePost(session, rootRef, ctx.signal);
      // On a gallery thread the comment follows the last post, as a reply in the same thread.
      const thread = Array.isArray(extra.thread) ? extra.thread.filter((t): t is StrongRef => isObject(t) && typeof t.uri === 'string' && typeof t.cid === 'string') : [];
      const parent = thread.length ? { uri: thread[thread.length - 1]!.uri, cid: thread[thread.length - 1]!.cid } : root;
      const reply = await records.postRecord(session, { langs: [], labels: [] }, text, undefined, { root, parent }, ctx.signal);
      return { comment: { id: reply.uri, post } };
    },
  };
}
