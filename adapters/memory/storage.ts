import type { Storage } from '../../core/ports/storage';
import { createMemoryApiKeys } from './api-keys';
import { createMemoryConnectedAccounts } from './connected-accounts';
import { createMemoryOAuthStates } from './oauth-states';
import { createMemoryOperatorAccounts } from './operator-accounts';
import { createMemoryProfiles } from './profiles';
import { createMemoryQueues } from './queues';
import { createMemoryUploads } from './uploads';

/**
 * In-memory Storage with the semantics of the Mongo adapter: the same unique constraints
 * (reported as DuplicateKeyError), the same orderings, and values copied in and out so callers
 * never share state with the store (adapters/memory/values.ts).
 */
export function createMemoryStorage(): Storage {
  return {
    operators: createMemoryOperatorAccounts(),
    apiKeys: createMemoryApiKeys(),
    profiles: createMemoryProfiles(),
    connectedAccounts: createMemoryConnectedAccounts(),
    uploads: createMemoryUploads(),
    oauthStates: createMemoryOAuthStates(),
    queues: createMemoryQueues(),
  };
}
