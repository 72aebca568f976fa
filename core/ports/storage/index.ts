import type { ApiKeyRepository } from './api-keys';
import type { ConnectedAccountRepository } from './connected-accounts';
import type { OAuthStateRepository } from './oauth-states';
import type { OperatorAccountRepository } from './operator-accounts';
import type { ProfileRepository } from './profiles';
import type { QueueRepository } from './queues';
import type { UploadRepository } from './uploads';

/**
 * Storage ports, one repository per file. Every method is one atomic single-document operation
 * (or a read), so the adapters work on MongoDB and on FerretDB, which has no transactions.
 * Uniqueness is enforced by the store (unique indexes), reported as `DuplicateKeyError`.
 */
export { DuplicateKeyError } from './duplicate-key-error';
export type { ApiKeyRepository } from './api-keys';
export type { ConnectedAccountRepository } from './connected-accounts';
export type { OAuthState, OAuthStateRepository } from './oauth-states';
export type { OperatorAccountRepository } from './operator-accounts';
export type { ProfileRepository } from './profiles';
export type { QueueRepository } from './queues';
export type { UploadHistoryQuery, UploadRepository } from './uploads';

/**
 * Every repository, for the composition roots that build them together. A use case names the
 * ones it reads or writes instead: `Pick<Storage, 'uploads' | 'profiles'>`.
 */
export interface Storage {
  operators: OperatorAccountRepository;
  apiKeys: ApiKeyRepository;
  profiles: ProfileRepository;
  connectedAccounts: ConnectedAccountRepository;
  uploads: UploadRepository;
  oauthStates: OAuthStateRepository;
  queues: QueueRepository;
}
