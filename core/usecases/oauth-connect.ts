import type { ErrorCode } from '../domain/error-codes';
import { HeraldError, invalidInput, PlatformError, redditUnavailable } from '../domain/errors';
import type { ConnectedAccount } from '../domain/connected-account';
import type { OperatorAccount } from '../domain/operator';
import { UNAVAILABLE_PLATFORMS, type Platform } from '../domain/platforms';
import type { PlatformRegistry } from '../ports/platform';
import type { Storage } from '../ports/storage';
import type { Clock, IdGenerator, Pkce, SecretBox } from '../ports/system';
import { requireProfile } from './profiles';
import { storeConnection } from './connect-with-credentials';
import type { LifecycleDeps } from './connection-lifecycle';

export interface OAuthDeps extends Omit<LifecycleDeps, 'storage' | 'clock'> {
  storage: Pick<Storage, 'oauthStates' | 'profiles' | 'connectedAccounts'> & Partial<Pick<Storage, 'operators'>>;
  platforms: PlatformRegistry;
  secrets: SecretBox;
  ids: IdGenerator;
  clock: Clock;
  pkce: Pkce;
}

/** How long an end user has between "start" and the network's redirect back. */
export const OAUTH_STATE_TTL_MS = 30 * 60_000;

export interface OAuthStart {
  authorize_url: string;
  state: string;
  expires_at: string;
}

/**
 * Starts connecting a network account to a profile by OAuth: returns the network's authorize
 * URL. The state (with the PKCE verifier) is stored and works once, for 30 minutes.
 */
export async function startOAuth(
  deps: OAuthDeps, account: OperatorAccount, platform: Platform,
  input: { profileUsername: string; returnUrl?: string; callbackUrl: string },
): Promise<OAuthStart> {
  if (UNAVAILABLE_PLATFORMS.includes(platform)) throw redditUnavailable();
  const connector = deps.platforms.get(platform)?.oauth;
  if (!connector) {
    const oauth = deps.platforms.list().filter((a) => a.oauth).map((a) => a.descriptor.id);
    throw invalidInput(`${platform} is not connected by OAuth here. OAuth networks: ${oauth.join(', ') || 'none configured'}.`, undefined, 'platform_not_supported');
  }
  if (input.returnUrl !== undefined) {
    let url: URL | undefined;
    try { url = new URL(input.returnUrl); } catch { url = undefined; }
    if (!url || !['http:', 'https:'].includes(url.protocol)) throw invalidInput('redirect_url must be an http(s) URL.');
  }
  await requireProfile(deps.storage, account.id, input.profileUsername);
  const id = deps.ids.next('st');
  const codeVerifier = connector.pkce ? deps.pkce.newVerifier() : undefined;
  const expiresAt = new Date(deps.clock.now().getTime() + OAUTH_STATE_TTL_MS);
  await deps.storage.oauthStates.insert({
    id, accountId: account.id, profileUsername: input.profileUsername, platform, redirectUri: input.callbackUrl, expiresAt,
    ...(codeVerifier ? { codeVerifier } : {}),
    ...(input.returnUrl ? { returnUrl: input.returnUrl } : {}),
  });
  const authorizeUrl = connector.authorizeUrl({
    state: id, redirectUri: input.callbackUrl, ...(codeVerifier ? { codeChallenge: deps.pkce.challenge(codeVerifier) } : {}),
  });
  return { authorize_url: authorizeUrl, state: id, expires_at: expiresAt.toISOString() };
}

export type OAuthCompletion =
  | { status: 'success'; connection: ConnectedAccount; returnUrl?: string }
  | { status: 'cancelled' | 'error'; errorCode: ErrorCode; message: string; returnUrl?: string };

/**
 * The network's redirect back: the state is taken (once), the code exchanged for tokens and the
 * identity, and the connection stored sealed. Reconnecting the same profile and platform
 * replaces the connection and clears reauth_required.
 */
export async function completeOAuth(
  deps: OAuthDeps, platform: Platform, input: { state?: string; code?: string; error?: string; errorDescription?: string },
): Promise<OAuthCompletion> {
  const state = input.state ? await deps.storage.oauthStates.take(input.state, deps.clock.now()) : null;
  if (!state || state.platform !== platform) {
    return { status: 'error', errorCode: 'invalid_state', message: 'This connect link is unknown, already used or expired: start connecting again.' };
  }
  const back = state.returnUrl ? { returnUrl: state.returnUrl } : {};
  if (input.error) {
    const cancelled = input.error === 'access_denied' || input.error === 'user_cancelled';
    return { status: cancelled ? 'cancelled' : 'error', errorCode: cancelled ? 'user_cancelled' : 'network_error', message: input.errorDescription ?? input.error, ...back };
  }
  if (!input.code) return { status: 'error', errorCode: 'missing_code', message: 'The network sent no authorization code.', ...back };
  const connector = deps.platforms.get(platform)?.oauth;
  if (!connector) return { status: 'error', errorCode: 'platform_not_supported', message: `${platform} is not connected by OAuth here.`, ...back };
  try {
    const verified = await connector.exchangeCode({ code: input.code, redirectUri: state.redirectUri, ...(state.codeVerifier ? { codeVerifier: state.codeVerifier } : {}) });
    const connection = await storeConnection(deps, { accountId: state.accountId, profileUsername: state.profileUsername, platform }, verified);
    return { status: 'success', connection, ...back };
  } catch (err) {
    if (err instanceof PlatformError || err instanceof HeraldError) {
      return { status: 'error', errorCode: err instanceof PlatformError ? `${platform}_${err.failure.kind}` : (err.errorCode ?? 'invalid_input'), message: err.message, ...back };
    }
    throw err;
  }
}
