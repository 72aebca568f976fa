/**
 * Lookups a client needs to fill a network's fields (Business Profile locations, …), read as the
 * profile's connected account through its connection session (tokens renewed as needed).
 */
import { invalidInput } from '../domain/errors';
import type { OperatorAccount } from '../domain/operator';
import type { Platform } from '../domain/platforms';
import type { Storage } from '../ports/storage';
import { withConnection, type ConnectionSessionDeps } from './connection-session';
import { requireProfile } from './profiles';

export interface LookupItem {
  id: string;
  name: string;
  extra?: Record<string, unknown>;
  /** The profile whose connection found it. */
  profile: string;
}

export type LookupDeps = ConnectionSessionDeps & { storage: Pick<Storage, 'connectedAccounts' | 'profiles'> };

/**
 * Every `kind` item of `platform` for one profile, or for every profile of the account with that
 * network connected when `profileUsername` is omitted (the spec's `GET /facebook/pages` shape).
 */
export async function listLookup(
  deps: LookupDeps, account: OperatorAccount, platform: Platform, kind: string, profileUsername?: string,
): Promise<LookupItem[]> {
  if (!deps.platforms.with(platform, 'lookups')) {
    throw invalidInput(`${platform} has no ${kind} lookup.`, undefined, 'platform_not_supported');
  }
  const profiles = profileUsername !== undefined
    ? [await requireProfile(deps.storage, account.id, profileUsername)]
    : await deps.storage.profiles.list(account.id);
  const items: LookupItem[] = [];
  for (const profile of profiles) {
    const connection = await deps.storage.connectedAccounts.find(account.id, profile.username, platform);
    if (!connection || connection.status === 'disconnected') {
      if (profileUsername !== undefined) {
        throw invalidInput(`No ${platform} account is connected to profile "${profile.username}".`, { platform, type: 'not_connected' }, 'not_connected');
      }
      continue;
    }
    const page = await withConnection(deps, connection, (ctx) => deps.platforms.with(platform, 'lookups')!.lookups.list(ctx, kind));
    items.push(...page.items.map((item) => ({ ...item, profile: profile.username })));
  }
  return items;
}
