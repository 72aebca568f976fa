import type { Comments } from '../../../core/ports/platform';
import { invalid, type InstagramClient } from './client';
import { captionLength, MAX_CAPTION } from './limits';

/** A first comment: a comment on the published media (stories take none). */
export function createInstagramComments(client: InstagramClient): Comments {
  const { graphCall, idOf } = client.meta;
  return {
    async create(ctx, { post, text }) {
      if (!post.id) return { warnings: ['The first comment was skipped: the Instagram post id is not known yet.'] };
      const { token } = client.account(ctx.credentials);
      const length = captionLength(text);
      if (length > MAX_CAPTION) throw invalid(`Instagram comments are limited to ${MAX_CAPTION} characters; this one has ${length}.`, 'text_too_long');
      const path = `/${encodeURIComponent(post.id)}`;
      // Stories take no comments: asked first so the warning says so instead of Meta's error.
      const media = await graphCall('GET', path, { fields: 'media_product_type' }, token, 'the media type', {}, ctx.signal);
      if (media.media_product_type === 'STORY') {
        return { warnings: ['The first comment was skipped: Instagram stories take no comments.'] };
      }
      const comment = await graphCall('POST', `${path}/comments`, { message: text }, token, 'the comment id', {}, ctx.signal);
      return { comment: { id: idOf(comment, 'the comment id'), post } };
    },
  };
}
