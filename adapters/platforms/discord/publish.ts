/** Publishing to a Discord channel with Execute Webhook (`?wait=true`: Discord answers with the created message). */
import { PlatformError } from '../../../core/domain/errors';
import { textLengthOf, type PublishContext, type PublishOutcome, type Publisher } from '../../../core/ports/platform';
import type { DiscordClient } from './client';
import { discordDescriptor } from './descriptor';

export function createDiscordPublisher(client: DiscordClient): Publisher {
  const textMaxChars = discordDescriptor.limits.textMaxChars!;

  async function publishText(ctx: PublishContext, text: string): Promise<PublishOutcome> {
    const { webhook_id: id, webhook_token: token, guild_id: guildId, channel_id: channelId } = ctx.credentials;
    if (!id || !token) {
      throw new PlatformError('discord', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Discord webhook is incomplete; reconnect the account.');
    }
    // Checked here with the descriptor's count, so nothing is sent that must fail.
    const length = textLengthOf(discordDescriptor, text);
    if (text.trim() === '') {
      throw new PlatformError('discord', { kind: 'invalid_content', code: 'text_empty' }, 'Discord cannot post an empty message.');
    }
    if (length > textMaxChars) {
      throw new PlatformError('discord', { kind: 'invalid_content', code: 'text_too_long' },
        `Discord messages are limited to ${textMaxChars} characters; this text has ${length}.`);
    }
    // Discord webhooks take no idempotency key, so ctx.idempotencyKey cannot be forwarded.
    // allowed_mentions {parse: []}: a published post never pings @everyone, @here, roles or users,
    // whatever its text contains.
    const message = await client.request('POST', `${client.webhookPath({ id, token })}?wait=true`,
      { content: text, allowed_mentions: { parse: [] } }, ctx.signal);
    const channel = typeof message.channel_id === 'string' ? message.channel_id : channelId ?? '';
    return {
      postId: message.id,
      url: `https://discord.com/channels/${guildId || '@me'}/${channel}/${message.id}`,
      warnings: [],
    };
  }

  return {
    async publish(ctx, post) {
      if (post.kind !== 'text' || post.media.length) {
        throw new PlatformError('discord', { kind: 'unsupported' }, 'Discord publishing of photos and videos is not available yet.');
      }
      return { kind: 'done', outcome: await publishText(ctx, post.title) };
    },
  };
}
