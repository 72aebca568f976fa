/**
 * Changes to a published DEV article: edit with PUT /api/articles/:id (title, markdown body,
 * article fields); unpublish takes it back to a draft.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { PostEditor } from '../../../core/ports/platform';
import { str, type Json } from '../kit/http';
import type { DevtoClient } from './client';
import { apiKeyOf, articleFields, checkTitle } from './publish';

export function createDevtoPostEditor(client: DevtoClient): PostEditor {
  return {
    async edit(ctx, post, changes) {
      const apiKey = apiKeyOf(ctx.credentials);
      const s = changes.settings ?? {};
      if (changes.title !== undefined) checkTitle(changes.title);
      const article: Json = {
        ...(changes.title !== undefined ? { title: changes.title } : {}),
        ...(changes.text !== undefined ? { body_markdown: changes.text } : {}),
        ...articleFields(s),
      };
      if (!Object.keys(article).length) throw new PlatformError('devto', { kind: 'invalid_content', code: 'nothing_to_update' }, 'Nothing to change on the DEV article.');
      const { body } = await client.call(apiKey, 'PUT', `/articles/${encodeURIComponent(post.id)}`, 'the updated article', { article }, ctx.signal);
      const url = str(body.url) ?? post.url;
      return { id: String(body.id), ...(url ? { url } : {}) };
    },
    // DEV's API deletes nothing: unpublishing takes the article off the site (back to a draft), as the editor's "Unpublish" does.
    async unpublish(ctx, post) {
      await client.call(apiKeyOf(ctx.credentials), 'PUT', `/articles/${encodeURIComponent(post.id)}`, 'the unpublished article', { article: { published: false } }, ctx.signal);
    },
  };
}
