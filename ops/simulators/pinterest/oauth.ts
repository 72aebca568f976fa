/**
 * OAuth 2 as Pinterest answers it (kit/oauth.ts with Pinterest's words): no PKCE; a bad client or
 * redirect URI is shown on Pinterest's page, a bad response type or scope goes back to the redirect
 * URI; the token endpoint takes HTTP Basic only and answers `{code, message}`; every refresh rotates
 * the refresh token ("continuous refresh") and may narrow the scopes.
 */
import type { ServerResponse } from 'node:http';
import { escapeHtml } from '../kit/html';
import { sendJson, sendText } from '../kit/http';
import { createOAuthServer, type TokenRefusal } from '../kit/oauth';
import {
  AUTH_CODE_TTL_MS, ERR, invalidParams, PINTEREST_KNOWN_SCOPES, PINTEREST_SIM_ACCESS_TOKEN_SECONDS, PINTEREST_SIM_REFRESH_TOKEN_SECONDS,
  type PinterestSimAccount, type PinterestSimApp,
} from './fixtures';

const TOKEN_REFUSALS: Partial<Record<TokenRefusal, string>> = {
  body: 'the body must be application/x-www-form-urlencoded.',
  code_missing: 'code and redirect_uri are required.',
  code: 'the authorization code is invalid, expired, already used, or was issued for another redirect_uri.',
  redirect_uri: 'the authorization code is invalid, expired, already used, or was issued for another redirect_uri.',
  refresh: 'the refresh token is invalid, expired or revoked.',
  scope: 'scope is wider than the original grant.',
};

const page = (res: ServerResponse, text: string) => sendText(res, 400, `<!doctype html><p>${text}</p>`, 'text/html');

export function createPinterestOAuth(o: { seeded: (kind: string) => Buffer; apps: Map<string, PinterestSimApp>; accounts: Map<string, PinterestSimAccount> }) {
  const secret = (kind: string, prefix: string) => `${prefix}${o.seeded(kind).toString('base64url').slice(0, 64)}`;
  const withState = (params: Record<string, string>, state: string | undefined) => ({ ...params, state: state ?? '' });
  return createOAuthServer<PinterestSimApp>({
    seeded: o.seeded, authorizePath: '/oauth/', knownScopes: PINTEREST_KNOWN_SCOPES, scopeSeparator: /[ ,]+/,
    accessTokenTtlSeconds: PINTEREST_SIM_ACCESS_TOKEN_SECONDS, refreshTokenTtlSeconds: PINTEREST_SIM_REFRESH_TOKEN_SECONDS, codeTtlMs: AUTH_CODE_TTL_MS,
    newAccessToken: () => secret('access-token', 'pina_'), newRefreshToken: () => secret('refresh-token', 'pinr_'),
    newCode: () => o.seeded('auth-code').toString('hex').slice(0, 40),
    findClient: (clientId) => o.apps.get(clientId), clientAuth: 'basic', clientBeforeBody: true,
    requiredCodeParams: ['code', 'redirect_uri'], refreshScopeParam: true, refreshRotation: 'rotate',
    accountExists: (id) => o.accounts.has(id),
    authorizeChecks: () => ['client', 'redirect_uri', 'response_type', 'scope'], pkce: false, approveValue: 'allow',
    accounts: () => [...o.accounts.values()].map((a) => ({ id: a.id, label: a.username })),
    authorizeRefused(res, check, { params, redirect }) {
      if (check === 'client') return page(res, 'Invalid client_id.');
      if (check === 'redirect_uri') return page(res, 'redirect_uri is not registered for this app.');
      return redirect(withState({ error: check === 'response_type' ? 'unsupported_response_type' : 'invalid_scope' }, params.state));
    },
    unknownAccount: (res) => page(res, 'Pick an account.'),
    codeRedirect: (code, { params }) => withState({ code }, params.state),
    deniedRedirect: ({ params }) => withState({ error: 'access_denied' }, params.state),
    consentPage({ client, scopes, params }) {
      const hidden = ['client_id', 'redirect_uri', 'response_type', 'scope', 'state']
        .map((k) => `<input type="hidden" name="${k}" value="${escapeHtml(params[k] ?? '')}">`).join('');
      const options = [...o.accounts.values()].map((a) => `<option value="${a.id}">${escapeHtml(a.username)}</option>`).join('');
      return `<!doctype html><html><head><title>Pinterest (simulator): authorize ${escapeHtml(client.name)}</title></head><body>
<h1>${escapeHtml(client.name)} wants to access your Pinterest account</h1>
<p>Scopes: ${scopes.map(escapeHtml).join(', ')}</p>
<form method="post" action="/oauth/">${hidden}
${options ? `<label>Sandbox account <select name="account_id">${options}</select></label>` : '<p>No sandbox account exists yet.</p>'}
<button name="decision" value="allow"${options ? '' : ' disabled'}>Give access</button> <button name="decision" value="deny">Cancel</button>
</form></body></html>`;
    },
    tokenRefused(res, refusal, { fields }) {
      if (refusal === 'client' || refusal === 'method') return sendJson(res, 401, ERR.authFailed);
      sendJson(res, 400, invalidParams(TOKEN_REFUSALS[refusal] ?? `unsupported grant_type ${fields.grant_type ?? '(none)'}.`));
    },
    tokenBody: ({ grantType, access, refresh }) => ({
      access_token: access.value,
      refresh_token: refresh!.value,
      response_type: grantType,
      token_type: 'bearer',
      expires_in: PINTEREST_SIM_ACCESS_TOKEN_SECONDS,
      refresh_token_expires_in: PINTEREST_SIM_REFRESH_TOKEN_SECONDS,
      refresh_token_expires_at: Math.floor(refresh!.expiresAt / 1000),
      scope: access.scopes.join(','),
    }),
    tokenHeaders: {},
  });
}
