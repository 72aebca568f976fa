import {
  CONNECT_TOKEN_PREFIX, DEFAULT_PREFERENCES, formatDuration, isProfileBlocked, parseConnectLinkSettings, parseUiLabels, parseWeekStartDay,
  type ConnectLink, type ConnectSession, type OperatorPreferences,
} from '../domain/connect-link';
import { toSocialAccountView, type SocialAccountView } from '../domain/connected-account';
import { forbidden, HeraldError, invalidInput } from '../domain/errors';
import type { OperatorAccount } from '../domain/operator';
import { PLANS } from '../domain/plans';
import { UNAVAILABLE_PLATFORMS, type Platform } from '../domain/platforms';
import { assertProfileUsername, type Profile } from '../domain/profile';
import type { ConnectStorage } from '../ports/connect-storage';
import type { PlatformRegistry } from '../ports/platform';
import { DuplicateKeyError, type Storage } from '../ports/storage';
import type { Clock, IdGenerator, KeyHasher } from '../ports/system';
import { credentialOf } from './authenticate';
import { requireProfile } from './profiles';

export interface ConnectLinkDeps {
  storage: Pick<Storage, 'profiles' | 'connectedAccounts' | 'operators'>;
  connect: ConnectStorage;
  platforms: PlatformRegistry;
  /** SHA-256 of tokens and session secrets (they are 192-bit random: no salt needed). */
  hasher: Pick<KeyHasher, 'hash'>;
  ids: IdGenerator;
  clock: Clock;
}

export interface ConnectLinkOptions {
  /** How long a link works (48 hours; tests shorten it). */
  ttlMs: number;
  /** The web daemon's public address, without a trailing slash: `access_url` is `${webBaseUrl}/connect?token=…`. */
  webBaseUrl: string;
}

/** Every network the page can connect here (OAuth or credentials), in registry order. */
export function connectablePlatforms(platforms: PlatformRegistry): Platform[] {
  return platforms.list()
    .filter((a) => (a.oauth || a.credentials) && !UNAVAILABLE_PLATFORMS.includes(a.descriptor.id))
    .map((a) => a.descriptor.id);
}

/** A random token: two 96-bit random ids, prefixed so it is never mistaken for an API key. */
const newSecret = (ids: IdGenerator, prefix = ''): string => `${prefix}${ids.next()}${ids.next()}`;

/**
 * Whether the profile lies past the plan's limit (after a downgrade). Within the limit (the
 * counters say so) no profile is: the profiles are read only for an account holding more.
 */
async function profileBlocked(deps: Pick<ConnectLinkDeps, 'storage'>, account: OperatorAccount, username: string): Promise<boolean> {
  const limit = PLANS[account.plan].profiles;
  if ((await deps.storage.profiles.count(account.id)) <= limit) return false;
  return isProfileBlocked(await deps.storage.profiles.list(account.id), username, limit);
}

/**
 * `POST /users/generate-jwt`: a single-use connect link for one profile. Every field is checked
 * before anything is written; `ui_labels` omitted leaves the stored labels, a non-empty object
 * replaces them, null or `{}` clears them.
 */
export async function generateConnectLink(
  deps: ConnectLinkDeps, options: ConnectLinkOptions, account: OperatorAccount, input: Record<string, unknown>,
): Promise<{ access_url: string; duration: string }> {
  assertProfileUsername(input.username);
  const labels = parseUiLabels(input.ui_labels);
  const settings = parseConnectLinkSettings(input, connectablePlatforms(deps.platforms));
  const profile = await requireProfile(deps.storage, account.id, input.username);
  if (await profileBlocked(deps, account, profile.username)) {
    throw forbidden(`Profile "${profile.username}" is blocked by the ${account.plan} plan's limit of ${PLANS[account.plan].profiles} profiles: delete profiles or upgrade the plan.`, 'PROFILE_BLOCKED');
  }
  if (labels !== undefined) await deps.storage.profiles.setUiLabels(account.id, profile.username, labels ?? {});
  const token = newSecret(deps.ids, CONNECT_TOKEN_PREFIX);
  const now = deps.clock.now();
  await deps.connect.connectLinks.insert({
    tokenHash: deps.hasher.hash(token), accountId: account.id, profileUsername: profile.username, settings,
    createdAt: now, expiresAt: new Date(now.getTime() + options.ttlMs),
  });
  return { access_url: `${options.webBaseUrl}/connect?token=${encodeURIComponent(token)}`, duration: formatDuration(options.ttlMs) };
}

export interface ValidTokenView {
  success: true;
  profile: { username: string; social_accounts: Record<string, SocialAccountView>; ui_labels: Record<string, string> };
}

/** A token that is ours and unexpired, but no longer opens the page. */
export interface InvalidTokenView {
  isValid: false;
  reason: 'link_already_used' | 'profile_not_found' | 'profile_blocked';
}

/** The social accounts of a profile as the spec's object shows them (disconnected ones left out). */
export async function socialAccountsOf(storage: Pick<Storage, 'connectedAccounts'>, accountId: string, username: string): Promise<Record<string, SocialAccountView>> {
  const social: Record<string, SocialAccountView> = {};
  for (const c of await storage.connectedAccounts.listByProfile(accountId, username)) {
    if (c.status !== 'disconnected') social[c.platform] = toSocialAccountView(c);
  }
  return social;
}

/**
 * `GET /users/validate-jwt` with `Authorization: Bearer <token>`. 401 (unauthenticated) for a
 * missing header, a token that is not ours, or an expired one; 200 `{isValid:false, reason}` for
 * a link already used or whose profile is gone or blocked; else the profile.
 */
export async function validateConnectToken(deps: ConnectLinkDeps, authorization: string | undefined): Promise<ValidTokenView | InvalidTokenView> {
  const token = credentialOf(authorization, 'Bearer');
  if (!token) throw new HeraldError('unauthenticated', 'Missing credentials: send the header "Authorization: Bearer <ACCESS_TOKEN>" with the token of the connect URL.');
  return checkConnectToken(deps, token);
}

/**
 * The same check for an operator holding a link's token (`POST /users/validate-jwt {jwt}` with the
 * API key, as the commercial API's clients send it): only the caller's own links are known.
 */
export async function validateOwnConnectToken(deps: ConnectLinkDeps, account: OperatorAccount, token: unknown): Promise<ValidTokenView | InvalidTokenView> {
  return checkConnectToken(deps, requireConnectToken(token), account.id);
}

/** The `jwt` field of `POST /users/validate-jwt`: a token, sent (the edge runs the same rule). */
export function requireConnectToken(token: unknown): string {
  if (typeof token !== 'string' || token === '') throw invalidInput('jwt is required: the token of the connect URL (its `token` query value).', { field: 'jwt' });
  return token;
}

async function checkConnectToken(deps: ConnectLinkDeps, token: string, accountId?: string): Promise<ValidTokenView | InvalidTokenView> {
  const tokenHash = deps.hasher.hash(token);
  const link = await deps.connect.connectLinks.findByTokenHash(tokenHash);
  if (!link || (accountId !== undefined && link.accountId !== accountId)) {
    throw new HeraldError('unauthenticated', `Invalid token: it is not a connect token of this ${accountId === undefined ? 'service' : 'account'}.`, 'invalid_token');
  }
  if (link.expiresAt <= deps.clock.now()) throw new HeraldError('unauthenticated', `This connect token expired at ${link.expiresAt.toISOString()}: generate a new link.`, 'token_expired');
  if (await deps.connect.connectSessions.findByTokenHash(tokenHash)) return { isValid: false, reason: 'link_already_used' };
  const account = await deps.storage.operators.findById(link.accountId);
  const profile = account ? await deps.storage.profiles.find(account.id, link.profileUsername) : null;
  if (!account || !profile) return { isValid: false, reason: 'profile_not_found' };
  if (await profileBlocked(deps, account, profile.username)) return { isValid: false, reason: 'profile_blocked' };
  return {
    success: true,
    profile: { username: profile.username, social_accounts: await socialAccountsOf(deps.storage, account.id, profile.username), ui_labels: profile.uiLabels ?? {} },
  };
}

/** What a browser opening `/connect?token=…` gets. */
export type LinkOpening =
  /** First open: the link is now this browser's; `sessionSecret` goes into its HttpOnly cookie. */
  | { kind: 'opened'; link: ConnectLink; sessionSecret: string }
  /** The browser that opened it comes back with the link (e.g. /connect/calendar?token=…): its session goes on. */
  | { kind: 'resumed'; link: ConnectLink }
  | { kind: 'used' | 'expired' | 'invalid' | 'blocked' };

/**
 * Single use: the first open claims the link for one browser session (a unique-key insert, so of
 * two browsers racing one wins). Opening it again from anywhere else is refused ("already used").
 */
export async function openConnectLink(deps: ConnectLinkDeps, token: string, sessionSecret?: string): Promise<LinkOpening> {
  const tokenHash = deps.hasher.hash(token);
  const link = await deps.connect.connectLinks.findByTokenHash(tokenHash);
  if (!link) return { kind: 'invalid' };
  const now = deps.clock.now();
  if (link.expiresAt <= now) return { kind: 'expired' };
  const existing = await deps.connect.connectSessions.findByTokenHash(tokenHash);
  if (existing) return sessionSecret && deps.hasher.hash(sessionSecret) === existing.sessionHash ? { kind: 'resumed', link } : { kind: 'used' };
  const account = await deps.storage.operators.findById(link.accountId);
  if (!account || !(await deps.storage.profiles.find(account.id, link.profileUsername))) return { kind: 'invalid' };
  if (await profileBlocked(deps, account, link.profileUsername)) return { kind: 'blocked' };
  const secret = newSecret(deps.ids);
  try {
    await deps.connect.connectSessions.claim({
      tokenHash, sessionHash: deps.hasher.hash(secret), accountId: link.accountId, profileUsername: link.profileUsername, createdAt: now, expiresAt: link.expiresAt,
    });
  } catch (err) {
    if (err instanceof DuplicateKeyError) return { kind: 'used' };
    throw err;
  }
  return { kind: 'opened', link, sessionSecret: secret };
}

export interface ConnectPrincipal {
  kind: 'connect_session';
  session: ConnectSession;
  link: ConnectLink;
  account: OperatorAccount;
  profile: Profile;
}

/** The page's principal from its cookie: one profile of one operator account, until the link expires. */
export async function resumeConnectSession(deps: ConnectLinkDeps, sessionSecret: string | undefined): Promise<ConnectPrincipal | null> {
  if (!sessionSecret) return null;
  const session = await deps.connect.connectSessions.findBySessionHash(deps.hasher.hash(sessionSecret), deps.clock.now());
  if (!session) return null;
  const link = await deps.connect.connectLinks.findByTokenHash(session.tokenHash);
  const account = await deps.storage.operators.findById(session.accountId);
  const profile = account ? await deps.storage.profiles.find(account.id, session.profileUsername) : null;
  if (!link || !account || !profile) return null;
  return { kind: 'connect_session', session, link, account, profile };
}

/** Expired links and sessions go (no TTL indexes on FerretDB): run periodically. */
export async function deleteExpiredConnectLinks(deps: Pick<ConnectLinkDeps, 'connect' | 'clock'>): Promise<number> {
  const now = deps.clock.now();
  return (await deps.connect.connectLinks.deleteExpired(now)) + (await deps.connect.connectSessions.deleteExpired(now));
}

export interface PreferencesView {
  week_start_day: OperatorPreferences['weekStartDay'];
}

export async function getPreferences(deps: { connect: ConnectStorage }, account: OperatorAccount): Promise<PreferencesView> {
  const prefs = (await deps.connect.preferences.get(account.id)) ?? DEFAULT_PREFERENCES;
  return { week_start_day: prefs.weekStartDay };
}

/** `POST /users/preferences`: today `week_start_day` (used by the calendar). */
export async function setPreferences(deps: { connect: ConnectStorage; clock: Clock }, account: OperatorAccount, input: Record<string, unknown>): Promise<PreferencesView> {
  if (input.week_start_day === undefined) throw invalidInput('week_start_day is required: a day name (sunday … saturday) or 0-6 with 0 = sunday.', { field: 'week_start_day' });
  const weekStartDay = parseWeekStartDay(input.week_start_day);
  await deps.connect.preferences.set(account.id, { weekStartDay }, deps.clock.now());
  return { week_start_day: weekStartDay };
}
