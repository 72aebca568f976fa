/**
 * Login Kit OAuth v2 as TikTok answers it (kit/oauth.ts with TikTok's words): the client is a
 * `client_key`, scopes are comma-separated, a bad request after the client and redirect checks goes
 * back to the redirect URI with `error_description`, PKCE is S256 only, the token endpoint takes
 * the key and secret in the form and answers with a `log_id`, refresh tokens rotate and keep their
 * expiry, and each access token carries the account's capabilities at the time it was issued.
 */
import type { ServerResponse } from 'node:http';
import { escapeHtml } from '../kit/html';
import { sendJson, sendText } from '../kit/http';
import { createOAuthServer, hiddenInputs, type OAuthClientRecord, type OAuthToken, type TokenRefusal } from '../kit/oauth';
import { CODE_TTL_MS, TIKTOK_SIM_SCOPES, type Grant, type TikTokAccountFixture, type TikTokClientFixture, type TikTokTokens } from './fixtures';

export type TikTokClaims = { capabilities: string[] };

const TOKEN_REFUSALS: Record<TokenRefusal, [number, string, string]> = {
  method: [405, 'invalid_request', 'Use POST.'],
  body: [400, 'invalid_request', 'The request parameters are malformed.'],
  grant_type_missing: [400, 'unsupported_grant_type', 'The grant type is not supported.'],
  client: [401, 'invalid_client', 'Client key or secret is invalid.'],
  code_missing: [400, 'invalid_grant', 'Authorization code is expired or invalid.'],
  code: [400, 'invalid_grant', 'Authorization code is expired or invalid.'],
  redirect_uri: [400, 'invalid_grant', 'redirect_uri does not match the authorization request.'],
  verifier_missing: [400, 'invalid_grant', 'Code verifier or code challenge is invalid.'],
  verifier: [400, 'invalid_grant', 'Code verifier or code challenge is invalid.'],
  refresh: [400, 'invalid_grant', 'Refresh token is invalid or expired.'],
  scope: [400, 'invalid_grant', 'Refresh token is invalid or expired.'],
  grant_type: [400, 'unsupported_grant_type', 'The grant type is not supported.'],
};

const httpUrl = (raw: string | undefined) => {
  try {
    const url = new URL(raw ?? '');
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};

export function createTikTokOAuth(o: {
  seeded: (kind: string) => Buffer; clients: Map<string, TikTokClientFixture>; accounts: Map<string, TikTokAccountFixture>;
  accessTtlMs: number; refreshTtlMs: number; logId: () => string;
}) {
  const hex = (kind: string, n: number) => o.seeded(kind).toString('hex').slice(0, n);
  const page = (res: ServerResponse, html: string) => sendText(res, 400, html, 'text/html; charset=utf-8');
  const oauthError = (res: ServerResponse, status: number, error: string, description: string) =>
    sendJson(res, status, { error, error_description: description, log_id: o.logId() });

  /** The token answer, for the endpoint and for tokens issued without the flow. */
  const tokensBody = (access: OAuthToken<TikTokClaims>, refresh: OAuthToken<undefined>): TikTokTokens => ({
    access_token: access.value,
    expires_in: Math.floor(o.accessTtlMs / 1000),
    open_id: access.accountId,
    refresh_expires_in: Math.max(0, Math.floor((refresh.expiresAt - Date.now()) / 1000)),
    refresh_token: refresh.value,
    scope: access.scopes.join(','),
    token_type: 'Bearer',
    capabilities: access.claims.capabilities,
  });

  const oauth = createOAuthServer<OAuthClientRecord, TikTokClaims>({
    seeded: o.seeded, authorizePath: '/v2/auth/authorize/', knownScopes: TIKTOK_SIM_SCOPES, scopeSeparator: ',',
    accessTokenTtlSeconds: o.accessTtlMs / 1000, refreshTokenTtlSeconds: o.refreshTtlMs / 1000, codeTtlMs: CODE_TTL_MS,
    newAccessToken: () => `act.${hex('access-token', 64)}`, newRefreshToken: () => `rft.${hex('refresh-token', 64)}`, newCode: () => hex('auth-code', 48),
    findClient(clientKey) {
      const c = o.clients.get(clientKey);
      return c && { clientId: c.clientKey, clientSecret: c.clientSecret, redirectUris: c.redirectUris };
    },
    clientParam: 'client_key', clientAuth: 'body', accountParam: 'open_id',
    redirectAllowed: (c, uri) => httpUrl(uri) && (!c.redirectUris.length || c.redirectUris.includes(uri)),
    challengeMethods: ['S256'], challengeMethodCheck: 'nonempty-challenge',
    refreshRotation: 'rotate-keep-expiry', accountExists: (openId) => o.accounts.has(openId),
    claimsOf: (grant) => ({ capabilities: [...o.accounts.get(grant.accountId)!.capabilities] }),
    accounts: () => [...o.accounts.values()].map((a) => ({ id: a.openId, label: a.username })),
    authorizeRefused(res, check, { params, redirect }) {
      if (check === 'client') return page(res, '<!doctype html><title>TikTok</title><p>Unknown client_key.</p>');
      if (check === 'redirect_uri') {
        const why = httpUrl(params.redirect_uri) ? 'redirect_uri is not registered for this app.' : 'redirect_uri is missing or not a URL.';
        return page(res, `<!doctype html><title>TikTok</title><p>${why}</p>`);
      }
      const error = { response_type: 'unsupported_response_type', scope: 'invalid_scope' }[check as string] ?? 'invalid_request';
      redirect({ error, error_description: error, state: params.state ?? '' });
    },
    unknownAccount: (res) => page(res, '<!doctype html><p>Choose an account.</p>'),
    codeRedirect: (code, { params, scopes }) => ({ code, scopes: scopes.join(','), state: params.state ?? '' }),
    deniedRedirect: ({ params }) => ({ error: 'access_denied', error_description: 'The user denied the request.', state: params.state ?? '' }),
    redirectHeaders: { 'content-length': '0' },
    consentPage({ scopes, params }) {
      const hidden = hiddenInputs(params, ['client_key', 'scope', 'response_type', 'redirect_uri', 'state', 'code_challenge', 'code_challenge_method']);
      const choices = [...o.accounts.values()].map((a, i) =>
        `<label><input type="radio" name="open_id" value="${escapeHtml(a.openId)}"${i === 0 ? ' checked' : ''}> @${escapeHtml(a.username)} (${escapeHtml(a.displayName)})</label><br>`).join('');
      return `<!doctype html><html><head><meta charset="utf-8"><title>TikTok sandbox: authorize</title></head><body>
<h1>${escapeHtml(params.client_key!)} wants to access your TikTok account</h1>
<p>Scopes: ${escapeHtml(scopes.join(', '))}</p>
<form method="post" action="/v2/auth/authorize/">${hidden}${choices || '<p>No sandbox accounts.</p>'}
<button name="decision" value="approve">Authorize</button> <button name="decision" value="deny">Cancel</button></form></body></html>`;
    },
    tokenRefused: (res, refusal) => oauthError(res, ...TOKEN_REFUSALS[refusal]),
    tokenBody: ({ access, refresh }) => tokensBody(access, refresh!),
    tokenHeaders: {},
  });

  /** The token as the rest of the simulator reads it. */
  const grantOf = (t: OAuthToken<TikTokClaims>): Grant => ({
    openId: t.accountId, clientKey: t.clientId, scope: t.scopes, capabilities: t.claims.capabilities, expiresAt: t.expiresAt, revoked: t.revoked,
  });

  return { oauth, oauthError, tokensBody, grantOf };
}
