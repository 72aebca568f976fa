/**
 * Changes to a published Discord message through its webhook: Edit Webhook Message (new text; the
 * attachments stay) and Delete Webhook Message.
 */
import { PlatformError } from '../../../core/domain/errors';
import { textLengthOf, type CallContext, type PostEditor } from '../../../core/ports/platform';
import type { DiscordClient } from './client';
import { discordDescriptor } from './descriptor';

export function createDiscordPostEditor(client: DiscordClient): PostEditor {
  const pathOf = (ctx: CallContext, messageId: string) => {
    const { webhook_id: id, webhook_token: token } = ctx.credentials;
    if (!id || !token) throw new PlatformError('discord', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Discord webhook is incomplete; reconnect the account.');
    if (!/^\d{1,20}$/.test(messageId)) throw new PlatformError('discord', { kind: 'invalid_content', code: 'invalid_post_id' }, 'A Discord post id is the message id (digits).');
    return `${client.webhookPath({ id, token })}/messages/${messageId}`;
  };
  return {
    async edit(ctx, post, changes) {
      const text = changes.text ?? changes.title;
      if (text === undefined) throw new PlatformError('discord', { kind: 'invalid_content', code: 'nothing_to_update' }, 'Nothing to update: send the new text.');
      const max = discordDescriptor.limits.textMaxChars!;
      const length = textLengthOf(discordDescriptor, text);
      if (length > max) throw new PlatformError('discord', { kind: 'invalid_content', code: 'text_too_long' }, `Discord messages are limited to ${max} characters; this text has ${length}.`);
      const path = pathOf(ctx, post.id);
      const message = await client.request('PATCH', path, { content: text, allowed_mentions: { parse: [] } }, ctx.signal);
      return { id: message.id, ...(post.url ? { url: post.url } : {}), ...(post.extra ? { extra: post.extra } : {}) };
    },
    async unpublish(ctx, post) {
      await client.request('DELETE', pathOf(ctx, post.id), undefined, ctx.signal);
    },
  };
}
