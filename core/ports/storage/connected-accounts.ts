import type { AccountRestriction, ConnectedAccount } from '../../domain/connected-account';
import type { Platform } from '../../domain/platforms';

export interface ConnectedAccountRepository {
  /** Inserts or replaces the one connection of (account, profile, platform). */
  upsert(account: ConnectedAccount): Promise<ConnectedAccount>;
  findById(id: string): Promise<ConnectedAccount | null>;
  find(accountId: string, profileUsername: string, platform: Platform): Promise<ConnectedAccount | null>;
  listByProfile(accountId: string, profileUsername: string): Promise<ConnectedAccount[]>;
  setStatus(id: string, status: ConnectedAccount['status'], at: Date): Promise<void>;
  /** Pauses (or, with null, resumes) a connection after a network restriction verdict. */
  setRestriction(id: string, restriction: AccountRestriction | null, at: Date): Promise<void>;
  setCheckpointRequired(id: string, required: boolean, at: Date): Promise<void>;
  /** Stores renewed credentials (sealed) after a token refresh. */
  updateCredentials(id: string, sealedCredentials: string, at: Date): Promise<void>;
  deleteByProfile(accountId: string, profileUsername: string): Promise<number>;
}
