/**
 * The simulated OAuth 2 side of LinkedIn: the approve page, the accessToken endpoint (codes, PKCE
 * when a challenge was sent, refresh-token rotation) and bearer-token checks.
 */
import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { sendJson, sendText, type SimRequest } from '../kit/http';
import { oauthError, restError } from './answers';
import { ACCESS_TTL_S, CODE_TTL_MS, REFRESH_TTL_S, type LinkedInClientFixture, type LinkedInState, type TokenRecord } from './state';
import { escapeHtml, splitScopes } from './text';

export function createLinkedInOAuth(s: LinkedInState) {
  const { clients, accounts, codes, accessTokens, refreshTokens, secret } = s;

  function grantTokens(sub: string, client: LinkedInClientFixture, scope: string[]) {
    const accessToken = `AQ${secret(48)}`;
    const expiresAt = Date.now() + ACCESS_TTL_S * 1000;
    accessTokens.set(accessToken, { sub, clientId: client.clientId, scope, expiresAt, revoked: false });
    let refreshToken: string | undefined;
    if (client.refreshTokens) {
      refreshToken = `AQ${secret(48)}`;
      refreshTokens.set(refreshToken, { sub, clientId: client.clientId, scope, expiresAt: Date.now() + REFRESH_TTL_S * 1000, revoked: false, used: false });
    }
    return { accessToken, refreshToken, expiresAt, scope };
  }

  const tokenBody = (t: { accessToken: string; refreshToken?: string; scope: string[] }, refreshExpiresAt?: number) => ({
    access_token: t.accessToken,
    expires_in: ACCESS_TTL_S,
    ...(t.refreshToken ? { refresh_token: t.refreshToken, refresh_token_expires_in: Math.floor(((refreshExpiresAt ?? Date.now() + REFRESH_TTL_S * 1000) - Date.now()) / 1000) } : {}),
    // LinkedIn lists granted scopes separated by commas.
    scope: t.scope.join(','),
    token_type: 'Bearer',
  });

  function tokenEndpoint(req: SimRequest, res: ServerResponse) {
    if (req.method !== 'POST') return oauthError(res, 405, 'invalid_request', 'The token endpoint takes POST');
    if (req.body.kind !== 'form') return oauthError(res, 400, 'invalid_request', 'The request body must be application/x-www-form-urlencoded');
    const f = req.body.fields;
    const client = clients.get(f.client_id ?? '');
    if (!f.grant_type) return oauthError(res, 400, 'invalid_request', 'A required parameter "grant_type" is missing');
    if (!client || client.clientSecret !== f.client_secret) return oauthError(res, 401, 'invalid_client', 'Client authentication failed');

    if (f.grant_type === 'authorization_code') {
      if (!f.code || !f.redirect_uri) return oauthError(res, 400, 'invalid_request', 'A required parameter "code" or "redirect_uri" is missing');
      const code = codes.get(f.code);
      const mismatch = !code || code.used || code.expiresAt <= Date.now() || code.clientId !== client.clientId || code.redirectUri !== f.redirect_uri;
      if (mismatch) {
        return oauthError(res, 400, 'invalid_grant', 'Unable to retrieve access token: appid/redirect uri/code verifier does not match authorization code. Or authorization code expired.');
      }
      if (code.challenge !== undefined) {
        const verified = f.code_verifier && createHash('sha256').update(f.code_verifier).digest('base64url') === code.challenge;
        if (!verified) return oauthError(res, 400, 'invalid_grant', 'The code verifier does not match the code challenge');
      }
      code.used = true;
      return sendJson(res, 200, tokenBody(grantTokens(code.sub, client, code.scope)));
    }

    if (f.grant_type === 'refresh_token') {
      const old = refreshTokens.get(f.refresh_token ?? '');
      if (!old || old.used || old.revoked || old.expiresAt <= Date.now() || old.clientId !== client.clientId) {
        return oauthError(res, 400, 'invalid_grant', 'The provided authorization grant or refresh token is invalid, expired or revoked');
      }
      // Rotation: the old refresh token stops working, the new one keeps the original expiry.
      old.used = true;
      const accessToken = `AQ${secret(48)}`;
      accessTokens.set(accessToken, { sub: old.sub, clientId: old.clientId, scope: old.scope, expiresAt: Date.now() + ACCESS_TTL_S * 1000, revoked: false });
      const refreshToken = `AQ${secret(48)}`;
      refreshTokens.set(refreshToken, { ...old, used: false });
      return sendJson(res, 200, tokenBody({ accessToken, refreshToken, scope: old.scope }, old.expiresAt));
    }
    return oauthError(res, 400, 'unsupported_grant_type', `Unsupported grant type ${f.grant_type}`);
  }

  // --- authorize page -----------------------------------------------------------------------

  function authorize(req: SimRequest, res: ServerResponse) {
    const p = req.method === 'POST' && req.body.kind === 'form' ? req.body.fields : req.query;
    const client = clients.get(p.client_id ?? '');
    // Like LinkedIn, a bad client or redirect URI is shown on LinkedIn's page, never sent to that URI.
    if (!client) return sendText(res, 400, '<html><body><h1>Invalid client_id</h1></body></html>', 'text/html');
    if (!p.redirect_uri || !client.redirectUris.includes(p.redirect_uri)) {
      return sendText(res, 400, '<html><body><h1>The redirect_uri does not match the registered value</h1></body></html>', 'text/html');
    }
    const back = (params: Record<string, string>) => {
      const url = new URL(p.redirect_uri!);
      for (const [k, v] of Object.entries({ ...params, ...(p.state !== undefined ? { state: p.state } : {}) })) url.searchParams.set(k, v);
      res.writeHead(302, { location: url.toString() });
      res.end();
    };
    if (p.response_type !== 'code' && req.method === 'GET') return back({ error: 'invalid_request', error_description: 'response_type must be code' });
    const scope = splitScopes(p.scope);
    const refused = scope.filter((s) => !client.scopes.includes(s));
    if (!scope.length || refused.length) {
      return back({ error: 'unauthorized_scope_error', error_description: `Scope "${refused[0] ?? ''}" is not authorized for your application` });
    }
    if (p.code_challenge !== undefined && p.code_challenge_method !== 'S256') {
      return back({ error: 'invalid_request', error_description: 'code_challenge_method must be S256' });
    }

    if (req.method === 'POST') {
      if (p.decision !== 'allow') return back({ error: 'user_cancelled_authorize', error_description: 'The user cancelled the authorization' });
      const account = accounts.get(p.account ?? '');
      if (!account) return sendText(res, 400, '<html><body><h1>Choose an account</h1></body></html>', 'text/html');
      return back({ code: issueAuthCode(account.sub, { clientId: client.clientId, redirectUri: p.redirect_uri, scope, codeChallenge: p.code_challenge }) });
    }

    const hidden = ['client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method']
      .filter((k) => p[k] !== undefined)
      .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(p[k]!)}">`).join('');
    const choices = [...accounts.values()].map((a, i) =>
      `<label><input type="radio" name="account" value="${escapeHtml(a.sub)}"${i === 0 ? ' checked' : ''}> ${escapeHtml(a.name)}</label><br>`).join('');
    sendText(res, 200, `<!doctype html><html><head><title>LinkedIn (simulator): authorize</title></head><body>
<h1>Allow this app to access your LinkedIn account?</h1><p>Scopes: ${escapeHtml(scope.join(', '))}</p>
<form method="post" action="/oauth/v2/authorization">${hidden}${choices || '<p>No sandbox accounts.</p>'}
<button name="decision" value="allow">Allow</button> <button name="decision" value="cancel">Cancel</button></form></body></html>`, 'text/html');
  }

  function issueAuthCode(sub: string, o: { clientId: string; redirectUri: string; scope?: string[]; codeChallenge?: string }): string {
    if (!accounts.has(sub)) throw new Error(`unknown account ${sub}`);
    const code = `AQ${secret(32)}`;
    codes.set(code, {
      sub, clientId: o.clientId, redirectUri: o.redirectUri, scope: o.scope ?? ['openid', 'profile', 'w_member_social'],
      expiresAt: Date.now() + CODE_TTL_MS, used: false, ...(o.codeChallenge !== undefined ? { challenge: o.codeChallenge } : {}),
    });
    return code;
  }

  function authenticate(req: SimRequest, res: ServerResponse): TokenRecord | undefined {
    const token = /^Bearer\s+(\S+)$/i.exec(String(req.headers.authorization ?? ''))?.[1];
    const record = token ? accessTokens.get(token) : undefined;
    if (!record) restError(res, 401, 'INVALID_ACCESS_TOKEN', 'Invalid access token', 65600);
    else if (record.revoked) restError(res, 401, 'REVOKED_ACCESS_TOKEN', 'The token used in the request has been revoked by the user', 65601);
    else if (record.expiresAt <= Date.now()) restError(res, 401, 'EXPIRED_ACCESS_TOKEN', 'The token used in the request has expired', 65600);
    else return record;
    return undefined;
  }


  return { grantTokens, tokenEndpoint, authorize, issueAuthCode, authenticate };
}
