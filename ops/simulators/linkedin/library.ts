/**
 * Reading back what was published, as LinkedIn's Posts API answers it: the FINDER
 * `GET /rest/posts?q=author&author=urn:li:organization:{id}&count=&start=&sortBy=` (organization
 * posts only, newest first, count 1–100, start/count paging with `paging.total`, no cursor;
 * needs r_organization_social and a role on the page; a member URN is refused), and the BATCH_GETs
 * `GET /rest/images?ids=List(…)` / `GET /rest/videos?ids=List(…)` that give media download URLs.
 */
import type { ServerResponse } from 'node:http';
import { sendJson, type SimRequest } from '../kit/http';
import { accessDenied, badRequest } from './answers';
import type { LinkedInState, TokenRecord, VideoRecord } from './state';

const postView = (p: LinkedInState['posts'][number]) => ({
  id: p.id, author: p.author, commentary: p.commentary, visibility: p.visibility, distribution: p.distribution,
  ...(p.content ? { content: p.content } : {}), lifecycleState: p.lifecycleState, isReshareDisabledByAuthor: p.isReshareDisabledByAuthor,
  createdAt: p.createdAt, publishedAt: p.createdAt, lastModifiedAt: p.createdAt,
});

export function findPostsByAuthor(s: LinkedInState, req: SimRequest, res: ServerResponse, token: TokenRecord, version: string): void {
  const q = req.query as Record<string, string | undefined>;
  if (q.q !== 'author') return badRequest(res, 'Query parameter q must be author');
  const author = q.author ?? '';
  const org = /^urn:li:organization:(\d+)$/.exec(author)?.[1];
  if (!org) {
    if (/^urn:li:person:/.test(author)) return accessDenied(res, 'posts.FINDER-author', version);
    return badRequest(res, `Invalid value for param author: ${author}`);
  }
  const page = s.accounts.get(token.sub)?.pages.find((p) => p.id === org);
  if (!page || !token.scope.includes('r_organization_social')) return accessDenied(res, 'posts.FINDER-author', version);
  const count = q.count === undefined ? 10 : Number(q.count);
  const start = q.start === undefined ? 0 : Number(q.start);
  if (!Number.isInteger(count) || count < 1 || count > 100) return badRequest(res, 'count must be an integer from 1 to 100');
  if (!Number.isInteger(start) || start < 0) return badRequest(res, 'start must be a non-negative integer');
  if (q.sortBy !== undefined && q.sortBy !== 'LAST_MODIFIED' && q.sortBy !== 'CREATED') return badRequest(res, 'sortBy must be LAST_MODIFIED or CREATED');
  const mine = s.posts.filter((p) => p.author === author && p.lifecycleState === 'PUBLISHED').reverse()
    // Newest first; posts created in the same millisecond, the later one first (a stable sort of the reversed list).
    .sort((a, b) => b.createdAt - a.createdAt);
  const elements = mine.slice(start, start + count).map(postView);
  const links = start + count < mine.length ? [{ type: 'application/json', rel: 'next', href: `/rest/posts?q=author&author=${encodeURIComponent(author)}&count=${count}&start=${start + count}` }] : [];
  sendJson(res, 200, { elements, paging: { start, count, total: mine.length, links } });
}

const idsOf = (raw: string | undefined): string[] | undefined => {
  const m = /^List\((.*)\)$/.exec(raw ?? '');
  return m ? m[1]!.split(',').map((i) => decodeURIComponent(i.trim())).filter(Boolean) : undefined;
};

export function batchGetMedia(s: LinkedInState, req: SimRequest, res: ServerResponse, kind: 'images' | 'videos', settle: (v: VideoRecord) => VideoRecord): void {
  const ids = idsOf((req.query as Record<string, string | undefined>).ids);
  if (!ids) return badRequest(res, 'ids must be List(urn,…)');
  const results: Record<string, unknown> = {};
  const errors: Record<string, unknown> = {};
  for (const urn of ids) {
    const file = encodeURIComponent(urn);
    if (kind === 'images') {
      const image = s.images.get(urn);
      if (image) results[urn] = { id: urn, owner: image.owner, status: image.status, downloadUrl: `${s.origin}/media/${file}`, downloadUrlExpiresAt: Date.now() + 3600_000 };
      else errors[urn] = { status: 404, message: `Image ${urn} not found` };
    } else {
      const stored = s.videos.get(urn);
      if (!stored) { errors[urn] = { status: 404, message: `Video ${urn} not found` }; continue; }
      const video = settle(stored);
      results[urn] = {
        id: urn, owner: video.owner, status: video.status,
        ...(video.status === 'AVAILABLE' ? { downloadUrl: `${s.origin}/media/${file}`, thumbnail: `${s.origin}/media/${file}/thumbnail`, downloadUrlExpiresAt: Date.now() + 3600_000 } : {}),
      };
    }
  }
  sendJson(res, 200, { results, statuses: Object.fromEntries(ids.map((i) => [i, results[i] ? 200 : 404])), errors });
}

/** `GET /rest/organizations?ids=List(1,2)`: organizations' names and vanity names, as BATCH_GET answers them. */
export function batchGetOrganizations(s: LinkedInState, req: SimRequest, res: ServerResponse): void {
  const ids = idsOf((req.query as Record<string, string | undefined>).ids);
  if (!ids) return badRequest(res, 'ids must be List(id,…)');
  const all = [...s.accounts.values()].flatMap((a) => a.pages);
  const results: Record<string, unknown> = {};
  const errors: Record<string, unknown> = {};
  for (const id of ids) {
    const page = all.find((p) => p.id === id);
    if (!page) { errors[id] = { status: 404, message: `Organization ${id} not found` }; continue; }
    const vanityName = page.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
    results[id] = { id: Number(id), $URN: `urn:li:organization:${id}`, localizedName: page.name, name: { localized: { en_US: page.name }, preferredLocale: { country: 'US', language: 'en' } }, vanityName };
  }
  sendJson(res, 200, { results, statuses: Object.fromEntries(ids.map((i) => [i, results[i] ? 200 : 404])), errors });
}
