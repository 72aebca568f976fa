/**
 * OAuth at threads.net/oauth/authorize → graph.threads.net/oauth/access_token → a 60-day token from
 * /access_token (th_exchange_token), renewed with /refresh_access_token (th_refresh_token).
 */
import type { OAuthConnector, PlatformCredentials, TokenRefresher, VerifiedConnection } from '../../../core/ports/platform';
import { metaAuthorizeUrl, metaTokenExpiresAt, readMetaIdentity } from '../kit/meta-graph';
import { THREADS_AUTHORIZE_URL, THREADS_SCOPES, type ThreadsClient } from './client';

export function createThreadsConnect(client: ThreadsClient): { oauth: OAuthConnector; refresher: TokenRefresher } {
  const { opts, meta, apiBase, graphCall, fail } = client;
  const authorizeUrl = opts.authorizeUrl ?? THREADS_AUTHORIZE_URL;

  async function exchangeCode(input: { code: string; redirectUri: string }): Promise<VerifiedConnection> {
    const short = await meta.postForm(`${apiBase}/oauth/access_token`, {
      client_id: opts.clientId, client_secret: opts.clientSecret, grant_type: 'authorization_code', redirect_uri: input.redirectUri, code: input.code.replace(/#_$/, ''),
    }, 'an access token', { stage: 'connect' });
    if (typeof short.access_token !== 'string') throw fail({ kind: 'malformed', status: 200, what: 'an access token' });
    const long = await meta.exchangeForLongLived('th_exchange_token', opts.clientSecret, short.access_token, { stage: 'connect' });

    const me = await graphCall('GET', '/me', { fields: 'id,username,name,threads_profile_picture_url' }, long.access_token, 'the profile');
    const identity = readMetaIdentity(me, 'id', 'threads_profile_picture_url');
    if (!identity) throw fail({ kind: 'malformed', status: 200, what: 'the profile id and username' });
    return {
      identity,
      credentials: { access_token: long.access_token, expires_at: metaTokenExpiresAt(long.expires_in, client.now()), threads_user_id: identity.platformUserId },
    };
  }

  async function refresh(credentials: PlatformCredentials): Promise<PlatformCredentials> {
    const { token } = client.account(credentials);
    // The long-lived token is itself renewed (no separate refresh token): always keep the one that comes back.
    return meta.refreshLongLived('th_refresh_token', token, credentials);
  }

  return {
    oauth: {
      pkce: false,
      authorizeUrl: ({ state, redirectUri }) => metaAuthorizeUrl(authorizeUrl, {
        client_id: opts.clientId, redirect_uri: redirectUri, scope: THREADS_SCOPES.join(','), response_type: 'code', state,
      }),
      exchangeCode,
    },
    refresher: { refresh },
  };
}
