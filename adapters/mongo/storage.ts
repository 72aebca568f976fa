import type { Db } from 'mongodb';
import type { Storage } from '../../core/ports/storage';
import { createMongoApiKeys } from './api-keys';
import { createMongoConnectedAccounts } from './connected-accounts';
import { createMongoOAuthStates } from './oauth-states';
import { createMongoOperatorAccounts } from './operator-accounts';
import { createMongoProfiles } from './profiles';
import { createMongoQueues } from './queues';
import { createMongoUploads } from './uploads';

export { COLLECTIONS } from './collections';

/**
 * Builds the Storage on `db`. Each repository creates its indexes first (idempotent: same names,
 * same specs), one repository after the other: FerretDB serializes DDL and the lists are short.
 */
export async function createMongoStorage(db: Db): Promise<Storage> {
  const operators = await createMongoOperatorAccounts(db);
  const apiKeys = await createMongoApiKeys(db);
  const profiles = await createMongoProfiles(db);
  const connectedAccounts = await createMongoConnectedAccounts(db);
  const uploads = await createMongoUploads(db);
  const oauthStates = await createMongoOAuthStates(db);
  const queues = await createMongoQueues(db);
  return { operators, apiKeys, profiles, connectedAccounts, uploads, oauthStates, queues };
}
