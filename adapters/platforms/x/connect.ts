/**
 * Connecting an X account: OAuth 2 Authorization Code with PKCE
 * (docs.x.com/resources/fundamentals/authentication/oauth-2-0/authorization-code): authorize on
 * x.com, token and refresh (rotating) on api.x.com/2/oauth2/token, identity from /2/users/me.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { AccountIdentity, OAuthConnector, PlatformCredentials, TokenRefresher, VerifiedConnection } from '../../../core/ports/platform';
import { exchangeJson, formPost, isObject, str, type Json } from '../kit/http';
import { createOAuth2Client } from '../kit/oauth2';
import type { XClient } from './client';

export const X_AUTH_BASE = 'https://x.com';
/** offline.access is what makes X hand out a refresh token; media.write is needed by the v2 upload. */
export const X_SCOPES: readonly string[] = ['tweet.read', 'tweet.write', 'users.read', 'media.write', 'offline.access'];

export interface XConnectOptions {
  clientId: string;
  clientSecret?: string;
  authBase: string;
}

export function createXConnect(client: XClient, opts: XConnectOptions): { oauth: OAuthConnector; refresher: TokenRefresher } {
  // Only the authorize URL: X's token calls authenticate in their own way (tokenRequest below).
  const authorize = createOAuth2Client({
    clientId: opts.clientId, clientSecret: opts.clientSecret ?? '', authorizeUrl: `${opts.authBase}/i/oauth2/authorize`,
    tokenUrl: `${client.apiBase}/2/oauth2/token`, scopes: X_SCOPES, fetch: client.fetch, timeoutMs: client.timeoutMs, now: client.now,
    fail: (outcome) => client.failure(outcome),
  });

  async function tokenRequest(params: Record<string, string>, during: 'code_exchange' | 'token_refresh'): Promise<Json> {
    // A confidential client authenticates with HTTP Basic (id and secret form-encoded first); a public one by client_id alone.
    const basic: Record<string, string> = opts.clientSecret === undefined ? {}
      : { authorization: `Basic ${Buffer.from(`${encodeURIComponent(opts.clientId)}:${encodeURIComponent(opts.clientSecret)}`).toString('base64')}` };
    const outcome = await exchangeJson(`${client.apiBase}/2/oauth2/token`, formPost({ ...params, client_id: opts.clientId }, basic),
      { fetch: client.fetch, timeoutMs: client.timeoutMs });
    if (outcome.kind === 'no_response' || outcome.status < 200 || outcome.status >= 300) throw client.failure(outcome, during);
    const body = isObject(outcome.body) ? outcome.body : {};
    if (!str(body.access_token)) throw client.failure({ kind: 'malformed', status: outcome.status, what: 'an access token' }, during);
    return body;
  }

  const tokenCredentials = (tokens: Json, previousRefresh = ''): PlatformCredentials => ({
    access_token: String(tokens.access_token),
    // X rotates the refresh token on every refresh: the old one stops working, so the new one is kept.
    refresh_token: str(tokens.refresh_token) ?? previousRefresh,
    expires_at: new Date(client.now().getTime() + (typeof tokens.expires_in === 'number' ? tokens.expires_in : 7200) * 1000).toISOString(),
    scope: str(tokens.scope) ?? X_SCOPES.join(' '),
  });

  async function readIdentity(token: string): Promise<AccountIdentity> {
    const user = await client.apiData(token, 'GET', '/2/users/me', 'the user', { query: { 'user.fields': 'profile_image_url,username,name' } });
    if (!str(user.id) || !str(user.username)) throw client.failure({ kind: 'malformed', status: 200, what: 'the user id and username' });
    return {
      platformUserId: String(user.id),
      handle: String(user.username),
      displayName: str(user.name) ?? String(user.username),
      avatarUrl: str(user.profile_image_url) ?? '',
    };
  }

  const oauth: OAuthConnector = {
    pkce: true,
    authorizeUrl({ state, redirectUri, codeChallenge }) {
      if (!codeChallenge) throw new Error('X requires PKCE: authorizeUrl needs a code challenge (S256).');
      return authorize.authorizeUrl({ state, redirectUri, codeChallenge });
    },
    async exchangeCode({ code, redirectUri, codeVerifier }): Promise<VerifiedConnection> {
      if (!codeVerifier) throw new Error('X requires PKCE: exchangeCode needs the code verifier.');
      const tokens = await tokenRequest({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, code_verifier: codeVerifier }, 'code_exchange');
      const credentials = tokenCredentials(tokens);
      const identity = await readIdentity(credentials.access_token!);
      return { identity, credentials: { ...credentials, user_id: identity.platformUserId, username: identity.handle } };
    },
  };

  const refresher: TokenRefresher = {
    async refresh(credentials) {
      if (!credentials.refresh_token) {
        throw new PlatformError('x', { kind: 'auth_expired', reason: 'refresh_token_missing' },
          'X gave no refresh token for this account (offline.access was not granted); reconnect it.');
      }
      const tokens = await tokenRequest({ grant_type: 'refresh_token', refresh_token: credentials.refresh_token }, 'token_refresh');
      return { ...credentials, ...tokenCredentials(tokens, credentials.refresh_token) };
    },
  };

  return { oauth, refresher };
}
