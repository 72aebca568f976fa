/**
 * An OAuth 2 authorization server for simulators (RFC 6749 authorization code + refresh, PKCE RFC
 * 7636): registered clients with their redirect URIs, a consent page listing the sandbox accounts,
 * the token endpoint with the standard `{error, error_description}` answers, and bearer-token
 * checks for the simulated API. Networks differ in names (scope separator, token prefixes, TTLs,
 * whether refresh tokens rotate): those are options. A simulator mounts `page`, `answer` and
 * `token` on the paths of the network it imitates.
 */
import type { ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { escapeHtml } from './html';
import { sendJson, sendText, type SimRequest } from './http';

export interface OAuthClientRecord { clientId: string; clientSecret: string; redirectUris: string[] }
export interface OAuthGrant { accountId: string; clientId: string; scopes: string[] }

export interface OAuthServerOptions {
  /** Seeded bytes (createSeededSource), so credentials are stable for a seed. */
  seeded: (kind: string) => Buffer;
  /** Heading of the consent page. */
  title: string;
  /** Where the consent form posts back (the authorize path). */
  authorizePath: string;
  knownScopes: readonly string[];
  /** How the authorize URL joins scopes. Default ' '. */
  scopeSeparator?: string;
  accessTokenTtlSeconds: number;
  accessPrefix: string;
  refreshPrefix: string;
  clientIdOf(seeded: (kind: string) => Buffer): string;
  clientSecretOf(seeded: (kind: string) => Buffer): string;
  /** A refresh answers a new refresh token and retires the old one. */
  rotateRefreshTokens?: boolean;
  /** Refresh tokens are only handed out when the authorize request asked `access_type=offline` (Google). */
  offlineParam?: boolean;
  /** The sandbox accounts a user may sign in as. */
  accounts(): Array<{ id: string; label: string }>;
}

export type BearerCheck = { kind: 'ok'; grant: OAuthGrant } | { kind: 'missing' } | { kind: 'invalid' } | { kind: 'scope' };

export interface OAuthServer {
  createClient(redirectUris: string[]): { clientId: string; clientSecret: string };
  page(req: SimRequest, res: ServerResponse): void;
  answer(req: SimRequest, res: ServerResponse): void;
  token(req: SimRequest, res: ServerResponse): void;
  /** The grant behind `Authorization: Bearer …`, if it holds one of `scopes`. */
  bearer(req: SimRequest, scopes: readonly string[]): BearerCheck;
  /** Makes every access token of the account expire now (refresh tokens stay). */
  expireAccessTokens(accountId: string): void;
  /** Revokes every token of the account: refreshing answers invalid_grant. */
  revoke(accountId: string): void;
  /** Code for (account, client) without the consent page (tests). */
  issueCode(accountId: string, input: { clientId: string; redirectUri: string; scopes: string[]; codeChallenge?: string; offline?: boolean }): string;
}

export const oauthError = (res: ServerResponse, status: number, error: string, description: string) =>
  sendJson(res, status, { error, error_description: description });

interface Code { grant: OAuthGrant; redirectUri: string; challenge?: string; method?: string; offline: boolean; expiresAt: number; used: boolean }

export function createOAuthServer(opts: OAuthServerOptions): OAuthServer {
  const clients = new Map<string, OAuthClientRecord>();
  const access = new Map<string, OAuthGrant & { expiresAt: number; revoked: boolean }>();
  const refresh = new Map<string, OAuthGrant & { revoked: boolean }>();
  const codes = new Map<string, Code>();
  const sep = opts.scopeSeparator ?? ' ';
  const token = (kind: string, length: number) => opts.seeded(kind).toString('base64url').slice(0, length);

  const issueAccess = (grant: OAuthGrant) => {
    const value = `${opts.accessPrefix}${token('access', 60)}`;
    access.set(value, { ...grant, expiresAt: Date.now() + opts.accessTokenTtlSeconds * 1000, revoked: false });
    return value;
  };
  const issueRefresh = (grant: OAuthGrant) => {
    const value = `${opts.refreshPrefix}${token('refresh', 60)}`;
    refresh.set(value, { ...grant, revoked: false });
    return value;
  };

  function checkAuthorize(res: ServerResponse, p: Record<string, string>): { client: OAuthClientRecord; scopes: string[] } | undefined {
    const page = (status: number, error: string) => sendText(res, status,
      `<!doctype html><title>Error</title><h1>Error ${status}: ${escapeHtml(error)}</h1>`, 'text/html; charset=utf-8');
    const client = clients.get(p.client_id ?? '');
    if (!client) return void page(401, 'invalid_client');
    if (!client.redirectUris.includes(p.redirect_uri ?? '')) return void page(400, 'redirect_uri_mismatch');
    if (p.response_type !== 'code') return void page(400, 'unsupported_response_type');
    const scopes = (p.scope ?? '').split(sep).map((s) => s.trim()).filter(Boolean);
    if (!scopes.length || scopes.some((s) => !opts.knownScopes.includes(s))) return void page(400, 'invalid_scope');
    if (p.code_challenge_method && !['S256', 'plain'].includes(p.code_challenge_method)) return void page(400, 'invalid_request');
    return { client, scopes };
  }

  const server: OAuthServer = {
    createClient(redirectUris) {
      const client = { clientId: opts.clientIdOf(opts.seeded), clientSecret: opts.clientSecretOf(opts.seeded), redirectUris };
      clients.set(client.clientId, client);
      return { clientId: client.clientId, clientSecret: client.clientSecret };
    },
    page(req, res) {
      const checked = checkAuthorize(res, req.query);
      if (!checked) return;
      const hidden = Object.entries(req.query).map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`).join('');
      const choices = opts.accounts().map((a, i) =>
        `<label><input type="radio" name="account_id" value="${escapeHtml(a.id)}"${i === 0 ? ' checked' : ''}> ${escapeHtml(a.label)}</label><br>`).join('');
      sendText(res, 200, `<!doctype html><meta charset="utf-8"><title>${escapeHtml(opts.title)} (simulator)</title>
<h1>${escapeHtml(opts.title)}</h1><p>Scopes: ${checked.scopes.map(escapeHtml).join(', ')}</p>
<form method="post" action="${escapeHtml(opts.authorizePath)}">${hidden}${choices || '<p>No sandbox account: create one first.</p>'}
<button name="decision" value="approve">Allow</button> <button name="decision" value="deny">Cancel</button></form>`, 'text/html; charset=utf-8');
    },
    answer(req, res) {
      const p = req.body.kind === 'form' ? req.body.fields : {};
      const checked = checkAuthorize(res, p);
      if (!checked) return;
      const target = new URL(p.redirect_uri!);
      const account = opts.accounts().find((a) => a.id === p.account_id);
      if (p.decision !== 'approve' || !account) {
        target.searchParams.set('error', 'access_denied');
      } else {
        target.searchParams.set('code', server.issueCode(account.id, {
          clientId: checked.client.clientId, redirectUri: p.redirect_uri!, scopes: checked.scopes,
          ...(p.code_challenge ? { codeChallenge: p.code_challenge } : {}), offline: p.access_type === 'offline',
        }));
        if (p.code_challenge_method) codes.get(target.searchParams.get('code')!)!.method = p.code_challenge_method;
      }
      if (p.state !== undefined) target.searchParams.set('state', p.state);
      res.writeHead(302, { location: target.toString() });
      res.end();
    },
    token(req, res) {
      if (req.method !== 'POST') return oauthError(res, 405, 'invalid_request', 'POST only');
      if (req.body.kind !== 'form') return oauthError(res, 400, 'invalid_request', 'The request body must be application/x-www-form-urlencoded.');
      const f = req.body.fields;
      let clientId = f.client_id;
      let secret = f.client_secret;
      const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      if (basic) [clientId, secret] = Buffer.from(basic, 'base64').toString('utf8').split(':').map(decodeURIComponent);
      const client = clients.get(clientId ?? '');
      if (!client || client.clientSecret !== secret) return oauthError(res, 401, 'invalid_client', 'Client authentication failed.');
      const send = (grant: OAuthGrant, refreshToken?: string) => sendJson(res, 200, {
        access_token: issueAccess(grant), expires_in: opts.accessTokenTtlSeconds, scope: grant.scopes.join(' '), token_type: 'Bearer',
        ...(refreshToken ? { refresh_token: refreshToken } : {}),
      }, { 'cache-control': 'no-store' });
      if (f.grant_type === 'authorization_code') {
        const code = codes.get(f.code ?? '');
        if (!code || code.used || code.expiresAt < Date.now() || code.grant.clientId !== client.clientId) return oauthError(res, 400, 'invalid_grant', 'Invalid or expired authorization code.');
        if (code.redirectUri !== f.redirect_uri) return oauthError(res, 400, 'invalid_grant', 'redirect_uri does not match the authorization request.');
        if (code.challenge) {
          if (!f.code_verifier) return oauthError(res, 400, 'invalid_grant', 'Missing code verifier.');
          const derived = code.method === 'plain' ? f.code_verifier : createHash('sha256').update(f.code_verifier).digest('base64url');
          if (derived !== code.challenge) return oauthError(res, 400, 'invalid_grant', 'Invalid code verifier.');
        }
        code.used = true;
        return send(code.grant, !opts.offlineParam || code.offline ? issueRefresh(code.grant) : undefined);
      }
      if (f.grant_type === 'refresh_token') {
        const stored = refresh.get(f.refresh_token ?? '');
        if (!stored || stored.revoked || stored.clientId !== client.clientId) return oauthError(res, 400, 'invalid_grant', 'Token has been expired or revoked.');
        const grant = { accountId: stored.accountId, clientId: stored.clientId, scopes: stored.scopes };
        if (!opts.rotateRefreshTokens) return send(grant);
        stored.revoked = true;
        return send(grant, issueRefresh(grant));
      }
      return oauthError(res, 400, 'unsupported_grant_type', `Invalid grant_type: ${f.grant_type ?? ''}`);
    },
    bearer(req, scopes) {
      const value = /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      if (!value) return { kind: 'missing' };
      const stored = access.get(value);
      if (!stored || stored.revoked || stored.expiresAt <= Date.now()) return { kind: 'invalid' };
      if (!stored.scopes.some((s) => scopes.includes(s))) return { kind: 'scope' };
      return { kind: 'ok', grant: { accountId: stored.accountId, clientId: stored.clientId, scopes: stored.scopes } };
    },
    expireAccessTokens(accountId) {
      for (const t of access.values()) if (t.accountId === accountId) t.expiresAt = 0;
    },
    revoke(accountId) {
      for (const t of access.values()) if (t.accountId === accountId) t.revoked = true;
      for (const t of refresh.values()) if (t.accountId === accountId) t.revoked = true;
    },
    issueCode(accountId, input) {
      const code = `4/0${token('code', 40)}`;
      codes.set(code, {
        grant: { accountId, clientId: input.clientId, scopes: input.scopes }, redirectUri: input.redirectUri,
        ...(input.codeChallenge ? { challenge: input.codeChallenge, method: 'S256' } : {}), offline: input.offline ?? false,
        expiresAt: Date.now() + 10 * 60_000, used: false,
      });
      return code;
    },
  };
  return server;
}
