/**
 * Publishing to a Discord channel with Execute Webhook (`?wait=true`: Discord answers with the
 * created message). Text is a JSON body; photos (up to 10) or a video go as multipart
 * `payload_json` + `files[n]`, each file named by an `attachments[{id: n, filename, description}]` entry.
 */
import { PlatformError } from '../../../core/domain/errors';
import { textLengthOf, type MediaRef, type PublishContext, type PublishOutcome, type PublishPost, type Publisher } from '../../../core/ports/platform';
import { collectBytes, type Json } from '../kit/http';
import type { DiscordClient } from './client';
import { DISCORD_MAX_ATTACHMENTS, DISCORD_UPLOAD_MAX_BYTES, discordDescriptor } from './descriptor';

/** Message flags (docs.discord.com/developers/resources/message#message-object-message-flags). */
const SUPPRESS_EMBEDS = 1 << 2;
const SUPPRESS_NOTIFICATIONS = 1 << 12;

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp', 'video/mp4': 'mp4', 'video/quicktime': 'mov', 'video/webm': 'webm',
};

/** A file name Discord shows and serves: ASCII, no path, the right extension; SPOILER_ blurs it. */
export function attachmentName(media: MediaRef, index: number, spoiler: boolean): string {
  const ext = EXTENSIONS[media.contentType] ?? (media.kind === 'video' ? 'mp4' : 'jpg');
  const base = (media.filename ?? '').replace(/\.[^.]*$/, '').replace(/[^A-Za-z0-9_-]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 60)
    || `${media.kind === 'video' ? 'video' : 'photo'}_${index + 1}`;
  return `${spoiler ? 'SPOILER_' : ''}${base}.${ext}`;
}

export function createDiscordPublisher(client: DiscordClient): Publisher {
  const textMaxChars = discordDescriptor.limits.textMaxChars!;

  function refuse(code: string, message: string): never {
    throw new PlatformError('discord', { kind: 'invalid_content', code }, message);
  }

  /** Everything Discord would refuse, checked before anything is read or sent. */
  function check(post: PublishPost): void {
    const text = post.title;
    const length = textLengthOf(discordDescriptor, text);
    if (length > textMaxChars) refuse('text_too_long', `Discord messages are limited to ${textMaxChars} characters; this text has ${length}.`);
    if (post.kind === 'text') {
      if (post.media.length) throw new PlatformError('discord', { kind: 'unsupported' }, 'A Discord text post carries no media.');
      if (text.trim() === '') refuse('text_empty', 'Discord cannot post an empty message.');
      return;
    }
    const videos = post.media.filter((m) => m.kind === 'video');
    if (post.kind === 'video' && (videos.length !== 1 || post.media.length !== 1)) refuse('media_required', 'A Discord video post takes exactly one video.');
    if (post.kind === 'photo' && (videos.length || post.media.length === 0)) refuse('media_required', 'A Discord photo post takes 1 to 10 photos and no video.');
    if (post.media.length > DISCORD_MAX_ATTACHMENTS) refuse('too_many_photos', `Discord takes at most ${DISCORD_MAX_ATTACHMENTS} attachments per message; ${post.media.length} sent.`);
    const total = post.media.reduce((sum, m) => sum + m.size, 0);
    if (total > DISCORD_UPLOAD_MAX_BYTES) {
      refuse('payload_too_large', `Discord takes at most ${DISCORD_UPLOAD_MAX_BYTES / 1024 / 1024} MiB of attachments per message on a server without boosts; these are ${(total / 1024 / 1024).toFixed(1)} MiB.`);
    }
  }

  function payloadOf(post: PublishPost): Json {
    const s = post.settings;
    const flags = (s.discord_suppress_embeds === true ? SUPPRESS_EMBEDS : 0) | (s.discord_silent === true ? SUPPRESS_NOTIFICATIONS : 0);
    return {
      ...(post.title.trim() ? { content: post.title } : {}),
      // allowed_mentions {parse: []}: a published post never pings @everyone, @here, roles or users,
      // whatever its text contains.
      allowed_mentions: { parse: [] },
      ...(typeof s.discord_username === 'string' ? { username: s.discord_username } : {}),
      ...(typeof s.discord_avatar_url === 'string' ? { avatar_url: s.discord_avatar_url } : {}),
      ...(typeof s.discord_thread_name === 'string' && s.discord_thread_name.trim() ? { thread_name: s.discord_thread_name } : {}),
      ...(flags ? { flags } : {}),
    };
  }

  async function multipart(ctx: PublishContext, post: PublishPost, payload: Json): Promise<FormData> {
    const alt = Array.isArray(post.settings.discord_alt_text) ? post.settings.discord_alt_text as string[] : [];
    const spoiler = post.settings.discord_spoiler === true;
    const form = new FormData();
    const attachments: Json[] = [];
    const files: Array<{ name: string; blob: Blob }> = [];
    for (const [index, media] of post.media.entries()) {
      const bytes = await collectBytes(ctx.media.read(media.id), DISCORD_UPLOAD_MAX_BYTES);
      if (!bytes) refuse('payload_too_large', `Attachment ${index + 1} is over Discord's ${DISCORD_UPLOAD_MAX_BYTES / 1024 / 1024} MiB upload limit.`);
      const filename = attachmentName(media, index, spoiler);
      attachments.push({ id: index, filename, ...(alt[index] ? { description: alt[index] } : {}) });
      files.push({ name: filename, blob: new Blob([bytes], { type: media.contentType }) });
    }
    form.append('payload_json', JSON.stringify({ ...payload, attachments }));
    files.forEach((file, index) => form.append(`files[${index}]`, file.blob, file.name));
    return form;
  }

  async function send(ctx: PublishContext, post: PublishPost): Promise<PublishOutcome> {
    const { webhook_id: id, webhook_token: token, guild_id: guildId, channel_id: channelId } = ctx.credentials;
    if (!id || !token) {
      throw new PlatformError('discord', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Discord webhook is incomplete; reconnect the account.');
    }
    check(post);
    const payload = payloadOf(post);
    // Discord webhooks take no idempotency key, so ctx.idempotencyKey cannot be forwarded.
    const body = post.media.length ? await multipart(ctx, post, payload) : payload;
    const message = await client.request('POST', `${client.webhookPath({ id, token })}?wait=true`, body, ctx.signal);
    // A forum thread's message lives in the thread: its channel_id is the thread's.
    const channel = typeof message.channel_id === 'string' ? message.channel_id : channelId ?? '';
    const attachments = Array.isArray(message.attachments) ? message.attachments : [];
    return {
      postId: message.id,
      url: `https://discord.com/channels/${guildId || '@me'}/${channel}/${message.id}`,
      warnings: [],
      ...(attachments.length ? { extra: { attachment_count: attachments.length } } : {}),
    };
  }

  return {
    async publish(ctx, post) {
      return { kind: 'done', outcome: await send(ctx, post) };
    },
  };
}
