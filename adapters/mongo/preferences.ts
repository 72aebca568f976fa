import type { Db } from 'mongodb';
import type { OperatorPreferences } from '../../core/domain/connect-link';
import type { PreferencesRepository } from '../../core/ports/connect-storage';
import { retryDuplicateUpsert, type IdDoc } from './collections';

export const PREFERENCES = 'operator_preferences';

/** One document per operator account, `_id` = the account id. */
export async function createMongoPreferences(db: Db): Promise<PreferencesRepository> {
  const col = db.collection<IdDoc>(PREFERENCES);
  return {
    async get(accountId) {
      const doc = await col.findOne({ _id: accountId });
      return doc ? { weekStartDay: doc.weekStartDay as OperatorPreferences['weekStartDay'] } : null;
    },
    async set(accountId, preferences, at) {
      await retryDuplicateUpsert(() => col.updateOne({ _id: accountId }, { $set: { weekStartDay: preferences.weekStartDay, updatedAt: at } }, { upsert: true }), 'preferences');
    },
  };
}
