import type { Db } from 'mongodb';
import type { ConnectLink } from '../../core/domain/connect-link';
import type { ConnectLinkRepository } from '../../core/ports/connect-storage';
import { clean, ensureIndexes, mapDuplicate, strip, type IdDoc } from './collections';
import { expiryHour, expirySweep, type HourSweepOptions } from './hour-sweep';

export { backfillExpiryHour as backfillConnectLink } from './hour-sweep';

export const CONNECT_LINKS = 'connect_links';

/**
 * Connect links, `_id` = the token's hash: every lookup is an equality on `_id`. Expiry is `xh`
 * (the hour of expiresAt) plus the hour-by-hour cleanup (adapters/mongo/hour-sweep.ts): FerretDB
 * has no TTL indexes.
 */
export async function createMongoConnectLinks(db: Db, opts: { sweep?: HourSweepOptions } = {}): Promise<ConnectLinkRepository> {
  const col = db.collection<IdDoc>(CONNECT_LINKS);
  await ensureIndexes(col, [{ key: { xh: 1 }, name: 'xh' }]);
  const sweep = expirySweep(db, db.collection(CONNECT_LINKS), opts.sweep);
  return {
    async insert(link) {
      const { tokenHash, ...rest } = clean(link);
      await mapDuplicate('connect link', () => col.insertOne({ ...rest, _id: tokenHash, xh: expiryHour(link.expiresAt) }));
    },
    async findByTokenHash(tokenHash) {
      const doc = await col.findOne({ _id: tokenHash });
      return doc ? ({ ...strip(doc, 'xh'), tokenHash: doc._id } as unknown as ConnectLink) : null;
    },
    deleteExpired: (now) => sweep(now),
  };
}
