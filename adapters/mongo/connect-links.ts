import type { Db } from 'mongodb';
import type { ConnectLink } from '../../core/domain/connect-link';
import type { ConnectLinkRepository } from '../../core/ports/connect-storage';
import { clean, ensureIndexes, mapDuplicate, strip, type IdDoc } from './collections';

export const CONNECT_LINKS = 'connect_links';

/** Connect links, `_id` = the token's hash: every lookup is an equality on `_id`. */
export async function createMongoConnectLinks(db: Db): Promise<ConnectLinkRepository> {
  const col = db.collection<IdDoc>(CONNECT_LINKS);
  // Expiry is a field plus periodic cleanup: FerretDB has no TTL indexes.
  await ensureIndexes(col, [{ key: { expiresAt: 1 }, name: 'expiresAt' }]);
  return {
    async insert(link) {
      const { tokenHash, ...rest } = clean(link);
      await mapDuplicate('connect link', () => col.insertOne({ ...rest, _id: tokenHash }));
    },
    async findByTokenHash(tokenHash) {
      const doc = await col.findOne({ _id: tokenHash });
      return doc ? ({ ...strip(doc), tokenHash: doc._id } as unknown as ConnectLink) : null;
    },
    async deleteExpired(now) {
      return (await col.deleteMany({ expiresAt: { $lte: now } })).deletedCount;
    },
  };
}
