import type { ApiKeyRepository } from './storage/api-keys';
import type { ConnectedAccountRepository } from './storage/connected-accounts';
import type { OAuthStateRepository } from './storage/oauth-states';
import type { OperatorAccountRepository } from './storage/operator-accounts';
import type { ProfileRepository } from './storage/profiles';
import type { QueueRepository } from './storage/queues';
import type { UploadRepository } from './storage/uploads';

/**
 * Storage ports, one repository per file in core/ports/storage/. Every method is one atomic
 * single-document operation (or a read), so the adapters work on MongoDB and on FerretDB, which
 * has no transactions. Uniqueness is enforced by the store (unique indexes), reported as
 * `DuplicateKeyError`.
 */
export { DuplicateKeyError } from './storage/duplicate-key-error';
export type { ApiKeyRepository } from './storage/api-keys';
export type { ConnectedAccountRepository } from './storage/connected-accounts';
export type { OAuthState, OAuthStateRepository } from './storage/oauth-states';
export type { OperatorAccountRepository } from './storage/operator-accounts';
export { ProfileLimitError } from './storage/profiles';
export type { ProfileRepository } from './storage/profiles';
export type { QueueRepository } from './storage/queues';
export type { ListPage, UploadHistoryQuery, UploadRepository } from './storage/uploads';

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
