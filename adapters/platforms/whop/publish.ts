/**
 * Posting in a Whop forum (POST /forum_posts). The post's text is the markdown content; with a
 * description, the text is the title and the description the content. Editing is posts.ts.
 */
import { PlatformError } from '../../../core/domain/errors';
import { textLengthOf, type Publisher } from '../../../core/ports/platform';
import type { Json } from '../kit/http';
import type { WhopClient } from './client';
import { whopDescriptor } from './descriptor';

export function accountOf(credentials: Record<string, string>): { apiKey: string; experienceId: string } {
  const { api_key: apiKey, experience_id: experienceId } = credentials;
  if (!apiKey || !experienceId) throw new PlatformError('whop', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Whop connection is incomplete; reconnect the account.');
  return { apiKey, experienceId };
}

export function checkText(text: string): void {
  const max = whopDescriptor.limits.textMaxChars!;
  if (text.trim() === '') throw new PlatformError('whop', { kind: 'invalid_content', code: 'text_empty' }, 'Whop cannot post an empty forum post.');
  const length = textLengthOf(whopDescriptor, text);
  if (length > max) throw new PlatformError('whop', { kind: 'invalid_content', code: 'text_too_long' }, `Whop forum posts are limited to ${max} characters here; this one has ${length}.`);
}

function postFields(s: Record<string, unknown>): Json {
  const ids = s.whop_attachment_ids as string[] | undefined;
  return {
    ...(typeof s.whop_pinned === 'boolean' ? { pinned: s.whop_pinned } : {}),
    ...(typeof s.whop_visibility === 'string' ? { visibility: s.whop_visibility } : {}),
    ...(ids?.length ? { attachments: ids.map((id) => ({ id })) } : {}),
  };
}

export function createWhopPublisher(client: WhopClient): Publisher {
  return {
    async publish(ctx, post) {
      if (post.kind !== 'text' || post.media.length) {
        throw new PlatformError('whop', { kind: 'unsupported' }, 'Whop takes text posts; attach files already on Whop with whop_attachment_ids.');
      }
      checkText(post.title);
      const { apiKey, experienceId } = accountOf(ctx.credentials);
      const body = post.description?.trim();
      if (body) checkText(body);
      const created = await client.call(apiKey, 'POST', '/forum_posts', 'the created forum post', {
        experience_id: experienceId,
        ...(body ? { title: post.title, content: body } : { content: post.title }),
        ...postFields(post.settings),
      }, ctx.signal);
      return { kind: 'done', outcome: { postId: created.id, warnings: [], extra: { experience_id: experienceId } } };
    },
  };
}
