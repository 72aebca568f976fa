import type { OperatorAccount } from '../../domain/operator';

export interface OperatorAccountRepository {
  /** Throws DuplicateKeyError when the email is taken. */
  insert(account: OperatorAccount): Promise<void>;
  findById(id: string): Promise<OperatorAccount | null>;
  findByEmail(email: string): Promise<OperatorAccount | null>;
  updatePlan(id: string, plan: OperatorAccount['plan']): Promise<void>;
}
