/**
 * GET /svc/facebook/pages: the Pages of a connection as stored at connect and at every token
 * renewal (from /me/accounts), without a call: the spec's `{page_id, page_name}`.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { Lookups } from '../../../core/ports/platform';
import { storedPages } from './pages';

export function createFacebookLookups(): Lookups {
  return {
    lists: ['pages'],
    async list(ctx, kind) {
      if (kind !== 'pages') throw new PlatformError('facebook', { kind: 'unsupported' }, `Facebook has no "${kind}" lookup; it has pages.`);
      return { items: storedPages(ctx.credentials).map((p) => ({ id: p.id, name: p.name })) };
    },
  };
}
