/** GET /svc/pinterest/boards: the account's boards (boards.ts), as the lookups capability. */
import { PlatformError } from '../../../core/domain/errors';
import type { Lookups, PlatformCredentials } from '../../../core/ports/platform';
import type { PinterestBoard } from './boards';

export function createPinterestLookups(listBoards: (credentials: PlatformCredentials, signal?: AbortSignal) => Promise<PinterestBoard[]>): Lookups {
  return {
    lists: ['boards'],
    async list(ctx, kind) {
      if (kind !== 'boards') throw new PlatformError('pinterest', { kind: 'unsupported' }, `Pinterest has no "${kind}" lookup; it has boards.`);
      const boards = await listBoards(ctx.credentials, ctx.signal);
      return { items: boards.map((b) => ({ id: b.id, name: b.name, extra: { description: b.description, privacy: b.privacy } })) };
    },
  };
}
