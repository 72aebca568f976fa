/** The first comment: a top-level comment thread under the video. */
import { PlatformError } from '../../../core/domain/errors';
import type { Comments } from '../../../core/ports/platform';
import { str } from '../kit/http';
import type { YoutubeClient } from './client';

const COMMENT_MAX_CHARS = 10_000;

export function createYoutubeComments(client: YoutubeClient): Comments {
  return {
    async create(ctx, { post, text }) {
      if (!post.id) return { warnings: ['The first comment was skipped: the YouTube video id is not known yet.'] };
      if (text.trim() === '') throw new PlatformError('youtube', { kind: 'invalid_content', code: 'text_empty' }, 'The first comment is empty.');
      if ([...text].length > COMMENT_MAX_CHARS) {
        throw new PlatformError('youtube', { kind: 'invalid_content', code: 'text_too_long' }, `YouTube comments are at most ${COMMENT_MAX_CHARS} characters.`);
      }
      const thread = await client.api(client.tokenOf(ctx), 'POST', '/youtube/v3/commentThreads?part=snippet',
        { snippet: { videoId: post.id, topLevelComment: { snippet: { textOriginal: text } } } }, ctx.signal);
      const id = str(thread.id);
      if (!id) throw client.failure({ kind: 'malformed', status: 200, what: 'the id of the comment thread' });
      return { comment: { id, post } };
    },
  };
}
