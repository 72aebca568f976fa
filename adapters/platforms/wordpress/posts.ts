/** Changes to a published WordPress post: edit with POST /wp/v2/posts/<id>; removal moves the post to the trash. */
import { PlatformError } from '../../../core/domain/errors';
import type { PostEditor } from '../../../core/ports/platform';
import { str, type Json } from '../kit/http';
import type { WordPressClient } from './client';
import { checkTitle, paragraphs, siteOf } from './publish';

export function createWordPressPostEditor(client: WordPressClient): PostEditor {
  const idOf = (id: string) => {
    if (!/^\d+$/.test(id)) throw new PlatformError('wordpress', { kind: 'invalid_content', code: 'post_not_found' }, `${id} is not a WordPress post id.`);
    return id;
  };
  return {
    async edit(ctx, post, changes) {
      const payload: Json = {};
      if (changes.title !== undefined) {
        checkTitle(changes.title);
        payload.title = changes.title;
      }
      if (changes.text !== undefined) payload.content = paragraphs(changes.text);
      const s = changes.settings ?? {};
      if (typeof s.wordpress_status === 'string') payload.status = s.wordpress_status;
      if (typeof s.wordpress_excerpt === 'string') payload.excerpt = s.wordpress_excerpt;
      if (!Object.keys(payload).length) throw new PlatformError('wordpress', { kind: 'invalid_content', code: 'text_empty' }, 'Nothing to change: give a new title, text or setting.');
      const updated = await client.call(siteOf(ctx), 'POST', `/posts/${idOf(post.id)}`, payload, ctx.signal);
      return { ...post, ...(str(updated.link) ? { url: str(updated.link)! } : {}) };
    },
    async unpublish(ctx, post) {
      // Moved to the trash (WordPress keeps it 30 days), not deleted for good.
      await client.call(siteOf(ctx), 'DELETE', `/posts/${idOf(post.id)}`, undefined, ctx.signal);
    },
  };
}
