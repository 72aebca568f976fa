/**
 * Lookups a client needs to fill a network's fields (Facebook and LinkedIn pages, Pinterest boards,
 * Business Profile locations, TikTok music, locations and creator settings, publishing limits),
 * read as the profile's connected account through its connection session (tokens renewed as
 * needed). A network answers only the kinds it declares; the others are platform_not_supported.
 */
import { invalidInput } from '../domain/errors';
import type { OperatorAccount } from '../domain/operator';
import type { Platform } from '../domain/platforms';
import type { LookupRequest } from '../ports/platform';
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

function unsupported(deps: LookupDeps, platform: Platform, kind: string): never {
  const networks = deps.platforms.having('lookups').filter((a) => [...a.lookups.lists, ...(a.lookups.records ?? [])].includes(kind)).map((a) => a.descriptor.id);
  throw invalidInput(`${platform} has no ${kind.replace(/_/g, ' ')} lookup${networks.length ? `; ${networks.join(', ')} ${networks.length > 1 ? 'have' : 'has'} one` : ''}.`, { platform }, 'platform_not_supported');
}

/** The profile's live connection to `platform`, or 400 not_connected. */
async function connectionOf(deps: LookupDeps, accountId: string, profile: string, platform: Platform) {
  const connection = await deps.storage.connectedAccounts.find(accountId, profile, platform);
  if (!connection || connection.status === 'disconnected') {
    throw invalidInput(`No ${platform} account is connected to profile "${profile}".`, { platform, type: 'not_connected' }, 'not_connected');
  }
  return connection;
}

/**
 * Every `kind` item of `platform` for one profile, or for every profile of the account with that
 * network connected when `profileUsername` is omitted (the spec's `GET /facebook/pages` shape).
 */
export async function listLookup(
  deps: LookupDeps, account: OperatorAccount, platform: Platform, kind: string, profileUsername?: string, request: LookupRequest = {},
): Promise<LookupItem[]> {
  const adapter = deps.platforms.with(platform, 'lookups');
  if (!adapter || !adapter.lookups.lists.includes(kind)) unsupported(deps, platform, kind);
  const profiles = profileUsername !== undefined
    ? [await requireProfile(deps.storage, account.id, profileUsername)]
    : await deps.storage.profiles.list(account.id);
  const items: LookupItem[] = [];
  for (const profile of profiles) {
    if (profileUsername === undefined) {
      const connection = await deps.storage.connectedAccounts.find(account.id, profile.username, platform);
      if (!connection || connection.status === 'disconnected') continue;
    }
    const connection = await connectionOf(deps, account.id, profile.username, platform);
    const page = await withConnection(deps, connection, (ctx) => adapter.lookups.list(ctx, kind, request));
    items.push(...page.items.map((item) => ({ ...item, profile: profile.username })));
  }
  return items;
}

/** One record (TikTok creator settings, a publishing limit) of one profile's connection. */
export async function readLookup(
  deps: LookupDeps, account: OperatorAccount, platform: Platform, kind: string, profileUsername: string,
): Promise<Record<string, unknown>> {
  const adapter = deps.platforms.with(platform, 'lookups');
  if (!adapter || !adapter.lookups.read || !(adapter.lookups.records ?? []).includes(kind)) unsupported(deps, platform, kind);
  const profile = await requireProfile(deps.storage, account.id, profileUsername);
  const connection = await connectionOf(deps, account.id, profile.username, platform);
  return withConnection(deps, connection, (ctx) => adapter.lookups.read!(ctx, kind));
}
