/**
 * Google OAuth 2 as the YouTube simulator answers it (kit/oauth.ts with Google's texts): the consent
 * page lists the sandbox channels, the redirect carries `state, code, scope`, a challenge sent without
 * a method is `plain`, codes are refresh-capable unless the caller says otherwise.
 */
import { escapeHtml } from '../kit/html';
import { basicCredentials, createOAuthServer, googleTokenRefused, hiddenInputs, oauthError, type OAuthClientRecord, type TokenRefusal } from '../kit/oauth';
import type { SimChannel } from './types';
import { CODE_TTL_MS, KNOWN_SCOPES } from './wire';

const REFUSALS: Partial<Record<TokenRefusal, [number, string, string]>> = {
  code_missing: [400, 'invalid_request', 'Missing required parameter: code'],
  code: [400, 'invalid_grant', 'Malformed auth code.'],
  redirect_uri: [400, 'redirect_uri_mismatch', 'Bad Request'],
};

export function createYoutubeOAuth(o: { seeded: (kind: string) => Buffer; channels: Map<string, SimChannel>; ttlSeconds: number; rotate: boolean }) {
  const id = (kind: string, length: number) => o.seeded(kind).toString('base64url').slice(0, length);
  const clients = new Map<string, OAuthClientRecord>();
  const withState = (p: Record<string, string>, params: Record<string, string>) => ({ ...(p.state !== undefined ? { state: p.state } : {}), ...params });
  const oauth = createOAuthServer({
    seeded: o.seeded, authorizePath: '/o/oauth2/v2/auth', knownScopes: KNOWN_SCOPES, accessTokenTtlSeconds: o.ttlSeconds,
    accessPrefix: 'ya29.', refreshPrefix: '1//0', newCode: () => `4/0${id('code', 70)}`, codeTtlMs: CODE_TTL_MS, requiredCodeParams: ['code'],
    findClient: (clientId) => clients.get(clientId), defaultChallengeMethod: 'plain', accountParam: 'channel_id',
    refreshRotation: o.rotate ? 'rotate' : 'none', issuesRefresh: ({ offline }) => offline,
    accounts: () => [...o.channels.values()].map((c) => ({ id: c.id, label: `${c.title} (${c.handle})` })),
    consentPage: ({ scopes, params }) => {
      const choices = [...o.channels.values()].map((c, i) =>
        `<label><input type="radio" name="channel_id" value="${escapeHtml(c.id)}"${i === 0 ? ' checked' : ''}> ${escapeHtml(c.title)} (${escapeHtml(c.handle)})</label><br>`).join('');
      return `<!doctype html><meta charset="utf-8"><title>Sign in - Google Accounts (simulator)</title>
<h1>YouTube simulator wants to access your Google Account</h1>
<p>Scopes: ${scopes.map(escapeHtml).join(', ')}</p>
<form method="post" action="/o/oauth2/v2/auth">${hiddenInputs(params)}${choices || '<p>No sandbox channel: create one first.</p>'}
<button name="decision" value="approve">Allow</button> <button name="decision" value="deny">Cancel</button></form>`;
    },
    codeRedirect: (code, { params, scopes }) => withState(params, { code, scope: scopes.join(' ') }),
    deniedRedirect: ({ params }) => withState(params, { error: 'access_denied' }),
    tokenRefused(res, refusal, { req, fields }) {
      if (refusal === 'client') {
        const known = clients.has(basicCredentials(req)?.id ?? fields.client_id ?? '');
        return oauthError(res, 401, 'invalid_client', known ? 'Unauthorized' : 'The OAuth client was not found.');
      }
      const own = REFUSALS[refusal];
      if (own) return oauthError(res, ...own);
      return googleTokenRefused(res, refusal, fields);
    },
    tokenHeaders: { 'cache-control': 'no-cache, no-store, max-age=0, must-revalidate' },
  });
  return {
    oauth,
    createClient(redirectUris: string[]) {
      const client = { clientId: `${o.seeded('client').readUInt32BE(0)}-${id('client-id', 32).toLowerCase().replace(/[^a-z0-9]/g, 'x')}.apps.googleusercontent.com`, clientSecret: `GOCSPX-${id('client-secret', 28)}`, redirectUris };
      clients.set(client.clientId, client);
      return { clientId: client.clientId, clientSecret: client.clientSecret };
    },
  };
}
