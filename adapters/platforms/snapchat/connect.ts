/**
 * Connecting a Snapchat Public Profile: Snap's OAuth 2 (accounts.snapchat.com/login/oauth2, scope
 * snapchat-profile-api, PKCE), the profile read with `GET /v1/public_profiles/my_profile`. Access
 * tokens last 30 minutes; refresh tokens may rotate: the new one is stored.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { AccountIdentity, OAuthConnector, PlatformCredentials, TokenRefresher } from '../../../core/ports/platform';
import { isObject, str } from '../kit/http';
import { createOAuth2Client, rotated } from '../kit/oauth2';
import type { SnapchatClient } from './client';

export const SNAP_SCOPES = ['snapchat-profile-api'] as const;

export function createSnapchatConnect(client: SnapchatClient, opts: { clientId: string; clientSecret: string; authBase: string }): { oauth: OAuthConnector; refresher: TokenRefresher } {
  const oauth2 = createOAuth2Client({
    clientId: opts.clientId, clientSecret: opts.clientSecret,
    authorizeUrl: `${opts.authBase}/login/oauth2/authorize`, tokenUrl: `${opts.authBase}/login/oauth2/access_token`,
    scopes: SNAP_SCOPES, fetch: client.fetch, timeoutMs: client.timeoutMs, now: client.now, fail: (outcome) => client.failure(outcome),
  });

  async function readIdentity(token: string): Promise<AccountIdentity> {
    const answer = await client.call(token, 'GET', '/v1/public_profiles/my_profile');
    const wrapped = Array.isArray(answer.public_profiles) && isObject(answer.public_profiles[0]) ? answer.public_profiles[0] : undefined;
    const profile = isObject(answer.public_profile) ? answer.public_profile : wrapped && isObject(wrapped.public_profile) ? wrapped.public_profile : undefined;
    const id = profile ? str(profile.id) : undefined;
    if (!profile || !id) throw new PlatformError('snapchat', { kind: 'rejected', code: 'snapchat_public_profile_required' }, 'The Snapchat account has no Public Profile: create one in the app, then connect again.');
    const username = str(profile.snap_user_name) ?? str(profile.username);
    const name = str(profile.display_name) ?? str(profile.name) ?? username ?? id;
    return { platformUserId: id, handle: username ? `@${username}` : name, displayName: name, avatarUrl: str(profile.profile_picture_url) ?? '' };
  }

  const oauth: OAuthConnector = {
    pkce: true,
    authorizeUrl: (input) => oauth2.authorizeUrl(input),
    async exchangeCode(input) {
      const tokens = await oauth2.exchangeCode(input);
      const refreshToken = str(tokens.refresh_token);
      if (!refreshToken) throw new PlatformError('snapchat', { kind: 'rejected', code: 'oauth_refresh_token_missing' }, 'Snapchat returned no refresh token; connect again.');
      const identity = await readIdentity(tokens.access_token);
      const expiresAt = oauth2.expiresAt(tokens.expires_in);
      return {
        identity,
        credentials: { access_token: tokens.access_token, refresh_token: refreshToken, ...(expiresAt ? { expires_at: expiresAt } : {}), profile_id: identity.platformUserId },
      };
    },
  };

  const refresher: TokenRefresher = {
    async refresh(credentials: PlatformCredentials): Promise<PlatformCredentials> {
      if (!credentials.refresh_token) throw new PlatformError('snapchat', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Snapchat credentials have no refresh token; reconnect the account.');
      const tokens = await oauth2.refresh(credentials.refresh_token);
      return rotated(credentials, tokens, oauth2.expiresAt(tokens.expires_in));
    },
  };
  return { oauth, refresher };
}
