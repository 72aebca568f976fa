/**
 * Business Login: www.instagram.com/oauth/authorize → api.instagram.com/oauth/access_token (short-lived)
 * → graph.instagram.com/access_token (60 days) → /me. The 60-day token is itself renewed.
 */
import type { OAuthConnector, PlatformCredentials, TokenRefresher, VerifiedConnection } from '../../../core/ports/platform';
import { isObject } from '../kit/http';
import { metaAuthorizeUrl, metaTokenExpiresAt, readMetaIdentity } from '../kit/meta-graph';
import { INSTAGRAM_AUTHORIZE_URL, INSTAGRAM_SCOPES, INSTAGRAM_TOKEN_URL, type InstagramClient } from './client';

export function createInstagramConnect(client: InstagramClient): { oauth: OAuthConnector; refresher: TokenRefresher } {
  const { opts, meta, fail } = client;
  const tokenUrl = opts.tokenUrl ?? INSTAGRAM_TOKEN_URL;
  const authorizeUrl = opts.authorizeUrl ?? INSTAGRAM_AUTHORIZE_URL;

  async function exchangeCode(input: { code: string; redirectUri: string }): Promise<VerifiedConnection> {
    // Instagram appends "#_" to the redirect; it is not part of the code.
    const code = input.code.replace(/#_$/, '');
    const short = await meta.postForm(tokenUrl, {
      client_id: opts.clientId, client_secret: opts.clientSecret, grant_type: 'authorization_code', redirect_uri: input.redirectUri, code,
    }, 'an access token', { stage: 'connect' });
    // Business Login documents {data:[{access_token, user_id, permissions}]}; the endpoint also answers flat.
    const grant = Array.isArray(short.data) && isObject(short.data[0]) ? short.data[0] : short;
    if (typeof grant.access_token !== 'string') throw fail({ kind: 'malformed', status: 200, what: 'an access token' });
    const permissions = Array.isArray(grant.permissions) ? grant.permissions.join(',') : typeof grant.permissions === 'string' ? grant.permissions : '';

    const long = await meta.exchangeForLongLived('ig_exchange_token', opts.clientSecret, grant.access_token, { stage: 'connect' });

    // user_id of the token response is app-scoped (and a JSON number past 2^53): /me gives the account's own id.
    const me = await meta.graphCall('GET', '/me', { fields: 'user_id,username,name,profile_picture_url' }, long.access_token, 'the account');
    const identity = readMetaIdentity(me, 'user_id', 'profile_picture_url');
    if (!identity) throw fail({ kind: 'malformed', status: 200, what: 'the account id and username' });
    return {
      identity,
      credentials: { access_token: long.access_token, expires_at: metaTokenExpiresAt(long.expires_in, client.now()), ig_user_id: identity.platformUserId, scopes: permissions },
    };
  }

  async function refresh(credentials: PlatformCredentials): Promise<PlatformCredentials> {
    const { token } = client.account(credentials);
    // Instagram has no separate refresh token: the long-lived token itself is renewed (it must be
    // at least 24 h old and unexpired). Always keep the token that comes back.
    return meta.refreshLongLived('ig_refresh_token', token, credentials, {});
  }

  return {
    oauth: {
      pkce: false,
      authorizeUrl: ({ state, redirectUri }) => metaAuthorizeUrl(authorizeUrl, {
        client_id: opts.clientId, redirect_uri: redirectUri, response_type: 'code', scope: INSTAGRAM_SCOPES.join(','), state,
      }),
      exchangeCode,
    },
    refresher: { refresh },
  };
}
