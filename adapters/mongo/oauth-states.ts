import type { Db } from 'mongodb';
import type { OAuthState, OAuthStateRepository } from '../../core/ports/storage';
import { COLLECTIONS, ensureIndexes, fromIdDoc, mapDuplicate, toIdDoc, type IdDoc } from './collections';

/** Pending OAuth authorizations, `_id` = the `state` parameter. */
export async function createMongoOAuthStates(db: Db): Promise<OAuthStateRepository> {
  const col = db.collection<IdDoc>(COLLECTIONS.oauthStates);
  // Expiry is a field plus periodic cleanup: FerretDB has no TTL indexes.
  await ensureIndexes(col, [{ key: { expiresAt: 1 }, name: 'expiresAt' }]);
  return {
    async insert(state) {
      await mapDuplicate('oauth state', () => col.insertOne(toIdDoc(state)));
    },
    async take(id, now) {
      // findOneAndDelete is one document operation: of two callbacks racing with one state, one wins.
      const doc = await col.findOneAndDelete({ _id: id });
      const state = fromIdDoc<OAuthState>(doc);
      return state && state.expiresAt > now ? state : null;
    },
    async deleteExpired(now) {
      return (await col.deleteMany({ expiresAt: { $lte: now } })).deletedCount;
    },
  };
}
