/**
 * The media library: the Posts API FINDER `GET /rest/posts?q=author&author=urn:li:organization:{id}`
 * (Community Management, r_organization_social): organization posts only, newest first, one page
 * of `count` (LinkedIn pages with start/count, which the spec exposes as no cursor). Media URLs
 * come from the Images and Videos APIs' BATCH_GET (`downloadUrl`, a video's `thumbnail`). Which
 * page: the request's (page_urn, or the profile's pinned page), else the first administered one;
 * a connection without pages (a personal profile) is refused.
 */
import type { LibraryMedia, LibraryMediaType, Lookups, MediaLibrary, PlatformCredentials } from '../../../core/ports/platform';
import { PlatformError } from '../../../core/domain/errors';
import { isObject, str, type Json } from '../kit/http';
import type { LinkedInClient } from './client';
import { parseOrganizationId } from './settings';

const MAX_BATCH = 50;

/** The administered pages stored at connect (`credentials.pages`, JSON `[{id, role}]`). */
export function linkedInPages(credentials: PlatformCredentials): Array<{ id: string; role: string }> {
  try {
    const parsed: unknown = JSON.parse(credentials.pages ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((p): p is { id: string; role: string } => isObject(p) && typeof p.id === 'string').map((p) => ({ id: p.id, role: typeof p.role === 'string' ? p.role : 'UNKNOWN' })) : [];
  } catch {
    return [];
  }
}

const refuse = (code: string, message: string) => new PlatformError('linkedin', { kind: 'invalid_content', code }, message);

/**
 * The organization a page-only read is for: `page` (numeric id or URN) when the member administers
 * it, else the first administered page. A connection without pages is a personal profile: refused
 * with `linkedin_page_required`, `what` saying what is read for pages only.
 */
export function organizationOf(credentials: PlatformCredentials, page: string | undefined, what: string): string {
  const pages = linkedInPages(credentials);
  if (!pages.length) {
    throw refuse('linkedin_page_required', `LinkedIn ${what} organization pages only; this connection is a personal profile without administered pages (connect with page access, or pass page_urn of a page the member administers).`);
  }
  const wanted = page === undefined ? pages[0]!.id : parseOrganizationId(page);
  if (!wanted) throw refuse('invalid_page_urn', `page_urn must be a numeric organization id or urn:li:organization:<id>; got "${page}".`);
  if (!pages.some((p) => p.id === wanted)) {
    throw refuse('linkedin_page_not_administered', `The member does not administer organization ${wanted}; administered: ${pages.map((p) => p.id).join(', ')}.`);
  }
  return wanted;
}

/** One BATCH_GET `results` map (`ids=List(…)`, URNs encoded inside the list as LinkedIn asks). */
async function batchGet(client: LinkedInClient, token: string, resource: string, ids: string[], signal?: AbortSignal): Promise<Json> {
  const out: Json = {};
  for (let i = 0; i < ids.length; i += MAX_BATCH) {
    const list = ids.slice(i, i + MAX_BATCH).map(encodeURIComponent).join(',');
    const reply = await client.rest('GET', `/${resource}?ids=List(${list})`, token, undefined, signal);
    const results = isObject(reply.body) && isObject(reply.body.results) ? reply.body.results : undefined;
    if (!results) throw client.malformed(reply.status, `${resource} results`);
    Object.assign(out, results);
  }
  return out;
}

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

/** GET /svc/linkedin/pages: the administered pages with their names (Organizations BATCH_GET). */
export function createLinkedInLookups(client: LinkedInClient): Lookups {
  return {
    lists: ['pages'],
    async list(ctx, kind) {
      if (kind !== 'pages') throw new PlatformError('linkedin', { kind: 'unsupported' }, `LinkedIn has no "${kind}" lookup; it has pages.`);
      const pages = linkedInPages(ctx.credentials);
      const token = ctx.credentials.access_token;
      if (!pages.length || !token) return { items: [] };
      const orgs = await batchGet(client, token, 'organizations', pages.map((p) => p.id), ctx.signal);
      return {
        items: pages.map((p) => {
          const org = isObject(orgs[p.id]) ? orgs[p.id] as Json : {};
          return { id: p.id, name: str(org.localizedName) ?? p.id, extra: { urn: `urn:li:organization:${p.id}`, role: p.role, ...(str(org.vanityName) ? { vanity_name: str(org.vanityName) } : {}) } };
        }),
      };
    },
  };
}
