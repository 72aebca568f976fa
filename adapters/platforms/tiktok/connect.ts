/**
 * Connecting a TikTok account (Login Kit for Web, OAuth 2 with `client_key` and comma-separated
 * scopes) and renewing its token. TikTok rotates the refresh token on every refresh, and may answer
 * an OAuth error with HTTP 200, so the token exchange reads the body before the status.
 */
import type { OAuthConnector, PlatformCredentials, TokenRefresher, VerifiedConnection } from '../../../core/ports/platform';
import { exchangeJson, formPost, isObject, str, strList, type Json } from '../kit/http';
import { createOAuth2Client } from '../kit/oauth2';
import { fail, type TikTokClient } from './client';

export const TIKTOK_AUTH_BASE = 'https://www.tiktok.com';
/** Scopes Herald asks for: publish (direct post), upload (drafts), and the identity. */
export const TIKTOK_SCOPES: readonly string[] = ['video.publish', 'video.upload', 'user.info.basic', 'user.info.stats', 'video.list'];

export interface TikTokConnectOptions {
  clientId: string;
  clientSecret: string;
  authBase: string;
  scopes: readonly string[];
}

/** The connection's capabilities (TikTok: video_privacy, inbox_fallback, comments, …), stored comma-separated. */
export const capabilitiesOf = (credentials: PlatformCredentials): Set<string> =>
  new Set((credentials.capabilities ?? '').split(',').map((c) => c.trim()).filter(Boolean));

function readCapabilities(value: unknown): string[] | undefined {
  if (Array.isArray(value)) return strList(value);
  if (typeof value === 'string') return value.split(',').map((c) => c.trim()).filter(Boolean);
  return undefined;
}

export function createTikTokConnect(client: TikTokClient, opts: TikTokConnectOptions): { oauth: OAuthConnector; refresher: TokenRefresher } {
  // Only the authorize URL: TikTok's token endpoint answers errors with HTTP 200 (tokenRequest below).
  const authorize = createOAuth2Client({
    clientId: opts.clientId, clientSecret: opts.clientSecret, clientIdParam: 'client_key', scopeSeparator: ',',
    authorizeUrl: `${opts.authBase}/v2/auth/authorize/`, tokenUrl: `${client.apiBase}/v2/oauth/token/`, scopes: opts.scopes,
    fetch: client.fetch, timeoutMs: client.timeoutMs, now: client.now, fail: (outcome) => client.failure(outcome),
  });

  async function tokenRequest(form: Record<string, string>): Promise<Json & { access_token: string; open_id: string }> {
    const outcome = await exchangeJson(`${client.apiBase}/v2/oauth/token/`,
      formPost({ client_key: opts.clientId, client_secret: opts.clientSecret, ...form }, { 'cache-control': 'no-cache' }),
      { fetch: client.fetch, timeoutMs: client.timeoutMs });
    if (outcome.kind === 'no_response') throw client.failure(outcome);
    const body = isObject(outcome.body) ? outcome.body : {};
    // TikTok may answer an OAuth error with HTTP 200: the `error` field decides.
    if (outcome.status < 200 || outcome.status >= 300 || typeof body.error === 'string' || (isObject(body.error) && body.error.code !== 'ok')) {
      throw client.failure(outcome);
    }
    if (typeof body.access_token !== 'string' || typeof body.open_id !== 'string') {
      throw client.failure({ kind: 'malformed', status: outcome.status, what: 'an access token' });
    }
    return body as Json & { access_token: string; open_id: string };
  }

  /** Tokens → stored credentials. Keeps what the response leaves out (capabilities, handle). */
  function credentialsFrom(tokens: Json & { access_token: string; open_id: string }, previous: PlatformCredentials = {}): PlatformCredentials {
    const at = client.now().getTime();
    const seconds = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : Number(v));
    const expiresIn = seconds(tokens.expires_in);
    const refreshIn = seconds(tokens.refresh_expires_in);
    const capabilities = readCapabilities(tokens.capabilities);
    const credentials: PlatformCredentials = {
      ...previous,
      access_token: tokens.access_token,
      open_id: tokens.open_id,
      ...(typeof tokens.refresh_token === 'string' ? { refresh_token: tokens.refresh_token } : {}),
      ...(Number.isFinite(expiresIn) ? { expires_at: new Date(at + expiresIn * 1000).toISOString() } : {}),
      ...(Number.isFinite(refreshIn) ? { refresh_expires_at: new Date(at + refreshIn * 1000).toISOString() } : {}),
      ...(typeof tokens.scope === 'string' ? { scope: tokens.scope } : {}),
      ...(capabilities ? { capabilities: capabilities.join(',') } : {}),
    };
    if (credentials.capabilities === undefined) credentials.capabilities = '';
    return credentials;
  }

  const oauth: OAuthConnector = {
    // PKCE is optional for TikTok web apps; a challenge given by the caller is forwarded (S256).
    pkce: false,
    authorizeUrl: (input) => authorize.authorizeUrl(input),
    async exchangeCode({ code, redirectUri, codeVerifier }): Promise<VerifiedConnection> {
      const tokens = await tokenRequest({
        code, grant_type: 'authorization_code', redirect_uri: redirectUri, ...(codeVerifier ? { code_verifier: codeVerifier } : {}),
      });
      const data = await client.api(tokens.access_token, 'GET', '/v2/user/info/?fields=open_id,union_id,avatar_url,display_name,username', undefined);
      const user = isObject(data.user) ? data.user : {};
      const text = (v: unknown) => str(v) ?? '';
      const credentials = credentialsFrom(tokens);
      credentials.handle = text(user.username);
      if (text(user.union_id)) credentials.union_id = text(user.union_id);
      const capabilities = credentials.capabilities ? credentials.capabilities.split(',') : [];
      return {
        identity: {
          platformUserId: text(user.open_id) || tokens.open_id,
          handle: text(user.username),
          displayName: text(user.display_name) || text(user.username),
          avatarUrl: text(user.avatar_url),
          capabilities,
        },
        credentials,
      };
    },
  };

  const refresher: TokenRefresher = {
    async refresh(credentials) {
      if (!credentials.refresh_token) {
        throw fail({ kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored TikTok connection has no refresh token; reconnect the account.');
      }
      // TikTok rotates the refresh token: the returned one replaces the old, which stops working.
      return credentialsFrom(await tokenRequest({ grant_type: 'refresh_token', refresh_token: credentials.refresh_token }), credentials);
    },
  };

  return { oauth, refresher };
}
