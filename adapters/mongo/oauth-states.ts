import type { Db } from 'mongodb';
import type { OAuthState, OAuthStateRepository } from '../../core/ports/storage';
import { COLLECTIONS, ensureIndexes, fromIdDoc, mapDuplicate, toIdDoc, type IdDoc } from './collections';
import { expiryHour, expirySweep, type HourSweepOptions } from './hour-sweep';

export { backfillExpiryHour as backfillOAuthState } from './hour-sweep';

/**
 * Pending OAuth authorizations, `_id` = the `state` parameter. Expiry is `xh` (the hour of
 * expiresAt) plus the hour-by-hour cleanup (adapters/mongo/hour-sweep.ts): FerretDB has no TTL indexes.
 */
export async function createMongoOAuthStates(db: Db, opts: { sweep?: HourSweepOptions } = {}): Promise<OAuthStateRepository> {
  const col = db.collection<IdDoc>(COLLECTIONS.oauthStates);
  await ensureIndexes(col, [{ key: { xh: 1 }, name: 'xh' }]);
  const sweep = expirySweep(db, db.collection(COLLECTIONS.oauthStates), opts.sweep);
  return {
    async insert(state) {
      await mapDuplicate('oauth state', () => col.insertOne({ ...toIdDoc(state), xh: expiryHour(state.expiresAt) }));
    },
    async take(id, now) {
      // findOneAndDelete is one document operation: of two callbacks racing with one state, one wins.
      const doc = await col.findOneAndDelete({ _id: id });
      if (doc) delete doc.xh;
      const state = fromIdDoc<OAuthState>(doc);
      return state && state.expiresAt > now ? state : null;
    },
    deleteExpired: (now) => sweep(now),
  };
}
