import type { Storage } from '../../../core/ports/storage';
import { apiKeysContract } from './api-keys.contract';
import { connectedAccountsContract } from './connected-accounts.contract';
import { oauthStatesContract } from './oauth-states.contract';
import { operatorAccountsContract } from './operator-accounts.contract';
import { profilesContract } from './profiles.contract';
import { queuesContract } from './queues.contract';
import type { MakeRepository } from './repository-under-test';
import { uploadsContract } from './uploads.contract';

/** How an adapter builds each repository, fresh and empty. */
export type RepositoryFactories = { [K in keyof Storage]: MakeRepository<Storage[K]> };

/** Every repository's contract on one adapter. */
export function storageContracts(name: string, make: RepositoryFactories): void {
  operatorAccountsContract(name, make.operators);
  apiKeysContract(name, make.apiKeys);
  profilesContract(name, make.profiles);
  connectedAccountsContract(name, make.connectedAccounts);
  queuesContract(name, make.queues);
  oauthStatesContract(name, make.oauthStates);
  uploadsContract(name, make.uploads);
}
