import type { Db } from 'mongodb';
import type { QueueSettings } from '../../core/domain/queue';
import type { QueueRepository } from '../../core/ports/storage';
import { clean, COLLECTIONS, ensureIndexes, isDuplicateKey, retryDuplicateUpsert, strip, type IdDoc } from './collections';

/** Queue settings (`_id` = account|profile) and the taken places of queue slots. */
export async function createMongoQueues(db: Db): Promise<QueueRepository> {
  const settings = db.collection<IdDoc>(COLLECTIONS.queueSettings);
  const slots = db.collection<IdDoc>(COLLECTIONS.queueSlots);
  await ensureIndexes(slots, [{ key: { accountId: 1, profileUsername: 1, slotAt: 1 }, name: 'accountId_profile_slotAt' }]);
  const settingsId = (accountId: string, profileUsername: string) => `${accountId}|${profileUsername}`;
  const placeId = (accountId: string, profileUsername: string, slotAt: Date, place: number) => `${accountId}|${profileUsername}|${slotAt.toISOString()}|${place}`;
  return {
    async getSettings(accountId, profileUsername) {
      const doc = await settings.findOne({ _id: settingsId(accountId, profileUsername) });
      return doc ? (strip(doc) as unknown as QueueSettings) : null;
    },
    async putSettings(value) {
      const _id = settingsId(value.accountId, value.profileUsername);
      await retryDuplicateUpsert(() => settings.replaceOne({ _id }, { ...clean(value), _id }, { upsert: true }), 'queue settings');
    },
    async reserve(accountId, profileUsername, slotAt, capacity, requestId) {
      for (let place = 0; place < capacity; place += 1) {
        try {
          await slots.insertOne({ _id: placeId(accountId, profileUsername, slotAt, place), accountId, profileUsername, slotAt, requestId });
          return true;
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
        }
      }
      return false;
    },
    async release(accountId, profileUsername, slotAt, requestId) {
      await slots.deleteMany({ accountId, profileUsername, slotAt, requestId });
    },
    async countInSlot(accountId, profileUsername, slotAt) {
      return slots.countDocuments({ accountId, profileUsername, slotAt });
    },
  };
}
