/**
 * Changes to a published Hashnode post: edit with `updatePost`, removal with `removePost`
 * (apidocs.hashnode.com).
 */
import { PlatformError } from '../../../core/domain/errors';
import type { PostEditor } from '../../../core/ports/platform';
import { str, type Json } from '../kit/http';
import type { HashnodeClient } from './client';
import { checkTitle, postFields, postOf, tokenOf } from './publish';

const UPDATE = `mutation HeraldUpdatePost($input: UpdatePostInput!) {
  updatePost(input: $input) { post { id slug url title } }
}`;
const REMOVE = `mutation HeraldRemovePost($input: RemovePostInput!) {
  removePost(input: $input) { post { id } }
}`;

export function createHashnodePostEditor(client: HashnodeClient): PostEditor {
  return {
    async edit(ctx, post, changes) {
      const { token } = tokenOf(ctx.credentials);
      if (changes.title !== undefined) checkTitle(changes.title);
      const input: Json = {
        id: post.id,
        ...(changes.title !== undefined ? { title: changes.title } : {}),
        ...(changes.text !== undefined ? { contentMarkdown: changes.text } : {}),
        ...postFields(changes.settings ?? {}),
      };
      if (Object.keys(input).length === 1) throw new PlatformError('hashnode', { kind: 'invalid_content', code: 'nothing_to_update' }, 'Nothing to change on the Hashnode post.');
      const data = await client.run(token, UPDATE, { input }, 'the updated post', ctx.signal);
      const updated = postOf(client, data, 'updatePost', 'the updated post');
      const url = str(updated.url) ?? post.url;
      return { id: updated.id, ...(url ? { url } : {}) };
    },
    async unpublish(ctx, post) {
      const { token } = tokenOf(ctx.credentials);
      const data = await client.run(token, REMOVE, { input: { id: post.id } }, 'the removed post', ctx.signal);
      postOf(client, data, 'removePost', 'the removed post');
    },
  };
}
