/**
 * OAuth 2.0 as X answers it (kit/oauth.ts with X's words): PKCE is mandatory, `state` too; a bad
 * request is shown on X's page, never sent to the redirect URI; codes live 30 seconds; the token
 * endpoint takes HTTP Basic for confidential clients and `client_id` alone for public ones; refresh
 * tokens come with `offline.access` and rotate.
 */
import type { ServerResponse } from 'node:http';
import { escapeHtml } from '../kit/html';
import { sendText } from '../kit/http';
import { createOAuthServer, hiddenInputs, oauthError, type AuthorizeCheck, type TokenRefusal } from '../kit/oauth';
import { X_SIM_SCOPES, type XSimAccount, type XSimClient } from './fixtures';

const AUTHORIZE_REFUSALS: Record<AuthorizeCheck, string> = {
  response_type: 'response_type must be code',
  client: 'Unknown client_id',
  redirect_uri: 'redirect_uri does not match a callback URL of the app',
  scope: '',
  state: 'state is required',
  challenge: 'code_challenge is required',
  challenge_method: 'code_challenge_method must be S256 or plain',
};

const TOKEN_REFUSALS: Partial<Record<TokenRefusal, [number, string, string]>> = {
  body: [400, 'invalid_request', 'Content-Type must be application/x-www-form-urlencoded.'],
  client: [401, 'unauthorized_client', 'Missing valid authorization header'],
  refresh: [400, 'invalid_request', 'Value passed for the token was invalid.'],
  grant_type: [400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token.'],
};

const page = (res: ServerResponse, html: string) => sendText(res, 400, html, 'text/html; charset=utf-8');

export function createXOAuth(o: {
  seeded: (kind: string) => Buffer; clients: Map<string, XSimClient>; accounts: Map<string, XSimAccount>; tokenTtlSeconds: number;
}) {
  const secret = (kind: string, length: number) => o.seeded(kind).toString('base64url').slice(0, length);
  return createOAuthServer<XSimClient>({
    seeded: o.seeded, authorizePath: '/i/oauth2/authorize', knownScopes: X_SIM_SCOPES, scopeSeparator: /[ +]/,
    accessTokenTtlSeconds: o.tokenTtlSeconds, codeTtlMs: 30_000,
    newAccessToken: () => secret('access-token', 86), newRefreshToken: () => secret('refresh-token', 86), newCode: () => secret('auth-code', 86),
    findClient: (clientId) => o.clients.get(clientId), clientAuth: 'basic-or-public',
    authorizeChecks: () => ['response_type', 'client', 'redirect_uri', 'scope', 'state', 'challenge', 'challenge_method'],
    defaultChallengeMethod: 'plain', challengeMethodCheck: 'given', approveValue: 'allow',
    issuesRefresh: ({ grant }) => grant.scopes.includes('offline.access'), refreshRotation: 'rotate',
    accounts: () => [...o.accounts.values()].map((a) => ({ id: a.id, label: a.username })),
    authorizeRefused(res, check, { unknownScopes }) {
      const message = check === 'scope' ? `Invalid scope ${unknownScopes.join(' ')}`.trim() : AUTHORIZE_REFUSALS[check];
      page(res, `<!doctype html><title>X</title><p>Something went wrong: ${escapeHtml(message)}</p>`);
    },
    unknownAccount: (res) => page(res, '<!doctype html><p>Choose an account.</p>'),
    codeRedirect: (code, { params }) => ({ state: params.state!, code }),
    deniedRedirect: ({ params }) => ({ state: params.state!, error: 'access_denied' }),
    consentPage({ client, scopes, params }) {
      const choices = [...o.accounts.values()].map((a, i) =>
        `<label><input type="radio" name="account_id" value="${a.id}"${i === 0 ? ' checked' : ''}> @${escapeHtml(a.username)} (${escapeHtml(a.name)})</label><br>`).join('');
      return `<!doctype html><html><head><meta charset="utf-8"><title>Authorize ${escapeHtml(client.name)} - X (simulator)</title></head><body>
<h1>${escapeHtml(client.name)} wants to access your X account</h1>
<p>It will be able to: ${scopes.map(escapeHtml).join(', ')}</p>
<form method="post" action="/i/oauth2/authorize">${hiddenInputs(params)}
${choices || '<p>No sandbox account exists yet.</p>'}
<button name="decision" value="allow">Authorize app</button> <button name="decision" value="deny">Cancel</button>
</form></body></html>`;
    },
    tokenRefused(res, refusal) {
      const own = TOKEN_REFUSALS[refusal];
      if (own) return oauthError(res, ...own);
      // Every other refusal of the code grant is the same answer at X.
      return oauthError(res, 400, 'invalid_request', 'Value passed for the authorization code was invalid.');
    },
    tokenBody: ({ access, refresh }) => ({
      token_type: 'bearer', expires_in: Math.round(o.tokenTtlSeconds), access_token: access.value, scope: access.scopes.join(' '),
      ...(refresh ? { refresh_token: refresh.value } : {}),
    }),
    tokenHeaders: {},
  });
}
