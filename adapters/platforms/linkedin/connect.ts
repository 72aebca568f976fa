/**
 * Connecting LinkedIn with the OAuth 2 authorization code flow of "Sign In with LinkedIn using
 * OpenID Connect" + "Share on LinkedIn" (identity from /v2/userinfo), and refreshing its tokens.
 * Pages need the Community Management API product and its organization scopes.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { OAuthConnector, PlatformCredentials, TokenRefresher, VerifiedConnection } from '../../../core/ports/platform';
import { isObject, trimBase } from '../kit/http';
import { createOAuth2Client, rotated, type OAuth2Client, type TokenAnswer } from '../kit/oauth2';
import { mapLinkedInFailure, type LinkedInClient } from './client';
import { parseOrganizationId } from './settings';

export const LINKEDIN_AUTH_BASE = 'https://www.linkedin.com/oauth/v2';
export const LINKEDIN_MEMBER_SCOPES: readonly string[] = ['openid', 'profile', 'w_member_social'];
/**
 * Posting as pages, listing them, reading their posts back (media library), and their statistics
 * (analytics: share, page and follower statistics need rw_organization_admin).
 */
export const LINKEDIN_PAGE_SCOPES: readonly string[] = ['w_organization_social', 'r_organization_admin', 'r_organization_social', 'rw_organization_admin'];

const parseScopes = (raw: unknown): string[] => (typeof raw === 'string' ? raw.split(/[\s,]+/).filter(Boolean) : []);

export interface LinkedInConnectOptions {
  clientId: string;
  clientSecret: string;
  authBase: string;
  organizationPages: boolean;
}

export function createLinkedInConnect(client: LinkedInClient, opts: LinkedInConnectOptions): { oauth: OAuthConnector; refresher: TokenRefresher } {
  const scopes = [...LINKEDIN_MEMBER_SCOPES, ...(opts.organizationPages ? LINKEDIN_PAGE_SCOPES : [])];
  const authBase = trimBase(opts.authBase);
  // The token endpoint's OAuth errors mean different things for a code and a refresh token.
  const oauthFor = (call: 'code_exchange' | 'token_refresh'): OAuth2Client => createOAuth2Client({
    clientId: opts.clientId,
    clientSecret: opts.clientSecret,
    authorizeUrl: `${authBase}/authorization`,
    tokenUrl: `${authBase}/accessToken`,
    scopes,
    fetch: client.fetch,
    timeoutMs: client.timeoutMs,
    now: client.now,
    fail: (outcome) => mapLinkedInFailure(outcome, { timeoutMs: client.timeoutMs, call, now: client.now() }),
  });
  const codes = oauthFor('code_exchange');
  const refreshes = oauthFor('token_refresh');

  /** expires_in → expires_at on the injected clock (a token that lasts 0 s expires now). */
  const expiresAt = (seconds: number): string => codes.expiresAt(seconds) ?? client.now().toISOString();

  /** LinkedIn always says how long a token lasts; an answer without it is not one. */
  function checked(tokens: TokenAnswer): TokenAnswer & { expires_in: number } {
    if (typeof tokens.expires_in !== 'number') throw client.malformed(200, 'an access token');
    return tokens as TokenAnswer & { expires_in: number };
  }

  /** The pages the member may post as (approved roles), for choosing target_linkedin_page_id. */
  async function administeredPages(token: string): Promise<Array<{ id: string; role: string }>> {
    const reply = await client.rest('GET', '/organizationAcls?q=roleAssignee&state=APPROVED', token, undefined);
    const elements = isObject(reply.body) && Array.isArray(reply.body.elements) ? reply.body.elements : undefined;
    if (!elements) throw client.malformed(reply.status, 'organization roles');
    return elements.flatMap((e) => {
      const id = isObject(e) && typeof e.organization === 'string' ? parseOrganizationId(e.organization) : undefined;
      return id && isObject(e) ? [{ id, role: typeof e.role === 'string' ? e.role : 'UNKNOWN' }] : [];
    });
  }

  async function exchangeCode(input: { code: string; redirectUri: string }): Promise<VerifiedConnection> {
    const tokens = checked(await codes.exchangeCode(input));
    const token = tokens.access_token;
    const info = await client.v2('/userinfo', token);
    if (!isObject(info.body) || typeof info.body.sub !== 'string' || !info.body.sub) throw client.malformed(info.status, 'the member (sub)');
    const user = info.body;
    const sub = user.sub as string;
    const granted = parseScopes(tokens.scope);
    const name = typeof user.name === 'string' && user.name ? user.name
      : [user.given_name, user.family_name].filter((p) => typeof p === 'string' && p).join(' ') || 'LinkedIn member';

    const credentials: PlatformCredentials = {
      access_token: token,
      expires_at: expiresAt(tokens.expires_in),
      scope: granted.join(' '),
      member_urn: `urn:li:person:${sub}`,
    };
    // Programmatic refresh tokens are only issued to approved partners; without one the account
    // is reconnected when `expires_at` comes (refresher says auth_expired).
    if (typeof tokens.refresh_token === 'string' && tokens.refresh_token) {
      credentials.refresh_token = tokens.refresh_token;
      const refreshExpiresAt = codes.expiresAt(tokens.refresh_token_expires_in);
      if (refreshExpiresAt) credentials.refresh_expires_at = refreshExpiresAt;
    }
    if (granted.includes('r_organization_admin') || granted.includes('rw_organization_admin')) credentials.pages = JSON.stringify(await administeredPages(token));
    return {
      identity: {
        platformUserId: sub,
        // OpenID userinfo has no public vanity name under these scopes: the name is the best handle.
        handle: name,
        displayName: name,
        avatarUrl: typeof user.picture === 'string' ? user.picture : '',
      },
      credentials,
    };
  }

  async function refresh(credentials: PlatformCredentials): Promise<PlatformCredentials> {
    const refreshToken = credentials.refresh_token;
    if (!refreshToken) {
      throw new PlatformError('linkedin', { kind: 'auth_expired', reason: 'refresh_unavailable' },
        'LinkedIn issues refresh tokens only to approved partner apps; reconnect the account to renew its access.');
    }
    const refreshExpiry = credentials.refresh_expires_at ? Date.parse(credentials.refresh_expires_at) : NaN;
    if (Number.isFinite(refreshExpiry) && refreshExpiry <= client.now().getTime()) {
      throw new PlatformError('linkedin', { kind: 'auth_expired', reason: 'refresh_token_expired' },
        'The LinkedIn refresh token expired (they last 365 days); reconnect the account.');
    }
    const tokens = checked(await refreshes.refresh(refreshToken));
    // LinkedIn may hand back a new refresh token; the old one then stops working.
    const renewed = rotated(credentials, tokens, expiresAt(tokens.expires_in));
    const refreshExpiresAt = refreshes.expiresAt(tokens.refresh_token_expires_in);
    if (refreshExpiresAt) renewed.refresh_expires_at = refreshExpiresAt;
    if (typeof tokens.scope === 'string') renewed.scope = parseScopes(tokens.scope).join(' ');
    return renewed;
  }

  return {
    oauth: {
      // LinkedIn's web-app flow authenticates with the client secret; PKCE is for native apps only.
      pkce: false,
      authorizeUrl: ({ state, redirectUri }) => codes.authorizeUrl({ state, redirectUri }),
      exchangeCode,
    },
    refresher: { refresh },
  };
}
