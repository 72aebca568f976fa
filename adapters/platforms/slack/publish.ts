/**
 * Publishing to a Slack channel: chat.postMessage with a bot token (then chat.getPermalink for the
 * link), or an incoming webhook (no message id comes back: the post id is Herald's own). Edits with
 * chat.update, removal with chat.delete (bot connections only).
 */
import { PlatformError } from '../../../core/domain/errors';
import {
  textLengthOf, type PlatformCredentials, type PostEditor, type PublishContext, type PublishOutcome, type Publisher,
} from '../../../core/ports/platform';
import { str } from '../kit/http';
import type { SlackClient } from './client';
import { slackDescriptor } from './descriptor';

const missing = () => new PlatformError('slack', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Slack connection is incomplete; reconnect the account.');

function checkText(text: string): void {
  const max = slackDescriptor.limits.textMaxChars!;
  if (text.trim() === '') throw new PlatformError('slack', { kind: 'invalid_content', code: 'text_empty' }, 'Slack cannot post an empty message.');
  const length = textLengthOf(slackDescriptor, text);
  if (length > max) throw new PlatformError('slack', { kind: 'invalid_content', code: 'text_too_long' }, `Slack messages are limited to ${max} characters; this text has ${length}.`);
}

function bot(credentials: PlatformCredentials): { token: string; channel: string } {
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

  return {
    async publish(ctx, post) {
      if (post.kind !== 'text' || post.media.length) throw new PlatformError('slack', { kind: 'unsupported' }, 'Slack takes text posts only.');
      checkText(post.title);
      return { kind: 'done', outcome: await publishText(ctx, post.title, post.settings) };
    },
  };
}

export function createSlackEditor(client: SlackClient): PostEditor {
  const channelOf = (extra: Record<string, unknown> | undefined, fallback: string) => str(extra?.channel_id) ?? fallback;
  return {
    async edit(ctx, post, changes) {
      const { token, channel } = bot(ctx.credentials);
      const text = changes.text ?? changes.title;
      if (text === undefined) throw new PlatformError('slack', { kind: 'invalid_content', code: 'text_empty' }, 'Nothing to change: give the new text.');
      checkText(text);
      const updated = await client.call(token, 'chat.update', { channel: channelOf(post.extra, channel), ts: post.id, text }, { signal: ctx.signal });
      return { ...post, id: str(updated.ts) ?? post.id };
    },
    async unpublish(ctx, post) {
      const { token, channel } = bot(ctx.credentials);
      await client.call(token, 'chat.delete', { channel: channelOf(post.extra, channel), ts: post.id }, { signal: ctx.signal });
    },
  };
}
