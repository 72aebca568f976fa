/** Connecting a channel through Google OAuth 2, and renewing its access token. */
import { PlatformError } from '../../../core/domain/errors';
import type { AccountIdentity, OAuthConnector, TokenRefresher } from '../../../core/ports/platform';
import { createGoogleConnect } from '../kit/google-connect';
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

  return createGoogleConnect({
    platform: 'youtube', label: 'YouTube', scopes: YOUTUBE_SCOPES, consentHint: 'allow every permission asked', identityField: 'channel_id', readIdentity,
    ...opts, transport: { fetch: client.fetch, timeoutMs: client.timeoutMs, now: client.now, fail: (outcome) => client.failure(outcome) },
  });
}
