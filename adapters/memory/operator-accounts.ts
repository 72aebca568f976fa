import type { OperatorAccount } from '../../core/domain/operator';
import { DuplicateKeyError, type OperatorAccountRepository } from '../../core/ports/storage';
import { copy } from './values';

/** Operator accounts; ids and emails are unique. */
export function createMemoryOperatorAccounts(): OperatorAccountRepository {
  const byId = new Map<string, OperatorAccount>();
  return {
    async insert(account) {
      if (byId.has(account.id)) throw new DuplicateKeyError('operator account id');
      for (const existing of byId.values()) {
        if (existing.email === account.email) throw new DuplicateKeyError('operator account email');
      }
      byId.set(account.id, copy(account));
    },
    async findById(id) {
      const found = byId.get(id);
      return found ? copy(found) : null;
    },
    async findByEmail(email) {
      for (const existing of byId.values()) {
        if (existing.email === email) return copy(existing);
      }
      return null;
    },
    async updatePlan(id, plan) {
      const found = byId.get(id);
      if (found) found.plan = plan;
    },
  };
}
