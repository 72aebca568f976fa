/** Changes to a published Slack message: edit with chat.update, removal with chat.delete (bot connections only). */
import { PlatformError } from '../../../core/domain/errors';
import type { PostEditor } from '../../../core/ports/platform';
import { str } from '../kit/http';
import type { SlackClient } from './client';
import { bot, checkText } from './publish';

export function createSlackPostEditor(client: SlackClient): PostEditor {
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
