/** Comments under LinkedIn posts (Comments API, socialActions): today the first comment. */
import { codePointLength, type Comments } from '../../../core/ports/platform';
import { isObject } from '../kit/http';
import type { LinkedInClient } from './client';
import { credentialsMissing, invalid } from './publish';

const COMMENT_MAX_CHARS = 1250;

export function createLinkedInComments(client: LinkedInClient): Comments {
  return {
    async create(ctx, input) {
      const postUrn = input.post.id;
      if (!postUrn) return { warnings: ['The LinkedIn post id is not known yet; the first comment was skipped.'] };
      const token = ctx.credentials.access_token;
      if (!token) throw credentialsMissing();
      if (input.text.trim() === '') throw invalid('The first comment is empty.', 'text_empty');
      if (codePointLength(input.text) > COMMENT_MAX_CHARS) throw invalid(`LinkedIn comments are limited to ${COMMENT_MAX_CHARS} characters.`, 'text_too_long');
      const path = `/socialActions/${encodeURIComponent(postUrn)}/comments`;
      // The comment speaks as the post's author (member or page), which only the post itself knows.
      const existing = await client.rest('GET', `/posts/${encodeURIComponent(postUrn)}`, token, undefined, ctx.signal);
      const actor = isObject(existing.body) && typeof existing.body.author === 'string' ? existing.body.author : ctx.credentials.member_urn;
      const reply = await client.rest('POST', path, token, { actor, object: postUrn, message: { text: input.text } }, ctx.signal);
      const body = isObject(reply.body) ? reply.body : {};
      const id = typeof body.$URN === 'string' ? body.$URN : reply.headers.get('x-restli-id');
      if (!id) throw client.malformed(reply.status, 'the comment id');
      return { comment: { id, post: input.post } };
    },
  };
}
