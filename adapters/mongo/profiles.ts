import type { Db, Document } from 'mongodb';
import type { Profile } from '../../core/domain/profile';
import type { ProfileRepository } from '../../core/ports/storage';
import { clean, COLLECTIONS, ensureIndexes, mapDuplicate, strip } from './collections';

/**
 * ui_labels keys contain dots (`connect.title`), which MongoDB-wire servers do not all accept as
 * field names: the labels are stored as a list of {key, text} (FerretDB has no nested arrays either).
 */
const labelPairs = (labels: Record<string, string> | undefined): Array<{ key: string; text: string }> =>
  Object.entries(labels ?? {}).map(([key, text]) => ({ key, text }));

/** Profiles, unique per (account, username); the driver's ObjectId is their `_id`. */
export async function createMongoProfiles(db: Db): Promise<ProfileRepository> {
  const col = db.collection<Document>(COLLECTIONS.profiles);
  await ensureIndexes(col, [{ key: { accountId: 1, username: 1 }, name: 'accountId_username_unique', unique: true }]);
  const fromDoc = (doc: Document | null): Profile | null => {
    if (!doc) return null;
    const { uiLabelPairs, ...rest } = strip(doc) as Record<string, unknown> & { uiLabelPairs?: Array<{ key: string; text: string }> };
    return { ...rest, uiLabels: uiLabelPairs ? Object.fromEntries(uiLabelPairs.map((p) => [p.key, p.text])) : (rest.uiLabels ?? {}) } as unknown as Profile;
  };
  return {
    async insert(profile) {
      const { uiLabels, ...rest } = profile;
      await mapDuplicate(`profile ${profile.username}`, () => col.insertOne(clean({ ...rest, uiLabelPairs: labelPairs(uiLabels) })));
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
    async setUiLabels(accountId, username, labels) {
      await col.updateOne({ accountId, username }, { $set: { uiLabelPairs: labelPairs(labels) }, $unset: { uiLabels: '' } });
    },
  };
}
