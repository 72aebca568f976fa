/** Connecting a Google account that manages Business Profile locations (Google OAuth 2, scope business.manage). */
import { PlatformError } from '../../../core/domain/errors';
import type { AccountIdentity, OAuthConnector, PlatformCredentials, TokenRefresher } from '../../../core/ports/platform';
import { createGoogleOAuthClient, missingGoogleScopes } from '../kit/google';
import { isObject, str } from '../kit/http';
import type { GoogleBusinessClient } from './client';

export const GBP_SCOPES = ['https://www.googleapis.com/auth/business.manage'] as const;

export function createGoogleBusinessConnect(client: GoogleBusinessClient, opts: { clientId: string; clientSecret: string; authBase: string; tokenUrl: string }): { oauth: OAuthConnector; refresher: TokenRefresher } {
  const google = createGoogleOAuthClient({
    clientId: opts.clientId, clientSecret: opts.clientSecret, authBase: opts.authBase, tokenUrl: opts.tokenUrl,
    scopes: GBP_SCOPES, fetch: client.fetch, timeoutMs: client.timeoutMs, now: client.now, fail: (outcome) => client.failure(outcome),
  });

  /** The user's personal Business Profile account (a stable id per Google user), else the first one listed. */
  async function readIdentity(accessToken: string): Promise<AccountIdentity> {
    const answer = await client.call(accessToken, 'GET', client.accounts('accounts?pageSize=20'));
    const accounts = Array.isArray(answer.accounts) ? answer.accounts.filter(isObject) : [];
    const account = accounts.find((a) => a.type === 'PERSONAL') ?? accounts[0];
    const id = typeof account?.name === 'string' ? account.name.split('/').at(-1) : undefined;
    if (!account || !id) {
      throw new PlatformError('google_business', { kind: 'rejected', code: 'gbp_account_required' }, 'The Google account has no Business Profile account: create a Business Profile, then connect again.');
    }
    const name = str(account.accountName) ?? id;
    return { platformUserId: id, handle: name, displayName: name, avatarUrl: '' };
  }

  const oauth: OAuthConnector = {
    pkce: true,
    authorizeUrl: (input) => google.authorizeUrl(input),
    async exchangeCode(input) {
      const tokens = await google.exchangeCode(input);
      const missing = missingGoogleScopes(tokens.scope, GBP_SCOPES);
      if (missing.length) {
        throw new PlatformError('google_business', { kind: 'rejected', code: 'oauth_scope_missing' },
          `The Google Business connection was not granted ${missing.join(' and ')}; connect again and allow managing the business.`);
      }
      const refreshToken = str(tokens.refresh_token);
      if (!refreshToken) throw new PlatformError('google_business', { kind: 'rejected', code: 'oauth_refresh_token_missing' }, 'Google returned no refresh token; connect again.');
      const identity = await readIdentity(tokens.access_token);
      const expiresAt = google.expiresAt(tokens.expires_in);
      return {
        identity,
        credentials: {
          access_token: tokens.access_token, refresh_token: refreshToken, ...(expiresAt ? { expires_at: expiresAt } : {}),
          scope: str(tokens.scope) ?? '', account_id: identity.platformUserId,
        },
      };
    },
  };

  const refresher: TokenRefresher = {
    async refresh(credentials: PlatformCredentials): Promise<PlatformCredentials> {
      if (!credentials.refresh_token) {
        throw new PlatformError('google_business', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Google Business credentials have no refresh token; reconnect the account.');
      }
      const tokens = await google.refresh(credentials.refresh_token);
      const expiresAt = google.expiresAt(tokens.expires_in);
      return {
        ...credentials,
        access_token: tokens.access_token,
        refresh_token: str(tokens.refresh_token) ?? credentials.refresh_token,
        ...(expiresAt ? { expires_at: expiresAt } : {}),
        scope: str(tokens.scope) ?? credentials.scope ?? '',
      };
    },
  };
  return { oauth, refresher };
}
