import type { Comments } from '../../../core/ports/platform';
import { invalid, type ThreadsClient } from './client';
import { MAX_TEXT, threadsTextLength } from './limits';

export function createThreadsComments(client: ThreadsClient): Comments {
  const { graphCall } = client;
  const { idOf } = client.meta;
  return {
    /** A reply to the last post of the thread: create a TEXT container with reply_to_id, then publish it. */
    async create(ctx, { post, text }) {
      const ids = post.extra?.thread_post_ids;
      const last = Array.isArray(ids) && typeof ids[ids.length - 1] === 'string' ? (ids[ids.length - 1] as string) : post.id;
      if (!last) return { warnings: ['The first comment was skipped: the Threads post id is not known yet.'] };
      const length = threadsTextLength(text);
      if (!text.trim() || length > MAX_TEXT) throw invalid(`A Threads reply has 1 to ${MAX_TEXT} characters; this one has ${length}.`, 'text_too_long');
      const { token, userId } = client.account(ctx.credentials);
      const container = idOf(await graphCall('POST', `/${encodeURIComponent(userId)}/threads`,
        { media_type: 'TEXT', text, reply_to_id: last }, token, 'a container id', ctx.signal), 'a container id');
      const reply = await graphCall('POST', `/${encodeURIComponent(userId)}/threads_publish`, { creation_id: container }, token, 'the reply id', ctx.signal);
      return { comment: { id: idOf(reply, 'the reply id'), post } };
    },
  };
}
