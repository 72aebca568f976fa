import type { Platform } from '../domain/platforms';
import type { Storage } from '../ports/storage';
import type { Clock } from '../ports/system';

export interface DisconnectDeps {
  storage: Pick<Storage, 'connectedAccounts'>;
  clock: Clock;
}

/**
 * Manual disconnect of a profile's connection of one platform (the connect page). Minimal: marks
 * it disconnected (profiles no longer show it, nothing publishes to it); reconnecting replaces it.
 * Returns false when there was no connection to disconnect.
 */
export async function disconnectAccount(
  deps: DisconnectDeps, input: { accountId: string; profileUsername: string; platform: Platform; reason: 'manual_disconnect' },
): Promise<boolean> {
  const connection = await deps.storage.connectedAccounts.find(input.accountId, input.profileUsername, input.platform);
  if (!connection || connection.status === 'disconnected') return false;
  await deps.storage.connectedAccounts.setStatus(connection.id, 'disconnected', deps.clock.now());
  return true;
}
