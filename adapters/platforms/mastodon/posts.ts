/**
 * Changes to a published status: edit with PUT /api/v1/statuses/:id (text, content warning,
 * sensitivity, language; the media stay) and delete with DELETE /api/v1/statuses/:id.
 */
import type { PostEditor } from '../../../core/ports/platform';
import { str } from '../kit/http';
import { idOf, type MastodonClient } from './client';
import { accountOf, checkText } from './publish';

export function createMastodonPostEditor(client: MastodonClient): PostEditor {
  return {
    async edit(ctx, post, changes) {
      const account = accountOf(ctx.credentials);
      const path = `/api/v1/statuses/${encodeURIComponent(post.id)}`;
      const settings = changes.settings ?? {};
      // Mastodon replaces the whole status: what is not changed is sent as it is now (its source).
      const current = await client.call(account, 'GET', `${path}/source`, 'the status source', { signal: ctx.signal });
      const text = changes.text ?? changes.title ?? str(current.body.text) ?? '';
      const spoiler = typeof settings.mastodon_spoiler_text === 'string' ? settings.mastodon_spoiler_text : str(current.body.spoiler_text);
      const merged = { ...settings, ...(spoiler !== undefined ? { mastodon_spoiler_text: spoiler } : {}) };
      const existing = await client.call(account, 'GET', path, 'the status', { signal: ctx.signal });
      const mediaIds = Array.isArray(existing.body.media_attachments)
        ? existing.body.media_attachments.map((m) => (typeof m === 'object' && m && 'id' in m ? String((m as { id: unknown }).id) : '')).filter(Boolean) : [];
      checkText(text, merged, mediaIds.length > 0);
      const { status, body } = await client.call(account, 'PUT', path, 'the edited status', {
        json: {
          status: text,
          ...(spoiler !== undefined ? { spoiler_text: spoiler } : {}),
          ...(typeof settings.mastodon_sensitive === 'boolean' ? { sensitive: settings.mastodon_sensitive } : {}),
          ...(typeof settings.mastodon_language === 'string' ? { language: settings.mastodon_language.toLowerCase() } : {}),
          ...(mediaIds.length ? { media_ids: mediaIds } : {}),
        },
        signal: ctx.signal,
      });
      const url = str(body.url) ?? post.url;
      return { id: idOf(client, status, body, 'the edited status'), ...(url ? { url } : {}), ...(post.extra ? { extra: post.extra } : {}) };
    },
    async unpublish(ctx, post) {
      await client.call(accountOf(ctx.credentials), 'DELETE', `/api/v1/statuses/${encodeURIComponent(post.id)}`, 'the deleted status', { signal: ctx.signal });
    },
  };
}
