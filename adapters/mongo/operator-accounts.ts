import type { Db } from 'mongodb';
import type { OperatorAccount } from '../../core/domain/operator';
import type { OperatorAccountRepository } from '../../core/ports/storage';
import { COLLECTIONS, ensureIndexes, fromIdDoc, mapDuplicate, toIdDoc, type IdDoc } from './collections';

/** Operator accounts, `_id` = the account id; the email is unique. */
export async function createMongoOperatorAccounts(db: Db): Promise<OperatorAccountRepository> {
  const col = db.collection<IdDoc>(COLLECTIONS.operators);
  await ensureIndexes(col, [{ key: { email: 1 }, name: 'email_unique', unique: true }]);
  return {
    async insert(account) {
      await mapDuplicate('operator account', () => col.insertOne(toIdDoc(account)));
    },
    async findById(id) {
      return fromIdDoc<OperatorAccount>(await col.findOne({ _id: id }));
    },
    async findByEmail(email) {
      return fromIdDoc<OperatorAccount>(await col.findOne({ email }));
    },
    async updatePlan(id, plan) {
      await col.updateOne({ _id: id }, { $set: { plan } });
    },
  };
}
