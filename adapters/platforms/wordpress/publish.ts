/**
 * Publishing to a WordPress site: text becomes a post; photos and videos are uploaded to the media
 * library first (POST /wp/v2/media) and the post shows them as blocks, with the first one as its
 * featured media. Editing and removal are posts.ts.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { MediaRef } from '../../../core/domain/media';
import {
  textLengthOf, type CallContext, type PublishContext, type PublishOutcome, type Publisher, type PublishPost,
} from '../../../core/ports/platform';
import { collectAll, str, type Json } from '../kit/http';
import type { WordPressClient, WordPressSite } from './client';
import { wordpressDescriptor } from './descriptor';

export function siteOf(ctx: CallContext): WordPressSite {
  const { site_url: site, username, application_password: password } = ctx.credentials;
  if (!site || !username || !password) {
    throw new PlatformError('wordpress', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored WordPress connection is incomplete; reconnect the site.');
  }
  return { site, username, password };
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** The text as paragraph blocks: one per blank-line-separated paragraph, line breaks kept. */
export function paragraphs(text: string): string {
  return text.split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean)
    .map((p) => `<!-- wp:paragraph -->\n<p>${escapeHtml(p).replace(/\n/g, '<br>')}</p>\n<!-- /wp:paragraph -->`).join('\n\n');
}

function mediaBlock(item: { id: number; url: string; kind: MediaRef['kind'] }): string {
  const src = escapeHtml(item.url);
  return item.kind === 'video'
    ? `<!-- wp:video {"id":${item.id}} -->\n<figure class="wp-block-video"><video controls src="${src}"></video></figure>\n<!-- /wp:video -->`
    : `<!-- wp:image {"id":${item.id}} -->\n<figure class="wp-block-image"><img src="${src}" alt="" class="wp-image-${item.id}"/></figure>\n<!-- /wp:image -->`;
}

export function checkTitle(title: string): void {
  const max = wordpressDescriptor.limits.textMaxChars!;
  if (title.trim() === '') throw new PlatformError('wordpress', { kind: 'invalid_content', code: 'text_empty' }, 'A WordPress post needs a title.');
  const length = textLengthOf(wordpressDescriptor, title);
  if (length > max) throw new PlatformError('wordpress', { kind: 'invalid_content', code: 'text_too_long' }, `WordPress titles are limited to ${max} bytes; this one has ${length}.`);
}

const extension: Record<string, string> = {
  'image/jpeg': 'jpg', 'image/png': 'png', 'image/gif': 'gif', 'image/webp': 'webp', 'video/mp4': 'mp4', 'video/quicktime': 'mov', 'video/webm': 'webm',
};

export function createWordPressPublisher(client: WordPressClient): Publisher {
  async function publish(ctx: PublishContext, post: PublishPost): Promise<PublishOutcome> {
    checkTitle(post.title);
    const site = siteOf(ctx);
    if (post.kind !== 'text' && !post.media.length) throw new PlatformError('wordpress', { kind: 'invalid_content', code: 'media_required' }, `A ${post.kind} post needs its media.`);
    const uploaded: Array<{ id: number; url: string; kind: MediaRef['kind'] }> = [];
    for (const [i, media] of post.media.entries()) {
      const bytes = await collectAll(ctx.media.read(media.id));
      const filename = media.filename ?? `herald-${i + 1}.${extension[media.contentType] ?? 'bin'}`;
      const item = await client.upload(site, bytes, media.contentType, filename, ctx.signal);
      const url = str(item.source_url);
      if (!url) throw new PlatformError('wordpress', { kind: 'rejected', code: 'unexpected_response' }, 'The WordPress site answered the upload without the file\'s URL; check its media library before retrying.');
      uploaded.push({ id: item.id, url, kind: media.kind });
    }
    const s = post.settings;
    const body = post.description?.trim() ? post.description : post.title;
    const content = [paragraphs(body), ...uploaded.map(mediaBlock)].filter(Boolean).join('\n\n');
    const payload: Json = {
      title: post.title,
      content,
      status: typeof s.wordpress_status === 'string' ? s.wordpress_status : 'publish',
      ...(Array.isArray(s.wordpress_categories) && s.wordpress_categories.length ? { categories: s.wordpress_categories.map(Number) } : {}),
      ...(Array.isArray(s.wordpress_tags) && s.wordpress_tags.length ? { tags: s.wordpress_tags.map(Number) } : {}),
      ...(typeof s.wordpress_excerpt === 'string' ? { excerpt: s.wordpress_excerpt } : {}),
      ...(typeof s.wordpress_slug === 'string' ? { slug: s.wordpress_slug } : {}),
      ...(uploaded[0] ? { featured_media: uploaded[0].id } : {}),
    };
    const created = await client.call(site, 'POST', '/posts', payload, ctx.signal);
    const link = str(created.link);
    return {
      postId: String(created.id),
      ...(link ? { url: link } : {}),
      warnings: [],
      extra: { status: str(created.status) ?? payload.status, ...(uploaded.length ? { media_ids: uploaded.map((u) => u.id) } : {}) },
    };
  }

  return {
    async publish(ctx, post) {
      return { kind: 'done', outcome: await publish(ctx, post) };
    },
  };
}
