import type { Db, Document } from 'mongodb';
import type { Profile } from '../../core/domain/profile';
import type { ProfileRepository } from '../../core/ports/storage';
import { clean, COLLECTIONS, ensureIndexes, mapDuplicate, strip } from './collections';

/** Profiles, unique per (account, username); the driver's ObjectId is their `_id`. */
export async function createMongoProfiles(db: Db): Promise<ProfileRepository> {
  const col = db.collection<Document>(COLLECTIONS.profiles);
  await ensureIndexes(col, [{ key: { accountId: 1, username: 1 }, name: 'accountId_username_unique', unique: true }]);
  const fromDoc = (doc: Document | null): Profile | null => (doc ? (strip(doc) as unknown as Profile) : null);
  return {
    async insert(profile) {
      await mapDuplicate(`profile ${profile.username}`, () => col.insertOne(clean({ ...profile })));
    },
    async find(accountId, username) {
      return fromDoc(await col.findOne({ accountId, username }));
    },
    async list(accountId) {
      const docs = await col.find({ accountId }).sort({ createdAt: 1, username: 1 }).toArray();
      return docs.map((d) => fromDoc(d) as Profile);
    },
    async count(accountId) {
      return col.countDocuments({ accountId });
    },
    async delete(accountId, username) {
      const res = await col.deleteOne({ accountId, username });
      return res.deletedCount > 0;
    },
    async setPin(accountId, username, field, value) {
      await col.updateOne({ accountId, username }, value === null ? { $unset: { [`pins.${field}`]: '' } } : { $set: { [`pins.${field}`]: value } });
    },
  };
}
