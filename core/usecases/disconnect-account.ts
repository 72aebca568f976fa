import { notFound, redditUnavailable } from '../domain/errors';
import { UNAVAILABLE_PLATFORMS, type Platform } from '../domain/platforms';
import type { ConnectedAccount } from '../domain/connected-account';
import type { Storage } from '../ports/storage';
import { disconnectConnection, type LifecycleDeps } from './connection-lifecycle';
import { requireProfile } from './profiles';

export interface DisconnectDeps extends LifecycleDeps {
  storage: LifecycleDeps['storage'] & Pick<Storage, 'profiles' | 'connectedAccounts'>;
}

/**
 * Manual disconnect (the API's DELETE /users/{username}/social-accounts/{platform} and the connect
 * page): the profile's connection of `platform` goes, with its credentials; the event
 * social_account_disconnected (manual_disconnect) is emitted once; its refresh-ahead and pause
 * workflows end. 404 PROFILE_NOT_FOUND, 404 ACCOUNT_NOT_CONNECTED when there is nothing to disconnect.
 */
export async function disconnectAccount(
  deps: DisconnectDeps,
  input: { accountId: string; profileUsername: string; platform: Platform; reason: 'manual_disconnect' },
): Promise<{ connection: ConnectedAccount }> {
  if (UNAVAILABLE_PLATFORMS.includes(input.platform)) throw redditUnavailable();
  await requireProfile(deps.storage, input.accountId, input.profileUsername);
  const connection = await deps.storage.connectedAccounts.find(input.accountId, input.profileUsername, input.platform);
  const missing = () => notFound(`Profile "${input.profileUsername}" has no ${input.platform} account connected.`, 'ACCOUNT_NOT_CONNECTED');
  if (!connection) throw missing();
  if (!(await disconnectConnection(deps, connection, input.reason))) throw missing();
  return { connection };
}
