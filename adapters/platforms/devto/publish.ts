/**
 * Publishing a DEV article (POST /api/articles): the post's text is the title, `description` the
 * markdown body (the title when absent). Editing is posts.ts.
 */
import { PlatformError } from '../../../core/domain/errors';
import { textLengthOf, type PublishPost, type Publisher } from '../../../core/ports/platform';
import { str, type Json } from '../kit/http';
import type { DevtoClient } from './client';
import { devtoDescriptor } from './descriptor';

export function apiKeyOf(credentials: Record<string, string>): string {
  if (!credentials.api_key) throw new PlatformError('devto', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored DEV connection is incomplete; reconnect the account.');
  return credentials.api_key;
}

export function checkTitle(title: string): void {
  const max = devtoDescriptor.limits.textMaxChars!;
  if (title.trim() === '') throw new PlatformError('devto', { kind: 'invalid_content', code: 'text_empty' }, 'A DEV article needs a title.');
  const length = textLengthOf(devtoDescriptor, title);
  if (length > max) throw new PlatformError('devto', { kind: 'invalid_content', code: 'text_too_long' }, `DEV article titles are at most ${max} characters; this one has ${length}.`);
}

/** The `article` object of the settings given (only those present). */
export function articleFields(s: Record<string, unknown>): Json {
  const tags = s.devto_tags as string[] | undefined;
  return {
    ...(tags ? { tags: tags.map((t) => t.replace(/^#/, '').toLowerCase()) } : {}),
    ...(typeof s.devto_series === 'string' ? { series: s.devto_series } : {}),
    ...(typeof s.devto_canonical_url === 'string' ? { canonical_url: s.devto_canonical_url } : {}),
    ...(typeof s.devto_published === 'boolean' ? { published: s.devto_published } : {}),
    ...(typeof s.devto_main_image === 'string' ? { main_image: s.devto_main_image } : {}),
    ...(typeof s.devto_description === 'string' ? { description: s.devto_description } : {}),
    ...(typeof s.devto_organization_id === 'number' ? { organization_id: s.devto_organization_id } : {}),
  };
}

export function createDevtoPublisher(client: DevtoClient): Publisher {
  return {
    async publish(ctx, post: PublishPost) {
      if (post.kind !== 'text' || post.media.length) throw new PlatformError('devto', { kind: 'unsupported' }, 'DEV takes text articles only; a cover image goes by URL in devto_main_image.');
      checkTitle(post.title);
      const apiKey = apiKeyOf(ctx.credentials);
      const bodyMarkdown = post.description?.trim() ? post.description : post.title;
      const { body } = await client.call(apiKey, 'POST', '/articles', 'the created article', {
        article: { title: post.title, body_markdown: bodyMarkdown, published: true, ...articleFields(post.settings) },
      }, ctx.signal);
      const url = str(body.url);
      const published = body.published !== false;
      return {
        kind: 'done',
        outcome: {
          postId: String(body.id), ...(url ? { url } : {}),
          warnings: published ? [] : ['The article was saved as a draft on DEV (devto_published=false).'],
          extra: { published },
        },
      };
    },
  };
}
