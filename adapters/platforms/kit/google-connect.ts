/**
 * Connecting an account through Google OAuth 2 and renewing its access token: what every Google
 * network (YouTube, Google Business Profile) does alike. The network gives its scopes, how it reads
 * the connected identity, and the credential field that keeps that identity's id.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { Platform } from '../../../core/domain/platforms';
import type { AccountIdentity, OAuthConnector, PlatformCredentials, TokenRefresher } from '../../../core/ports/platform';
import { createGoogleOAuthClient, missingGoogleScopes } from './google';
import { str } from './http';
import type { OAuth2ClientOptions } from './oauth2';

export interface GoogleConnectOptions {
  platform: Platform;
  /** The network's name in messages (`YouTube`, `Google Business`). */
  label: string;
  scopes: readonly string[];
  /** What to allow on the consent screen, after "connect again and" (`allow every permission asked`). */
  consentHint: string;
  /** The credential field keeping the identity's id (`channel_id`, `account_id`). */
  identityField: string;
  readIdentity(accessToken: string): Promise<AccountIdentity>;
  clientId: string;
  clientSecret: string;
  authBase: string;
  tokenUrl: string;
  /** The network client's transport and its one failure-mapping function. */
  transport: Pick<OAuth2ClientOptions, 'fetch' | 'timeoutMs' | 'now' | 'fail'>;
}

export function createGoogleConnect(opts: GoogleConnectOptions): { oauth: OAuthConnector; refresher: TokenRefresher } {
  const google = createGoogleOAuthClient({
    clientId: opts.clientId, clientSecret: opts.clientSecret, authBase: opts.authBase, tokenUrl: opts.tokenUrl, scopes: opts.scopes, ...opts.transport,
  });

  const oauth: OAuthConnector = {
    pkce: true,
    authorizeUrl: (input) => google.authorizeUrl(input),
    async exchangeCode(input) {
      const tokens = await google.exchangeCode(input);
      // Google's consent screen lets the user untick scopes: without all of them the connection cannot do its work.
      const missing = missingGoogleScopes(tokens.scope, opts.scopes);
      if (missing.length) {
        throw new PlatformError(opts.platform, { kind: 'rejected', code: 'oauth_scope_missing' },
          `The ${opts.label} connection was not granted ${missing.join(' and ')}; connect again and ${opts.consentHint}.`);
      }
      const refreshToken = str(tokens.refresh_token);
      if (!refreshToken) throw new PlatformError(opts.platform, { kind: 'rejected', code: 'oauth_refresh_token_missing' }, 'Google returned no refresh token; connect again.');
      const identity = await opts.readIdentity(tokens.access_token);
      const expiresAt = google.expiresAt(tokens.expires_in);
      return {
        identity,
        credentials: {
          access_token: tokens.access_token,
          refresh_token: refreshToken,
          ...(expiresAt ? { expires_at: expiresAt } : {}),
          scope: str(tokens.scope) ?? '',
          [opts.identityField]: identity.platformUserId,
        },
      };
    },
  };

  const refresher: TokenRefresher = {
    async refresh(credentials: PlatformCredentials): Promise<PlatformCredentials> {
      if (!credentials.refresh_token) {
        throw new PlatformError(opts.platform, { kind: 'auth_expired', reason: 'credentials_missing' }, `The stored ${opts.label} credentials have no refresh token; reconnect the account.`);
      }
      const tokens = await google.refresh(credentials.refresh_token);
      const expiresAt = google.expiresAt(tokens.expires_in);
      return {
        ...credentials,
        access_token: tokens.access_token,
        // Google usually keeps the refresh token; store a new one when it sends one.
        refresh_token: str(tokens.refresh_token) ?? credentials.refresh_token,
        ...(expiresAt ? { expires_at: expiresAt } : {}),
        scope: str(tokens.scope) ?? credentials.scope ?? '',
      };
    },
  };
  return { oauth, refresher };
}
