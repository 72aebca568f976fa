import { conflict, forbidden, notFound } from '../domain/errors';
import type { OperatorAccount } from '../domain/operator';
import { PLANS } from '../domain/plans';
import { assertNewProfileUsername, assertProfileUsername, type Profile } from '../domain/profile';
import { toSocialAccountView, type SocialAccountView } from '../domain/connected-account';
import { DuplicateKeyError, ProfileLimitError, type Storage } from '../ports/storage';
import type { Clock } from '../ports/system';
import { disconnectConnection, type LifecycleDeps } from './connection-lifecycle';

export interface ProfileDeps extends Omit<LifecycleDeps, 'storage' | 'clock'> {
  storage: Pick<Storage, 'profiles' | 'connectedAccounts'> & Partial<Pick<Storage, 'operators'>>;
  clock: Clock;
}

export interface ProfileView {
  username: string;
  created_at: string;
  social_accounts: Record<string, SocialAccountView | ''>;
  ui_labels?: Record<string, string>;
}

async function view(storage: Pick<Storage, 'connectedAccounts'>, profile: Profile): Promise<ProfileView> {
  const accounts = await storage.connectedAccounts.listByProfile(profile.accountId, profile.username);
  const social: Record<string, SocialAccountView | ''> = {};
  for (const account of accounts) {
    if (account.status !== 'disconnected') social[account.platform] = toSocialAccountView(account);
  }
  return {
    username: profile.username,
    created_at: profile.createdAt.toISOString(),
    social_accounts: social,
    ...(Object.keys(profile.uiLabels).length ? { ui_labels: profile.uiLabels } : {}),
  };
}

export async function requireProfile(storage: Pick<Storage, 'profiles'>, accountId: string, username: string): Promise<Profile> {
  const profile = await storage.profiles.find(accountId, username);
  if (!profile) throw notFound(`Profile "${username}" not found.`, 'PROFILE_NOT_FOUND');
  return profile;
}

/**
 * Creates a profile. The answer's `created_at` is an HTTP-date (`Thu, 01 Jan 2026 00:00:00 GMT`)
 * as the spec shows it on create; every read gives ISO-8601.
 */
export async function createProfile(deps: ProfileDeps, account: OperatorAccount, input: { username: unknown }): Promise<ProfileView> {
  assertNewProfileUsername(input.username);
  const limit = PLANS[account.plan].profiles;
  const profile: Profile = { accountId: account.id, username: input.username, createdAt: deps.clock.now(), uiLabels: {} };
  try {
    // The limit is checked by the insert against the account's counters, strictly (racing creations near it cannot both pass).
    await deps.storage.profiles.insert(profile, { limit });
  } catch (err) {
    if (err instanceof ProfileLimitError) {
      throw forbidden(`Profile limit reached: the ${account.plan} plan allows ${limit} profiles. Delete one or upgrade the plan.`, 'PROFILE_LIMIT_REACHED');
    }
    if (err instanceof DuplicateKeyError) throw conflict(`Profile "${input.username}" already exists.`, 'PROFILE_EXISTS');
    throw err;
  }
  return { ...(await view(deps.storage, profile)), created_at: profile.createdAt.toUTCString() };
}

/**
 * Every profile of the account (the spec's GET /users takes no paging): a short list by design,
 * at most the largest plan's limit (core/ports/storage/profiles.ts), each with its connections
 * (at most one per network).
 */
export async function listProfiles(deps: ProfileDeps, account: OperatorAccount): Promise<{ limit: number; plan: string; profiles: ProfileView[] }> {
  const profiles = await deps.storage.profiles.list(account.id);
  return {
    limit: PLANS[account.plan].profiles,
    plan: account.plan,
    profiles: await Promise.all(profiles.map((p) => view(deps.storage, p))),
  };
}

export async function getProfile(deps: ProfileDeps, account: OperatorAccount, username: string): Promise<ProfileView> {
  return view(deps.storage, await requireProfile(deps.storage, account.id, username));
}

/** Deletes the profile and its connections; published posts and upload history stay. */
export async function deleteProfile(deps: ProfileDeps, account: OperatorAccount, input: { username: unknown }): Promise<void> {
  assertProfileUsername(input.username);
  if (!(await deps.storage.profiles.delete(account.id, input.username))) {
    throw notFound(`Profile "${input.username}" not found.`, 'PROFILE_NOT_FOUND');
  }
  // Each connection goes through the lifecycle (social_account_disconnected, workflows ended), then any left over.
  for (const connection of await deps.storage.connectedAccounts.listByProfile(account.id, input.username)) {
    await disconnectConnection(deps, connection, 'manual_disconnect');
  }
  await deps.storage.connectedAccounts.deleteByProfile(account.id, input.username);
}
