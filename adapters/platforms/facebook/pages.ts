/** The Pages of a connection, stored in `credentials.pages` (JSON), and which one a publish goes to. */
import { PlatformError } from '../../../core/domain/errors';
import type { PlatformCredentials } from '../../../core/ports/platform';
import { isObject } from '../kit/http';
import { invalid } from './client';

/** A connected page as stored in `credentials.pages` (JSON). */
export interface FacebookPage { id: string; name: string; token: string }

/**
 * The pages of a connection as the spec's Facebook page objects, for `available_pages` when a
 * publish fails with `facebook_page_required` (and for page lookups).
 */
export function facebookPages(credentials: PlatformCredentials): Array<{ page_id: string; page_name: string }> {
  return storedPages(credentials).map((p) => ({ page_id: p.id, page_name: p.name }));
}

export function storedPages(credentials: PlatformCredentials): FacebookPage[] {
  try {
    const parsed: unknown = JSON.parse(credentials.pages ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.filter((p): p is FacebookPage => isObject(p) && typeof p.id === 'string' && typeof p.token === 'string')
      .map((p) => ({ id: p.id, name: typeof p.name === 'string' ? p.name : p.id, token: p.token }));
  } catch {
    return [];
  }
}

/** The page of a publish: setting first, else the only connected page (spec facebook_page_id). */
export function choosePage(credentials: PlatformCredentials, requested?: string): { page: FacebookPage; singlePage: boolean } {
  const pages = storedPages(credentials);
  const listed = pages.map((p) => `${p.name} (${p.id})`).join(', ');
  if (!pages.length) {
    throw new PlatformError('facebook', { kind: 'auth_expired', reason: 'credentials_missing' }, 'No Facebook Pages are stored for this account; reconnect it.');
  }
  const singlePage = pages.length === 1;
  if (requested) {
    const page = pages.find((p) => p.id === requested);
    if (!page) throw invalid('facebook_page_not_connected', `facebook_page_id ${requested} is not a Page of this Facebook account; connected: ${listed}.`);
    return { page, singlePage };
  }
  if (singlePage) return { page: pages[0]!, singlePage };
  throw new PlatformError('facebook', { kind: 'rejected', code: 'facebook_page_required' },
    `Several Facebook Pages are connected (${listed}); choose one with facebook_page_id.`, {},
    { available_pages: pages.map((p) => ({ page_id: p.id, page_name: p.name })) });
}
