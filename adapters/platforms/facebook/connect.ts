/**
 * Facebook Login: code → short-lived user token → fb_exchange_token long-lived user token → /me and
 * /me/accounts (the Pages and their tokens, which do not expire). Refresh renews the user token and
 * re-reads the Pages.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { AccountIdentity, OAuthConnector, PlatformCredentials, TokenRefresher } from '../../../core/ports/platform';
import { isObject, str } from '../kit/http';
import { FACEBOOK_SCOPES, type FacebookClient } from './client';
import { storedPages, type FacebookPage } from './pages';

export function createFacebookConnect(client: FacebookClient): { oauth: OAuthConnector; refresher: TokenRefresher } {
  const { opts, graph, authBase } = client;

  async function readPages(userToken: string, signal?: AbortSignal): Promise<FacebookPage[]> {
    const pages: FacebookPage[] = [];
    let after: string | undefined;
    for (let round = 0; round < 50; round++) {
      const res = await graph('GET', '/me/accounts', { fields: 'id,name,access_token', limit: '100', after }, { token: userToken, signal, expect: 'data' });
      for (const p of Array.isArray(res.data) ? res.data : []) {
        if (isObject(p) && typeof p.id === 'string' && typeof p.access_token === 'string') {
          pages.push({ id: p.id, name: typeof p.name === 'string' ? p.name : p.id, token: p.access_token });
        }
      }
      const paging = isObject(res.paging) ? res.paging : {};
      const cursor = isObject(paging.cursors) ? str(paging.cursors.after) : undefined;
      if (!paging.next || !cursor) break;
      after = cursor;
    }
    return pages;
  }

  /** fb_exchange_token: a long-lived (about 60 days) user token for a short- or long-lived one. */
  async function longLived(token: string): Promise<{ token: string; expiresAt?: string }> {
    const res = await graph('GET', '/oauth/access_token', {
      grant_type: 'fb_exchange_token', client_id: opts.clientId, client_secret: opts.clientSecret, fb_exchange_token: token,
    }, { oauth: true, expect: 'access_token' });
    const expiresIn = Number(res.expires_in);
    return {
      token: String(res.access_token),
      expiresAt: Number.isFinite(expiresIn) && expiresIn > 0 ? new Date(client.now().getTime() + expiresIn * 1000).toISOString() : undefined,
    };
  }

  function credentialsOf(userId: string, user: { token: string; expiresAt?: string }, pages: FacebookPage[]): PlatformCredentials {
    return {
      user_id: userId,
      user_access_token: user.token,
      ...(user.expiresAt ? { expires_at: user.expiresAt } : {}),
      pages: JSON.stringify(pages),
    };
  }

  const oauth: OAuthConnector = {
    pkce: false,
    authorizeUrl({ state, redirectUri }) {
      const query = new URLSearchParams({
        client_id: opts.clientId, redirect_uri: redirectUri, state, response_type: 'code', scope: FACEBOOK_SCOPES.join(','),
      });
      return `${authBase}/dialog/oauth?${query}`;
    },
    async exchangeCode({ code, redirectUri }) {
      const short = await graph('GET', '/oauth/access_token', {
        client_id: opts.clientId, client_secret: opts.clientSecret, redirect_uri: redirectUri, code,
      }, { oauth: true, expect: 'access_token' });
      const user = await longLived(String(short.access_token));
      const me = await graph('GET', '/me', { fields: 'id,name,picture' }, { token: user.token, expect: 'id' });
      const pages = await readPages(user.token);
      if (!pages.length) {
        // Facebook publishes to Pages only, never to personal profiles.
        throw new PlatformError('facebook', { kind: 'rejected', code: 'facebook_no_pages' },
          'This Facebook login manages no Pages (or none were shared with Herald); only Pages can be posted to, not personal profiles.');
      }
      const name = str(me.name) ?? String(me.id);
      const picture = isObject(me.picture) && isObject(me.picture.data) ? str(me.picture.data.url) : undefined;
      const identity: AccountIdentity = { platformUserId: String(me.id), handle: name, displayName: name, avatarUrl: picture ?? '' };
      return { identity, credentials: credentialsOf(String(me.id), user, pages) };
    },
  };

  const refresher: TokenRefresher = {
    async refresh(credentials) {
      const userToken = credentials.user_access_token;
      if (!userToken) {
        throw new PlatformError('facebook', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored Facebook login is incomplete; reconnect the account.');
      }
      let user: { token: string; expiresAt?: string };
      try {
        user = await longLived(userToken);
      } catch (err) {
        if (!(err instanceof PlatformError) || err.failure.kind !== 'auth_expired') throw err;
        // Page tokens outlive the user token: while they still work the connection stays usable,
        // and without expires_at the core stops asking to refresh.
        const pages = storedPages(credentials);
        if (!pages.length) throw err;
        for (const page of pages) await graph('GET', '/me', { fields: 'id' }, { token: page.token, expect: 'id' }).catch(() => { throw err; });
        const { expires_at: _expired, ...rest } = credentials;
        return rest;
      }
      const pages = await readPages(user.token);
      return credentialsOf(credentials.user_id ?? '', user, pages);
    },
  };

  return { oauth, refresher };
}
