/**
 * Publishing to a Hashnode publication with `publishPost` (apidocs.hashnode.com). The post's text
 * is the title, `description` the markdown body (the title when absent). Editing and removal are
 * posts.ts.
 */
import { PlatformError } from '../../../core/domain/errors';
import { textLengthOf, type Publisher } from '../../../core/ports/platform';
import { isObject, str, type Json } from '../kit/http';
import type { HashnodeClient } from './client';
import { hashnodeDescriptor } from './descriptor';

const PUBLISH = `mutation HeraldPublishPost($input: PublishPostInput!) {
  publishPost(input: $input) { post { id slug url title } }
}`;

export function tokenOf(credentials: Record<string, string>): { token: string; publicationId: string } {
  const { access_token: token, publication_id: publicationId } = credentials;
  if (!token || !publicationId) {
    throw new PlatformError('hashnode', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Hashnode connection is incomplete; reconnect the account.');
  }
  return { token, publicationId };
}

export function checkTitle(title: string): void {
  const max = hashnodeDescriptor.limits.textMaxChars!;
  if (title.trim() === '') throw new PlatformError('hashnode', { kind: 'invalid_content', code: 'text_empty' }, 'A Hashnode post needs a title.');
  const length = textLengthOf(hashnodeDescriptor, title);
  if (length > max) throw new PlatformError('hashnode', { kind: 'invalid_content', code: 'text_too_long' }, `Hashnode titles are at most ${max} characters here; this one has ${length}.`);
}

/** Post fields of the settings given (only those present). */
export function postFields(s: Record<string, unknown>): Json {
  const tags = s.hashnode_tags as string[] | undefined;
  return {
    ...(typeof s.hashnode_subtitle === 'string' ? { subtitle: s.hashnode_subtitle } : {}),
    ...(tags ? { tags: tags.map((t) => { const slug = t.replace(/^#/, '').toLowerCase(); return { slug, name: slug }; }) } : {}),
    ...(typeof s.hashnode_cover_image_url === 'string' ? { coverImageOptions: { coverImageURL: s.hashnode_cover_image_url } } : {}),
    ...(typeof s.hashnode_original_article_url === 'string' ? { originalArticleURL: s.hashnode_original_article_url } : {}),
    ...(typeof s.hashnode_slug === 'string' ? { slug: s.hashnode_slug } : {}),
    ...(typeof s.hashnode_series_id === 'string' ? { seriesId: s.hashnode_series_id } : {}),
    ...(typeof s.hashnode_disable_comments === 'boolean' ? { disableComments: s.hashnode_disable_comments } : {}),
  };
}

/** `data.<field>.post` with an id, else malformed. */
export function postOf(client: HashnodeClient, data: Json, field: string, what: string): Json & { id: string } {
  const result = isObject(data[field]) ? data[field] : undefined;
  const post = result && isObject(result.post) ? result.post : undefined;
  if (!post || !str(post.id)) throw client.fail({ kind: 'malformed', status: 200, what });
  return post as Json & { id: string };
}

export function createHashnodePublisher(client: HashnodeClient): Publisher {
  return {
    async publish(ctx, post) {
      if (post.kind !== 'text' || post.media.length) {
        throw new PlatformError('hashnode', { kind: 'unsupported' }, 'Hashnode takes text posts only; a cover image goes by URL in hashnode_cover_image_url.');
      }
      checkTitle(post.title);
      const { token, publicationId } = tokenOf(ctx.credentials);
      const contentMarkdown = post.description?.trim() ? post.description : post.title;
      const data = await client.run(token, PUBLISH, { input: { title: post.title, publicationId, contentMarkdown, ...postFields(post.settings) } }, 'the published post', ctx.signal);
      const published = postOf(client, data, 'publishPost', 'the published post');
      const url = str(published.url);
      return { kind: 'done', outcome: { postId: published.id, ...(url ? { url } : {}), warnings: [] } };
    },
  };
}
