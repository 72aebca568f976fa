import type { Db, Document } from 'mongodb';
import type { ConnectedAccount } from '../../core/domain/connected-account';
import type { ConnectedAccountRepository } from '../../core/ports/storage';
import { clean, COLLECTIONS, ensureIndexes, fromIdDoc, retryDuplicateUpsert, type IdDoc } from './collections';

/** Optional ConnectedAccount fields: removed on replace when the new value lacks them. */
// Absent optional fields are unset on upsert: reconnecting ends a pause and clears a checkpoint flag.
const CONNECTED_ACCOUNT_OPTIONAL = ['capabilities', 'restriction', 'checkpointRequired', 'refreshFailures', 'authStrikes', 'reauthReason', 'reauthSince'] as const;

/** Connected accounts, `_id` = the connection id; one per (account, profile, platform). */
export async function createMongoConnectedAccounts(db: Db): Promise<ConnectedAccountRepository> {
  const col = db.collection<IdDoc>(COLLECTIONS.connectedAccounts);
  await ensureIndexes(col, [
    {
      key: { accountId: 1, profileUsername: 1, platform: 1 },
      name: 'accountId_profileUsername_platform_unique',
      unique: true,
    },
  ]);
  const fromDoc = (doc: Document | null) => fromIdDoc<ConnectedAccount>(doc);
  return {
    async upsert(account) {
      const { id, ...fields } = clean(account);
      const filter = {
        accountId: account.accountId,
        profileUsername: account.profileUsername,
        platform: account.platform,
      };
      const unset: Record<string, ''> = {};
      for (const field of CONNECTED_ACCOUNT_OPTIONAL) {
        if (account[field] === undefined) unset[field] = '';
      }
      const update: Document = { $set: fields, $setOnInsert: { _id: id } };
      if (Object.keys(unset).length > 0) update.$unset = unset;
      // The existing connection keeps its _id; a new one takes `account.id`. Concurrent first
      // upserts of one key race on the unique index: MongoDB retries that server-side, FerretDB
      // answers E11000 to the losers, which then match the winner's document on a retry. An
      // E11000 that persists is a real conflict (`account.id` taken by another connection).
      await retryDuplicateUpsert(() => col.updateOne(filter, update, { upsert: true }), 'connected account');
      const stored = fromDoc(await col.findOne(filter));
      if (!stored) throw new Error('connected account vanished right after its upsert');
      return stored;
    },
    async findById(id) {
      return fromDoc(await col.findOne({ _id: id }));
    },
    async find(accountId, profileUsername, platform) {
      return fromDoc(await col.findOne({ accountId, profileUsername, platform }));
    },
    async listByProfile(accountId, profileUsername) {
      const docs = await col.find({ accountId, profileUsername }).sort({ platform: 1 }).toArray();
      return docs.map((d) => fromDoc(d) as ConnectedAccount);
    },
    async setStatus(id, status, at) {
      await col.updateOne({ _id: id }, { $set: { status, updatedAt: at } });
    },
    async setRestriction(id, restriction, at) {
      await col.updateOne({ _id: id }, restriction
        ? { $set: { restriction: clean(restriction), updatedAt: at } }
        : { $unset: { restriction: '' }, $set: { updatedAt: at } });
    },
    async setCheckpointRequired(id, required, at) {
      await col.updateOne({ _id: id }, required
        ? { $set: { checkpointRequired: true, updatedAt: at } }
        : { $unset: { checkpointRequired: '' }, $set: { updatedAt: at } });
    },
    async updateCredentials(id, sealedCredentials, at) {
      await col.updateOne({ _id: id }, { $set: { sealedCredentials, updatedAt: at }, $unset: { refreshFailures: '' } });
    },
    // The generation is part of the filter: a reconnect (new connectedAt) or a disconnect (no
    // document) in between makes these no-ops. The outbox's unique delivery key, not this filter,
    // is what keeps each transition's event single (FerretDB may lose one of two concurrent updates).
    async setStatusIf(id, connectedAt, status, at, reauthReason) {
      const update: Document = status === 'reauth_required'
        ? { $set: { status, updatedAt: at, reauthSince: at, ...(reauthReason ? { reauthReason } : {}) } }
        : { $set: { status, updatedAt: at }, $unset: { reauthReason: '', reauthSince: '' } };
      const res = await col.updateOne({ _id: id, connectedAt }, update);
      return res.matchedCount > 0;
    },
    async countFailure(id, connectedAt, counter, at) {
      const res = await col.updateOne({ _id: id, connectedAt }, { $inc: { [counter]: 1 }, $set: { updatedAt: at } });
      if (res.matchedCount === 0) return null;
      const doc = await col.findOne({ _id: id }, { projection: { [counter]: 1 } });
      return doc ? Number((doc as Document)[counter] ?? 0) : null;
    },
    async clearFailures(id, at) {
      await col.updateOne({ _id: id }, { $unset: { refreshFailures: '', authStrikes: '' }, $set: { updatedAt: at } });
    },
    async deleteIf(id, connectedAt) {
      const res = await col.deleteOne({ _id: id, connectedAt });
      return res.deletedCount > 0;
    },
    async listByPlatform(platform, page) {
      const filter: Document = page.afterId ? { platform, _id: { $gt: page.afterId } } : { platform };
      const docs = await col.find(filter).sort({ _id: 1 }).limit(page.limit).toArray();
      return docs.map((d) => fromDoc(d) as ConnectedAccount);
    },
    async deleteByProfile(accountId, profileUsername) {
      const res = await col.deleteMany({ accountId, profileUsername });
      return res.deletedCount;
    },
  };
}
