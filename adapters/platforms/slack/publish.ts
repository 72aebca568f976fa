/**
 * Publishing to a Slack channel: chat.postMessage with a bot token (then chat.getPermalink for the
 * link), or an incoming webhook (no message id comes back: the post id is Herald's own). Photos
 * and a video go through files upload v2 (bot connections only): files.getUploadURLExternal per
 * file, the bytes POSTed to its upload_url, then one files.completeUploadExternal sharing them in
 * the channel with the text as initial_comment. Edits and removal are posts.ts.
 */
import { PlatformError } from '../../../core/domain/errors';
import {
  textLengthOf, type PlatformCredentials, type PublishContext, type PublishOutcome, type PublishPost, type Publisher,
} from '../../../core/ports/platform';
import { collectBytes, isObject, str } from '../kit/http';
import type { SlackClient } from './client';
import { SLACK_FILE_MAX_BYTES, SLACK_MAX_FILES, slackDescriptor } from './descriptor';

const missing = () => new PlatformError('slack', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Slack connection is incomplete; reconnect the account.');

export function checkText(text: string): void {
  const max = slackDescriptor.limits.textMaxChars!;
  if (text.trim() === '') throw new PlatformError('slack', { kind: 'invalid_content', code: 'text_empty' }, 'Slack cannot post an empty message.');
  const length = textLengthOf(slackDescriptor, text);
  if (length > max) throw new PlatformError('slack', { kind: 'invalid_content', code: 'text_too_long' }, `Slack messages are limited to ${max} characters; this text has ${length}.`);
}

export function bot(credentials: PlatformCredentials): { token: string; channel: string } {
  if (credentials.mode === 'webhook') {
    throw new PlatformError('slack', { kind: 'unsupported' }, 'This Slack account is an incoming webhook, which cannot edit or delete messages; connect it with a bot token to do that.');
  }
  const { bot_token: token, channel_id: channel } = credentials;
  if (!token || !channel) throw missing();
  return { token, channel };
}

export function createSlackPublisher(client: SlackClient): Publisher {
  async function publishText(ctx: PublishContext, text: string, settings: Record<string, unknown>): Promise<PublishOutcome> {
    const shared = {
      text,
      unfurl_links: settings.slack_unfurl_links === true,
      unfurl_media: settings.slack_unfurl_media !== false,
      mrkdwn: settings.slack_mrkdwn !== false,
      ...(typeof settings.slack_thread_ts === 'string' ? { thread_ts: settings.slack_thread_ts, reply_broadcast: settings.slack_reply_broadcast === true } : {}),
    };
    if (ctx.credentials.mode === 'webhook') {
      const path = ctx.credentials.webhook_path;
      if (!path) throw missing();
      await client.webhook(path, shared, ctx.signal);
      // Incoming webhooks answer only "ok": the message has no id Herald could learn.
      return { postId: `webhook:${ctx.idempotencyKey}`, warnings: [], extra: { slack_delivery: 'webhook' } };
    }
    const { token, channel } = bot(ctx.credentials);
    const sent = await client.call(token, 'chat.postMessage', { channel, ...shared }, { signal: ctx.signal });
    const ts = str(sent.ts);
    if (!ts) throw new PlatformError('slack', { kind: 'rejected', code: 'unexpected_response' }, 'Slack answered chat.postMessage without the message timestamp; check the channel before retrying.');
    const postedChannel = str(sent.channel) ?? channel;
    const warnings: string[] = [];
    let url: string | undefined;
    try {
      url = str((await client.call(token, 'chat.getPermalink', { channel: postedChannel, message_ts: ts }, { form: true, signal: ctx.signal })).permalink);
    } catch (err) {
      // Posted already: a missing link must not turn the post into a failure.
      warnings.push(`The message was posted but its link could not be read: ${(err as Error).message}`);
    }
    return { postId: ts, ...(url ? { url } : {}), warnings, extra: { channel_id: postedChannel } };
  }

  const refuse = (code: string, message: string): never => { throw new PlatformError('slack', { kind: 'invalid_content', code }, message); };

  async function publishFiles(ctx: PublishContext, post: PublishPost): Promise<PublishOutcome> {
    if (ctx.credentials.mode === 'webhook') {
      throw new PlatformError('slack', { kind: 'unsupported' }, 'This Slack account is an incoming webhook, which posts text only; connect it with a bot token (files:write scope) to post photos or video.');
    }
    const videos = post.media.filter((m) => m.kind === 'video');
    if (post.kind === 'video' && (videos.length !== 1 || post.media.length !== 1)) refuse('media_required', 'A Slack video post takes exactly one video.');
    if (post.kind === 'photo' && (videos.length || post.media.length === 0)) refuse('media_required', `A Slack photo post takes 1 to ${SLACK_MAX_FILES} photos and no video.`);
    if (post.media.length > SLACK_MAX_FILES) refuse('too_many_photos', `Slack takes at most ${SLACK_MAX_FILES} files per message; ${post.media.length} sent.`);
    const text = post.title;
    const length = textLengthOf(slackDescriptor, text);
    if (length > slackDescriptor.limits.textMaxChars!) refuse('text_too_long', `Slack messages are limited to ${slackDescriptor.limits.textMaxChars} characters; this text has ${length}.`);
    const { token, channel } = bot(ctx.credentials);
    const files: { id: string; title: string }[] = [];
    for (const [index, media] of post.media.entries()) {
      const bytes = await collectBytes(ctx.media.read(media.id), SLACK_FILE_MAX_BYTES);
      if (!bytes) refuse('payload_too_large', `File ${index + 1} is over Slack's 1 GB file limit.`);
      const filename = media.filename || `${media.kind}_${index + 1}.${media.contentType.split('/')[1] ?? 'bin'}`;
      const got = await client.call(token, 'files.getUploadURLExternal', { filename, length: String(bytes!.length) }, { form: true, signal: ctx.signal });
      const uploadUrl = str(got.upload_url);
      const fileId = str(got.file_id);
      if (!uploadUrl || !fileId) throw new PlatformError('slack', { kind: 'rejected', code: 'unexpected_response' }, 'Slack answered files.getUploadURLExternal without an upload URL or file id; try again.');
      await client.uploadBytes(uploadUrl, bytes!, media.contentType, ctx.signal);
      files.push({ id: fileId, title: filename });
    }
    const done = await client.call(token, 'files.completeUploadExternal', {
      files, channel_id: channel, ...(text.trim() ? { initial_comment: text } : {}),
      ...(typeof post.settings.slack_thread_ts === 'string' ? { thread_ts: post.settings.slack_thread_ts } : {}),
    }, { signal: ctx.signal });
    const shared = Array.isArray(done.files) ? done.files.filter(isObject) : [];
    if (shared.length !== files.length) throw new PlatformError('slack', { kind: 'rejected', code: 'unexpected_response' }, 'Slack answered files.completeUploadExternal without the shared files; check the channel before retrying.');
    const first = shared[0]!;
    // The message sharing the files: its ts (in shares) is what chat.update / chat.delete need.
    const shares = isObject(first.shares) ? [first.shares.public, first.shares.private].filter(isObject) : [];
    const share = shares.map((s) => s[channel]).find(Array.isArray)?.[0];
    const ts = isObject(share) ? str(share.ts) : undefined;
    const url = str(first.permalink);
    return {
      postId: ts ?? `file:${str(first.id) ?? files[0]!.id}`, ...(url ? { url } : {}),
      warnings: ts ? [] : ['Slack shares the files asynchronously; the message id was not known yet, so it cannot be edited or deleted through Herald.'],
      extra: { channel_id: channel, slack_file_ids: files.map((f) => f.id) },
    };
  }

  return {
    async publish(ctx, post) {
      if (post.kind === 'photo' || post.kind === 'video') return { kind: 'done', outcome: await publishFiles(ctx, post) };
      if (post.kind !== 'text' || post.media.length) throw new PlatformError('slack', { kind: 'unsupported' }, 'Slack takes text, photo and video posts only.');
      checkText(post.title);
      return { kind: 'done', outcome: await publishText(ctx, post.title, post.settings) };
    },
  };
}
