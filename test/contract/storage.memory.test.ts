import { createMemoryNotifier } from '../../adapters/memory/notifications/notifier';
import { createMemoryApiKeys } from '../../adapters/memory/api-keys';
import { createMemoryConnectedAccounts } from '../../adapters/memory/connected-accounts';
import { createMemoryOAuthStates } from '../../adapters/memory/oauth-states';
import { createMemoryOperatorAccounts } from '../../adapters/memory/operator-accounts';
import { createMemoryProfiles } from '../../adapters/memory/profiles';
import { createMemoryQueues } from '../../adapters/memory/queues';
import { createMemoryUploads } from '../../adapters/memory/uploads';
import { storageContracts } from './storage/contracts';
import { notificationOutboxContract } from './storage/notification-outbox.contract';
import type { MakeRepository } from './storage/repository-under-test';

const fresh = <R>(create: () => R): MakeRepository<R> => async () => ({ repository: create(), cleanup: async () => {} });

storageContracts('memory', {
  operators: fresh(createMemoryOperatorAccounts),
  apiKeys: fresh(createMemoryApiKeys),
  profiles: fresh(createMemoryProfiles),
  connectedAccounts: fresh(createMemoryConnectedAccounts),
  uploads: fresh(createMemoryUploads),
  oauthStates: fresh(createMemoryOAuthStates),
  queues: fresh(createMemoryQueues),
});

notificationOutboxContract('memory', fresh(() => {
  const notifier = createMemoryNotifier();
  return { notifier, emitted: async (accountId: string) => notifier.events.filter((e) => e.account_id === accountId) };
}));
