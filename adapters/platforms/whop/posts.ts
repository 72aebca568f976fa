/** Changes to a published Whop forum post: edit with PATCH /forum_posts/:id. */
import { PlatformError } from '../../../core/domain/errors';
import type { PostEditor } from '../../../core/ports/platform';
import type { Json } from '../kit/http';
import type { WhopClient } from './client';
import { accountOf, checkText } from './publish';

export function createWhopPostEditor(client: WhopClient): PostEditor {
  return {
    async edit(ctx, post, changes) {
      const { apiKey } = accountOf(ctx.credentials);
      const s = changes.settings ?? {};
      if (changes.text !== undefined) checkText(changes.text);
      const patch: Json = {
        ...(changes.text !== undefined ? { content: changes.text } : {}),
        ...(changes.title !== undefined ? { title: changes.title } : {}),
        ...(typeof s.whop_pinned === 'boolean' ? { is_pinned: s.whop_pinned } : {}),
        ...(typeof s.whop_visibility === 'string' ? { visibility: s.whop_visibility } : {}),
        ...(Array.isArray(s.whop_attachment_ids) ? { attachments: (s.whop_attachment_ids as string[]).map((id) => ({ id })) } : {}),
      };
      if (!Object.keys(patch).length) throw new PlatformError('whop', { kind: 'invalid_content', code: 'nothing_to_update' }, 'Nothing to change on the Whop post.');
      const updated = await client.call(apiKey, 'PATCH', `/forum_posts/${encodeURIComponent(post.id)}`, 'the updated forum post', patch, ctx.signal);
      return { id: updated.id, ...(post.url ? { url: post.url } : {}), ...(post.extra ? { extra: post.extra } : {}) };
    },
  };
}
