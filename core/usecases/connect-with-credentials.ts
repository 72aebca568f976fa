import { connectRefused, invalidInput, PlatformError, redditUnavailable } from '../domain/errors';
import type { ConnectedAccount } from '../domain/connected-account';
import type { OperatorAccount } from '../domain/operator';
import { UNAVAILABLE_PLATFORMS, type Platform } from '../domain/platforms';
import { SEALED_FIELDS } from '../domain/sealed-fields';
import type { PlatformRegistry, VerifiedConnection } from '../ports/platform';
import type { Storage } from '../ports/storage';
import type { Clock, IdGenerator, SecretBox } from '../ports/system';
import { requireProfile } from './profiles';
import { connectionEstablished, type LifecycleDeps } from './connection-lifecycle';

/** Connecting is a lifecycle transition: the optional LifecycleDeps (notifier, workflows) get its event and effects. */
export interface ConnectDeps extends Omit<LifecycleDeps, 'storage' | 'clock'> {
  storage: Pick<Storage, 'profiles' | 'connectedAccounts'> & Partial<Pick<Storage, 'operators'>>;
  platforms: PlatformRegistry;
  secrets: SecretBox;
  ids: IdGenerator;
  clock: Clock;
}

/**
 * Connects a credentials-based channel (discord webhook, telegram bot) to a profile: the
 * network checks the credentials first, then they are stored sealed. Reconnecting replaces the
 * profile's one connection of that platform.
 */
export async function connectWithCredentials(
  deps: ConnectDeps,
  account: OperatorAccount,
  platform: Platform,
  input: { profile_username?: unknown } & Record<string, unknown>,
): Promise<ConnectedAccount> {
  if (UNAVAILABLE_PLATFORMS.includes(platform)) throw redditUnavailable();
  const connector = deps.platforms.get(platform)?.credentials;
  if (!connector) throw invalidInput(`${platform} is not connected with credentials.`, undefined, 'platform_not_supported');
  if (typeof input.profile_username !== 'string' || !input.profile_username) {
    throw invalidInput('profile_username is required: the profile to connect this account to.');
  }
  const profile = await requireProfile(deps.storage, account.id, input.profile_username);
  let verified: VerifiedConnection;
  try {
    verified = await connector.verify(input);
  } catch (err) {
    throw err instanceof PlatformError ? connectRefused(err) : err;
  }
  return storeConnection(deps, { accountId: account.id, profileUsername: profile.username, platform }, verified);
}

/**
 * Stores a verified connection as the profile's one connection of that platform (reconnecting
 * replaces it, keeps its id, and clears reauth_required, a pause and a checkpoint flag), then
 * applies the lifecycle's `connected` transition: social_account_connected, refresh-ahead started,
 * the previous generation's pause ended.
 */
export async function storeConnection(
  deps: Pick<ConnectDeps, 'storage' | 'secrets' | 'ids' | 'clock'> & Omit<LifecycleDeps, 'storage' | 'clock'>,
  owner: { accountId: string; profileUsername: string; platform: Platform },
  verified: VerifiedConnection,
): Promise<ConnectedAccount> {
  const now = deps.clock.now();
  const previous = await deps.storage.connectedAccounts.find(owner.accountId, owner.profileUsername, owner.platform);
  const stored = await deps.storage.connectedAccounts.upsert({
    id: deps.ids.next('conn'),
    ...owner,
    platformUserId: verified.identity.platformUserId,
    handle: verified.identity.handle,
    displayName: verified.identity.displayName,
    avatarUrl: verified.identity.avatarUrl,
    status: 'connected',
    ...(verified.identity.capabilities ? { capabilities: verified.identity.capabilities } : {}),
    sealedCredentials: deps.secrets.seal(JSON.stringify(verified.credentials), SEALED_FIELDS.connectionCredentials(owner)),
    // A new generation (core/domain/connection-lifecycle.ts): never the previous one's instant.
    connectedAt: previous && previous.connectedAt.getTime() >= now.getTime() ? new Date(previous.connectedAt.getTime() + 1) : now,
    updatedAt: now,
  });
  await connectionEstablished(deps, stored, previous);
  return stored;
}
