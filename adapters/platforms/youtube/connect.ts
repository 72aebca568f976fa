/** Connecting a channel through Google OAuth 2, and renewing its access token. */
import { PlatformError } from '../../../core/domain/errors';
import type { AccountIdentity, OAuthConnector, PlatformCredentials, TokenRefresher } from '../../../core/ports/platform';
import { createGoogleOAuthClient, missingGoogleScopes } from '../kit/google';
import { isObject, str } from '../kit/http';
import type { YoutubeClient } from './client';

/** youtube.upload uploads and sets thumbnails; force-ssl reads the channel, adds playlist items, captions and comments. */
export const YOUTUBE_SCOPES = [
  'https://www.googleapis.com/auth/youtube.upload',
  'https://www.googleapis.com/auth/youtube.force-ssl',
  'https://www.googleapis.com/auth/yt-analytics.readonly',
] as const;

export interface YoutubeConnectOptions {
  clientId: string;
  clientSecret: string;
  authBase: string;
  tokenUrl: string;
}

export function createYoutubeConnect(client: YoutubeClient, opts: YoutubeConnectOptions): { oauth: OAuthConnector; refresher: TokenRefresher } {
  const google = createGoogleOAuthClient({
    clientId: opts.clientId, clientSecret: opts.clientSecret, authBase: opts.authBase, tokenUrl: opts.tokenUrl,
    scopes: YOUTUBE_SCOPES, fetch: client.fetch, timeoutMs: client.timeoutMs, now: client.now,
    fail: (outcome) => client.failure(outcome),
  });

  async function readIdentity(accessToken: string): Promise<AccountIdentity> {
    const list = await client.api(accessToken, 'GET', '/youtube/v3/channels?part=snippet&mine=true');
    const channel = Array.isArray(list.items) && isObject(list.items[0]) ? list.items[0] : undefined;
    if (!channel || typeof channel.id !== 'string') {
      throw new PlatformError('youtube', { kind: 'rejected', code: 'youtube_channel_required' }, 'The Google account has no YouTube channel: create one, then connect again.');
    }
    const snippet = isObject(channel.snippet) ? channel.snippet : {};
    const thumbnails = isObject(snippet.thumbnails) ? snippet.thumbnails : {};
    const avatar = isObject(thumbnails.default) ? str(thumbnails.default.url) : undefined;
    const title = str(snippet.title) ?? channel.id;
    return { platformUserId: channel.id, handle: str(snippet.customUrl) ?? title, displayName: title, avatarUrl: avatar ?? '' };
  }

  const oauth: OAuthConnector = {
    pkce: true,
    authorizeUrl: (input) => google.authorizeUrl(input),
    async exchangeCode(input) {
      const tokens = await google.exchangeCode(input);
      // Google's consent screen lets the user untick scopes: without both, publishing cannot work.
      const missing = missingGoogleScopes(tokens.scope, YOUTUBE_SCOPES);
      if (missing.length) {
        throw new PlatformError('youtube', { kind: 'rejected', code: 'oauth_scope_missing' },
          `The YouTube connection was not granted ${missing.join(' and ')}; connect again and allow every permission asked.`);
      }
      const refreshToken = str(tokens.refresh_token);
      if (!refreshToken) {
        throw new PlatformError('youtube', { kind: 'rejected', code: 'oauth_refresh_token_missing' }, 'Google returned no refresh token; connect again.');
      }
      const identity = await readIdentity(tokens.access_token);
      const expiresAt = google.expiresAt(tokens.expires_in);
      return {
        identity,
        credentials: {
          access_token: tokens.access_token,
          refresh_token: refreshToken,
          ...(expiresAt ? { expires_at: expiresAt } : {}),
          scope: str(tokens.scope) ?? '',
          channel_id: identity.platformUserId,
        },
      };
    },
  };

  const refresher: TokenRefresher = {
    async refresh(credentials: PlatformCredentials): Promise<PlatformCredentials> {
      if (!credentials.refresh_token) {
        throw new PlatformError('youtube', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored YouTube credentials have no refresh token; reconnect the account.');
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
