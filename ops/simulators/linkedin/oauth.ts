/**
 * The simulated OAuth 2 side of LinkedIn, on kit/oauth.ts with LinkedIn's words: a bad client or
 * redirect URI is shown on LinkedIn's page, never sent to that URI; scopes are those of the app's
 * products; PKCE (S256) when a challenge was sent; refresh tokens only for apps that have them, and
 * they rotate keeping the original expiry; REST calls answer LinkedIn's token errors.
 */
import type { ServerResponse } from 'node:http';
import { escapeHtml } from '../kit/html';
import { sendText, type SimRequest } from '../kit/http';
import { createOAuthServer, oauthError, type OAuthToken, type TokenRefusal } from '../kit/oauth';
import { restError } from './answers';
import { ACCESS_TTL_S, CODE_TTL_MS, REFRESH_TTL_S, type LinkedInClientFixture, type LinkedInState, type TokenRecord } from './state';

const CODE_MISMATCH = 'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired.';
const TOKEN_REFUSALS: Record<Exclude<TokenRefusal, 'grant_type'>, [number, string, string]> = {
  method: [405, 'invalid_request', 'The token endpoint takes POST'],
  body: [400, 'invalid_request', 'The request body must be application/x-www-form-urlencoded'],
  grant_type_missing: [400, 'invalid_request', 'A required parameter "grant_type" is missing'],
  client: [401, 'invalid_client', 'Client authentication failed'],
  code_missing: [400, 'invalid_request', 'A required parameter "code" or "redirect_uri" is missing'],
  code: [400, 'invalid_grant', CODE_MISMATCH],
  redirect_uri: [400, 'invalid_grant', CODE_MISMATCH],
  verifier_missing: [400, 'invalid_grant', 'The code verifier does not match the code challenge'],
  verifier: [400, 'invalid_grant', 'The code verifier does not match the code challenge'],
  refresh: [400, 'invalid_grant', 'The provided authorization grant or refresh token is invalid, expired or revoked'],
  scope: [400, 'invalid_grant', 'The provided authorization grant or refresh token is invalid, expired or revoked'],
};

const page = (res: ServerResponse, heading: string) => sendText(res, 400, `<html><body><h1>${heading}</h1></body></html>`, 'text/html');

/** The token as the REST side reads it. */
const recordOf = (t: OAuthToken): TokenRecord => ({ sub: t.accountId, clientId: t.clientId, scope: t.scopes, expiresAt: t.expiresAt, revoked: t.revoked });

export function createLinkedInOAuth(s: LinkedInState) {
  const { clients, accounts, secret } = s;
  const withState = (p: Record<string, string>, params: Record<string, string>) => ({ ...params, ...(p.state !== undefined ? { state: p.state } : {}) });

  const server = createOAuthServer<LinkedInClientFixture>({
    seeded: s.seeded, authorizePath: '/oauth/v2/authorization',
    knownScopes: (scope, client) => client.scopes.includes(scope), scopeSeparator: /[\s,]+/,
    accessTokenTtlSeconds: ACCESS_TTL_S, refreshTokenTtlSeconds: REFRESH_TTL_S, codeTtlMs: CODE_TTL_MS,
    newAccessToken: () => `AQ${secret(48)}`, newRefreshToken: () => `AQ${secret(48)}`, newCode: () => `AQ${secret(32)}`,
    findClient: (clientId) => clients.get(clientId), clientAuth: 'body', requireGrantType: true, requiredCodeParams: ['code', 'redirect_uri'],
    issuesRefresh: ({ client }) => client.refreshTokens, refreshRotation: 'rotate-keep-expiry',
    // The consent form does not post response_type back: only the first request is checked for it.
    authorizeChecks: (method) => ['client', 'redirect_uri', ...(method === 'GET' ? ['response_type' as const] : []), 'scope', 'challenge_method'],
    challengeMethods: ['S256'], challengeMethodCheck: 'challenge', approveValue: 'allow', accountParam: 'account',
    accounts: () => [...accounts.values()].map((a) => ({ id: a.sub, label: a.name })),
    authorizeRefused(res, check, { params, unknownScopes, redirect }) {
      if (check === 'client') return page(res, 'Invalid client_id');
      if (check === 'redirect_uri') return page(res, 'The redirect_uri does not match the registered value');
      const back = (error: string, description: string) => redirect(withState(params, { error, error_description: description }));
      if (check === 'scope') return back('unauthorized_scope_error', `Scope "${unknownScopes[0] ?? ''}" is not authorized for your application`);
      if (check === 'response_type') return back('invalid_request', 'response_type must be code');
      return back('invalid_request', 'code_challenge_method must be S256');
    },
    unknownAccount: (res) => page(res, 'Choose an account'),
    deniedRedirect: ({ params }) => withState(params, { error: 'user_cancelled_authorize', error_description: 'The user cancelled the authorization' }),
    consentPage({ scopes, params }) {
      const hidden = ['client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method']
        .filter((k) => params[k] !== undefined)
        .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(params[k]!)}">`).join('');
      const choices = [...accounts.values()].map((a, i) =>
        `<label><input type="radio" name="account" value="${escapeHtml(a.sub)}"${i === 0 ? ' checked' : ''}> ${escapeHtml(a.name)}</label><br>`).join('');
      return `<!doctype html><html><head><title>LinkedIn (simulator): authorize</title></head><body>
<h1>Allow this app to access your LinkedIn account?</h1><p>Scopes: ${escapeHtml(scopes.join(', '))}</p>
<form method="post" action="/oauth/v2/authorization">${hidden}${choices || '<p>No sandbox accounts.</p>'}
<button name="decision" value="allow">Allow</button> <button name="decision" value="cancel">Cancel</button></form></body></html>`;
    },
    consentContentType: 'text/html',
    tokenRefused(res, refusal, { fields }) {
      if (refusal === 'grant_type') return oauthError(res, 400, 'unsupported_grant_type', `Unsupported grant type ${fields.grant_type}`);
      oauthError(res, ...TOKEN_REFUSALS[refusal]);
    },
    tokenBody: ({ grantType, access, refresh }) => ({
      access_token: access.value,
      expires_in: ACCESS_TTL_S,
      ...(refresh ? {
        refresh_token: refresh.value,
        refresh_token_expires_in: grantType === 'refresh_token' ? Math.floor((refresh.expiresAt - Date.now()) / 1000) : REFRESH_TTL_S,
      } : {}),
      // LinkedIn lists granted scopes separated by commas.
      scope: access.scopes.join(','),
      token_type: 'Bearer',
    }),
    tokenHeaders: {},
  });

  /** Tokens as a finished flow would give them. */
  function grantTokens(sub: string, client: LinkedInClientFixture, scope: string[]) {
    const { access, refresh } = server.issueTokens({ accountId: sub, clientId: client.clientId, scopes: scope }, { refresh: client.refreshTokens });
    return { accessToken: access.value, refreshToken: refresh?.value, expiresAt: access.expiresAt, scope };
  }

  function issueAuthCode(sub: string, o: { clientId: string; redirectUri: string; scope?: string[]; codeChallenge?: string }): string {
    if (!accounts.has(sub)) throw new Error(`unknown account ${sub}`);
    return server.issueCode(sub, {
      clientId: o.clientId, redirectUri: o.redirectUri, scopes: o.scope ?? ['openid', 'profile', 'w_member_social'],
      ...(o.codeChallenge !== undefined ? { codeChallenge: o.codeChallenge } : {}),
    });
  }

  function authenticate(req: SimRequest, res: ServerResponse): TokenRecord | undefined {
    const check = server.bearer(req);
    if (check.kind === 'ok') return recordOf(check.token);
    if (check.kind === 'revoked') restError(res, 401, 'REVOKED_ACCESS_TOKEN', 'The token used in the request has been revoked by the user', 65601);
    else if (check.kind === 'expired') restError(res, 401, 'EXPIRED_ACCESS_TOKEN', 'The token used in the request has expired', 65600);
    else restError(res, 401, 'INVALID_ACCESS_TOKEN', 'Invalid access token', 65600);
    return undefined;
  }

  return { server, grantTokens, issueAuthCode, authenticate };
}
