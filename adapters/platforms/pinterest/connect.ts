/**
 * Connecting a Pinterest account: OAuth 2 authorization code at www.pinterest.com/oauth/ (no
 * PKCE), tokens from POST /v5/oauth/token with HTTP Basic client authentication (continuous
 * refresh rotates the refresh token), identity from GET /v5/user_account.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { AccountIdentity, OAuthConnector, PlatformCredentials, TokenRefresher, VerifiedConnection } from '../../../core/ports/platform';
import { str, type Json } from '../kit/http';
import { createOAuth2Client } from '../kit/oauth2';
import type { PinterestClient } from './client';

/** The host of the authorize page (`/oauth/`). */
export const PINTEREST_AUTH_BASE = 'https://www.pinterest.com';
export const PINTEREST_SCOPES = ['boards:read', 'boards:write', 'pins:read', 'pins:write', 'user_accounts:read'] as const;

export function createPinterestConnect(client: PinterestClient, opts: { authBase: string }): { oauth: OAuthConnector; refresher: TokenRefresher } {
  // Only the authorize URL: token calls go through the client's one call (Basic auth, its failure mapping).
  const authorize = createOAuth2Client({
    clientId: client.clientId, clientSecret: client.clientSecret, authorizeUrl: `${opts.authBase}/oauth/`,
    tokenUrl: `${client.apiBase}/oauth/token`, scopes: PINTEREST_SCOPES, scopeSeparator: ',',
    fetch: client.fetch, timeoutMs: client.timeoutMs, now: client.now, fail: (outcome) => client.failure(outcome, 'token'),
  });

  /** Token endpoint answer → flat credentials; a refresh without a new refresh token keeps the old one. */
  function credentialsFrom(token: Json, previous: PlatformCredentials = {}): PlatformCredentials {
    const now = client.now().getTime();
    const credentials: PlatformCredentials = { ...previous, access_token: String(token.access_token) };
    if (typeof token.expires_in === 'number') credentials.expires_at = new Date(now + token.expires_in * 1000).toISOString();
    // Continuous refresh rotates the refresh token on every refresh: the new one replaces the old.
    if (typeof token.refresh_token === 'string' && token.refresh_token) {
      credentials.refresh_token = token.refresh_token;
      if (typeof token.refresh_token_expires_at === 'number') {
        credentials.refresh_token_expires_at = new Date(token.refresh_token_expires_at * 1000).toISOString();
      } else if (typeof token.refresh_token_expires_in === 'number') {
        credentials.refresh_token_expires_at = new Date(now + token.refresh_token_expires_in * 1000).toISOString();
      }
    }
    if (typeof token.scope === 'string') credentials.scope = token.scope;
    return credentials;
  }

  const hasAccessToken = { what: 'an access token', has: (b: Json) => typeof b.access_token === 'string' && b.access_token !== '' };

  async function identityOf(token: string): Promise<AccountIdentity> {
    const account = await client.call('GET', '/user_account', { token }, undefined,
      { what: 'the user account', has: (b) => typeof b.username === 'string' || typeof b.id === 'string' });
    const username = str(account.username) ?? '';
    return {
      // `id` is stable across renames; older API versions returned only `username`.
      platformUserId: str(account.id) ?? username,
      handle: username,
      displayName: str(account.business_name) ?? username,
      avatarUrl: str(account.profile_image) ?? '',
    };
  }

  async function exchangeCode(input: { code: string; redirectUri: string }): Promise<VerifiedConnection> {
    const token = await client.call('POST', '/oauth/token', { basic: true }, {
      // continuous_refresh: apps registered before continuous refresh became the default opt in here.
      form: { grant_type: 'authorization_code', code: input.code, redirect_uri: input.redirectUri, continuous_refresh: 'true' },
    }, hasAccessToken);
    const credentials = credentialsFrom(token);
    const identity = await identityOf(credentials.access_token!);
    return { identity, credentials: { ...credentials, user_id: identity.platformUserId, username: identity.handle } };
  }

  async function refresh(credentials: PlatformCredentials): Promise<PlatformCredentials> {
    if (!credentials.refresh_token) {
      throw new PlatformError('pinterest', { kind: 'auth_expired', reason: 'refresh_token_missing' }, 'The stored Pinterest credentials have no refresh token; reconnect the account.');
    }
    const token = await client.call('POST', '/oauth/token', { basic: true },
      { form: { grant_type: 'refresh_token', refresh_token: credentials.refresh_token } }, hasAccessToken);
    return credentialsFrom(token, credentials);
  }

  return {
    oauth: {
      // Pinterest's v5 code flow documents no PKCE; a code challenge, if given, is not sent.
      pkce: false,
      authorizeUrl: ({ state, redirectUri }) => authorize.authorizeUrl({ state, redirectUri }),
      exchangeCode,
    },
    refresher: { refresh },
  };
}
