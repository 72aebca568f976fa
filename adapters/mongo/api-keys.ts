import type { Db } from 'mongodb';
import type { ApiKey } from '../../core/domain/operator';
import type { ApiKeyRepository } from '../../core/ports/storage';
import { COLLECTIONS, ensureIndexes, fromIdDoc, mapDuplicate, toIdDoc, type IdDoc } from './collections';

/** API keys, `_id` = the key id; the key hash is unique. */
export async function createMongoApiKeys(db: Db): Promise<ApiKeyRepository> {
  const col = db.collection<IdDoc>(COLLECTIONS.apiKeys);
  await ensureIndexes(col, [
    { key: { hash: 1 }, name: 'hash_unique', unique: true },
    { key: { accountId: 1 }, name: 'accountId' },
  ]);
  return {
    async insert(key) {
      await mapDuplicate('api key', () => col.insertOne(toIdDoc(key)));
    },
    async findByHash(hash) {
      return fromIdDoc<ApiKey>(await col.findOne({ hash }));
    },
    async listByAccount(accountId) {
      // Bounded by design, one equality query: keys are issued by hand (`herald keys issue`,
      // the operator CLI; no API makes them) and only the CLI's `keys list` reads this list.
      const docs = await col.find({ accountId }).sort({ createdAt: 1, _id: 1 }).toArray();
      return docs.map((d) => fromIdDoc<ApiKey>(d) as ApiKey);
    },
    async revoke(accountId, keyId, at) {
      const res = await col.updateOne({ _id: keyId, accountId, revokedAt: null }, {
        $set: { revokedAt: at },
      });
      return res.matchedCount > 0;
    },
    async touch(keyId, at) {
      await col.updateOne({ _id: keyId }, { $set: { lastUsedAt: at } });
    },
  };
}
