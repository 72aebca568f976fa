/** Deleting a published Story or Spotlight (`DELETE /v1/public_profiles/{p}/stories|spotlights/{id}`). */
import { PlatformError } from '../../../core/domain/errors';
import type { PostEditor } from '../../../core/ports/platform';
import type { SnapchatClient } from './client';

export function createSnapchatPostEditor(client: SnapchatClient): PostEditor {
  return {
    async unpublish(ctx, post) {
      const profileId = typeof post.extra?.profile_id === 'string' ? post.extra.profile_id : ctx.credentials.profile_id;
      if (!profileId) throw new PlatformError('snapchat', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Snapchat connection has no Public Profile id; reconnect the account.');
      const collection = post.extra?.snapchat_post_type === 'SPOTLIGHT' ? 'spotlights' : 'stories';
      await client.call(client.tokenOf(ctx), 'DELETE', `/v1/public_profiles/${encodeURIComponent(profileId)}/${collection}/${encodeURIComponent(post.id)}`, undefined, ctx.signal);
    },
  };
}
