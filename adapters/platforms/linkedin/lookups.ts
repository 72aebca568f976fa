/**
 * The lookups: the pages the member administers (`credentials.pages`, stored at connect) with their
 * names from the Organizations BATCH_GET, and the helpers the media library and the analytics share
 * for a page-only read (which organization, BATCH_GET).
 */
import type { Lookups, PlatformCredentials } from '../../../core/ports/platform';
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
export async function batchGet(client: LinkedInClient, token: string, resource: string, ids: string[], signal?: AbortSignal): Promise<Json> {
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
