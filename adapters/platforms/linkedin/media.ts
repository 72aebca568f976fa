/**
 * The media library: the Posts API FINDER `GET /rest/posts?q=author&author=urn:li:organization:{id}`
 * (Community Management, r_organization_social): organization posts only, newest first, one page
 * of `count` (LinkedIn pages with start/count, which the spec exposes as no cursor). Media URLs
 * come from the Images and Videos APIs' BATCH_GET (`downloadUrl`, a video's `thumbnail`). Which
 * page: the request's (page_urn, or the profile's pinned page), else the first administered one;
 * a connection without pages (a personal profile) is refused.
 */
import type { LibraryMedia, LibraryMediaType, MediaLibrary } from '../../../core/ports/platform';
import { PlatformError } from '../../../core/domain/errors';
import { isObject, str, type Json } from '../kit/http';
import type { LinkedInClient } from './client';
import { batchGet, organizationOf } from './lookups';

function kindOf(content: Json | undefined): { type: LibraryMediaType; urns: string[] } {
  if (!content) return { type: 'TEXT', urns: [] };
  if (isObject(content.media) && str(content.media.id)) {
    const urn = str(content.media.id)!;
    return { type: urn.startsWith('urn:li:video:') ? 'VIDEO' : 'IMAGE', urns: [urn] };
  }
  if (isObject(content.multiImage) && Array.isArray(content.multiImage.images)) {
    return { type: 'CAROUSEL_ALBUM', urns: content.multiImage.images.filter(isObject).map((i) => str(i.id)).filter((u): u is string => u !== undefined) };
  }
  return { type: 'TEXT', urns: [] };
}

export function createLinkedInMediaLibrary(client: LinkedInClient): MediaLibrary {
  return {
    maxLimit: 100,
    cursors: false,
    async list(ctx, { limit, page }) {
      const token = ctx.credentials.access_token;
      if (!token) throw new PlatformError('linkedin', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored LinkedIn credentials are incomplete; reconnect the account.');
      const author = `urn:li:organization:${organizationOf(ctx.credentials, page, 'lists the posts of')}`;
      const reply = await client.rest('GET', `/posts?q=author&author=${encodeURIComponent(author)}&count=${limit}&sortBy=LAST_MODIFIED`, token, undefined, ctx.signal);
      const elements = isObject(reply.body) && Array.isArray(reply.body.elements) ? reply.body.elements.filter(isObject) : undefined;
      if (!elements) throw client.malformed(reply.status, 'a post list');
      const posts = elements.filter((e) => str(e.id)).slice(0, limit).map((e) => ({ post: e, ...kindOf(isObject(e.content) ? e.content : undefined) }));
      const images = [...new Set(posts.flatMap((p) => p.urns.filter((u) => u.startsWith('urn:li:image:'))))];
      const videos = [...new Set(posts.flatMap((p) => p.urns.filter((u) => u.startsWith('urn:li:video:'))))];
      const files: Json = {
        ...(images.length ? await batchGet(client, token, 'images', images, ctx.signal) : {}),
        ...(videos.length ? await batchGet(client, token, 'videos', videos, ctx.signal) : {}),
      };
      const items = posts.map(({ post, type, urns }): LibraryMedia => {
        const file = urns[0] && isObject(files[urns[0]]) ? files[urns[0]] as Json : undefined;
        const id = str(post.id)!;
        const at = typeof post.publishedAt === 'number' ? post.publishedAt : typeof post.createdAt === 'number' ? post.createdAt : undefined;
        return {
          id, mediaType: type,
          ...(str(post.commentary) ? { caption: str(post.commentary) } : {}),
          ...(file && str(file.downloadUrl) ? { mediaUrl: str(file.downloadUrl) } : {}),
          ...(file && str(file.thumbnail) ? { thumbnailUrl: str(file.thumbnail) } : {}),
          permalink: `https://www.linkedin.com/feed/update/${id}/`,
          ...(at !== undefined ? { timestamp: new Date(at).toISOString() } : {}),
        };
      });
      return { items };
    },
  };
}
