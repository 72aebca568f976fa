/**
 * An OAuth 2 authorization server for simulators (RFC 6749 authorization code + refresh, PKCE RFC
 * 7636): registered clients with their redirect URIs, a consent page listing the sandbox accounts,
 * the token endpoint, and bearer-token checks for the simulated API. The flow is the same on every
 * network; what a network says and names is an option: its parameter names, scope separator, which
 * checks it makes in which order, how it authenticates clients, token formats and lifetimes, whether
 * refresh tokens rotate, its consent page, and the exact answer to every refusal. Those answers live
 * in the network's own folder; the defaults are Google's. A simulator mounts `page`, `answer` and
 * `token` on the paths of the network it imitates.
 */
import type { ServerResponse } from 'node:http';
import { createHash } from 'node:crypto';
import { escapeHtml } from './html';
import { sendJson, sendText, type SimRequest } from './http';

export interface OAuthClientRecord {
  clientId: string;
  /** `null`: a public client, which names itself with its client id and proves itself with PKCE alone. */
  clientSecret: string | null;
  redirectUris: string[];
}
export interface OAuthGrant { accountId: string; clientId: string; scopes: string[] }
/** A stored token: `claims` are what the network attached when it was issued (TikTok's capabilities). */
export interface OAuthToken<Claims = undefined> extends OAuthGrant { value: string; expiresAt: number; revoked: boolean; claims: Claims }

/** The authorize request's checks, by name; a network makes the ones it makes, in its order. */
export type AuthorizeCheck = 'client' | 'redirect_uri' | 'response_type' | 'scope' | 'state' | 'challenge' | 'challenge_method';
/** Why the token endpoint refused, by step. */
export type TokenRefusal =
  | 'method' | 'body' | 'grant_type_missing' | 'client' | 'code_missing' | 'code' | 'redirect_uri'
  | 'verifier_missing' | 'verifier' | 'refresh' | 'scope' | 'grant_type';

export interface AuthorizeContext<Client> {
  params: Record<string, string>;
  client?: Client;
  scopes: string[];
  unknownScopes: string[];
  /** Sends the 302 back to the request's redirect URI with these parameters, in this order. */
  redirect(params: Record<string, string>): void;
}

export interface TokenAnswerInput<Claims> {
  grantType: 'authorization_code' | 'refresh_token';
  access: OAuthToken<Claims>;
  refresh?: OAuthToken<undefined>;
}

export interface OAuthServerOptions<Client extends OAuthClientRecord = OAuthClientRecord, Claims = undefined> {
  /** Seeded bytes (createSeededSource), so credentials are stable for a seed. */
  seeded: (kind: string) => Buffer;
  /** Heading of the default consent page. */
  title?: string;
  /** Where the consent form posts back (the authorize path). */
  authorizePath: string;
  /** Which scopes a client may ask for: a list, or a test per client (LinkedIn's products). */
  knownScopes: readonly string[] | ((scope: string, client: Client) => boolean);
  /** How the authorize URL joins scopes. Default ' '. */
  scopeSeparator?: string | RegExp;
  accessTokenTtlSeconds: number;
  /** Default: refresh tokens do not expire. */
  refreshTokenTtlSeconds?: number;
  /** Default 10 minutes. */
  codeTtlMs?: number;
  accessPrefix?: string;
  refreshPrefix?: string;
  /** Token and code values; by default `<prefix><60 seeded base64url characters>` and `4/0<40>`. */
  newAccessToken?: () => string;
  newRefreshToken?: () => string;
  newCode?: () => string;
  /** With no `findClient`, the kit keeps the registry and makes client credentials with these. */
  clientIdOf?(seeded: (kind: string) => Buffer): string;
  clientSecretOf?(seeded: (kind: string) => Buffer): string;
  /** The network's own client registry. */
  findClient?(clientId: string): Client | undefined;
  /** Name of the client id parameter on both endpoints. Default 'client_id' (TikTok: 'client_key'). */
  clientParam?: string;
  /**
   * How the token endpoint authenticates the client: `either` (Basic or form fields, Google),
   * `body` (form fields only), `basic` (Basic only), `basic-or-public` (Basic for confidential
   * clients, client_id alone for public ones: X). Default `either`.
   */
  clientAuth?: 'either' | 'body' | 'basic' | 'basic-or-public';
  /** The token endpoint authenticates the client before it looks at the body (Pinterest). */
  clientBeforeBody?: boolean;
  /** A missing grant_type is its own refusal, before client authentication (LinkedIn). */
  requireGrantType?: boolean;
  /** Parameters of the code grant whose absence is its own refusal (`code_missing`). */
  requiredCodeParams?: readonly string[];
  /** A refresh may ask for a narrower `scope` (Pinterest). */
  refreshScopeParam?: boolean;
  /** `rotate`: a refresh answers a new refresh token and retires the old one; `rotate-keep-expiry`: the new one keeps the old one's expiry. */
  refreshRotation?: 'none' | 'rotate' | 'rotate-keep-expiry';
  /** Whether a grant gets a refresh token. Default always. */
  issuesRefresh?(input: { grant: OAuthGrant; client: Client; offline: boolean }): boolean;
  /** What the network attaches to an access token when it issues it. */
  claimsOf?(grant: OAuthGrant): Claims;
  /** A grant whose account is gone no longer refreshes. */
  accountExists?(accountId: string): boolean;
  /** The checks of the authorize request, in order, per method. Default client, redirect_uri, response_type, scope, challenge_method. */
  authorizeChecks?(method: string): readonly AuthorizeCheck[];
  /** A redirect URI the client may use. Default: one of its registered URIs. */
  redirectAllowed?(client: Client, uri: string): boolean;
  /** The network knows PKCE: a challenge sent with the consent binds the code. Default true. */
  pkce?: boolean;
  /** PKCE methods accepted. Default S256 and plain. */
  challengeMethods?: readonly string[];
  /**
   * When the `challenge_method` check looks at the method: `nonempty` (default: a non-empty method
   * must be one of `challengeMethods`), `given` (any method sent, even empty), `challenge` (whenever a
   * challenge is sent, so the method must be named), `nonempty-challenge` (whenever a non-empty one is).
   */
  challengeMethodCheck?: 'nonempty' | 'given' | 'challenge' | 'nonempty-challenge';
  /** The method of a challenge sent without one. Default S256. */
  defaultChallengeMethod?: 'S256' | 'plain';
  /** The consent form's account field and the value of its allow button. Defaults 'account_id' and 'approve'. */
  accountParam?: string;
  approveValue?: string;
  /** The sandbox accounts a user may sign in as. */
  accounts(): Array<{ id: string; label: string }>;
  /** The consent page (HTML); default a plain Google-like page. */
  consentPage?(input: { client: Client; scopes: string[]; params: Record<string, string> }): string;
  consentContentType?: string;
  /** Answers an authorize request that fails a check; default Google's error page. */
  authorizeRefused?(res: ServerResponse, check: AuthorizeCheck, ctx: AuthorizeContext<Client>): void;
  /** Answers an allowed consent naming no known account; default: redirect with access_denied. */
  unknownAccount?(res: ServerResponse, ctx: AuthorizeContext<Client>): void;
  /** The redirect parameters after consent, in order. Defaults: `code, state` and `error=access_denied, state`. */
  codeRedirect?(code: string, ctx: AuthorizeContext<Client>): Record<string, string>;
  deniedRedirect?(ctx: AuthorizeContext<Client>): Record<string, string>;
  redirectHeaders?: Record<string, string>;
  /** Answers a refusal of the token endpoint; default RFC 6749 `{error, error_description}` with Google's texts. */
  tokenRefused?(res: ServerResponse, refusal: TokenRefusal, ctx: { req: SimRequest; fields: Record<string, string> }): void;
  /** The token endpoint's success body; default RFC 6749's. */
  tokenBody?(input: TokenAnswerInput<Claims>): unknown;
  tokenHeaders?: Record<string, string>;
}

/** Which kind of bearer the request carries. */
export type BearerCheck<Claims = undefined> =
  | { kind: 'ok'; grant: OAuthGrant; token: OAuthToken<Claims> }
  | { kind: 'missing' } | { kind: 'unknown' } | { kind: 'revoked'; token: OAuthToken<Claims> } | { kind: 'expired'; token: OAuthToken<Claims> }
  | { kind: 'scope'; token: OAuthToken<Claims> };

export interface OAuthServer<Claims = undefined> {
  createClient(redirectUris: string[]): { clientId: string; clientSecret: string };
  page(req: SimRequest, res: ServerResponse): void;
  answer(req: SimRequest, res: ServerResponse): void;
  /** GET shows the consent page, POST takes its answer. */
  authorize(req: SimRequest, res: ServerResponse): void;
  /**
   * `refuseRefresh`: an armed failure makes this refresh fail as an invalid refresh token would;
   * `beforeRefresh` sees the stored refresh token of an authenticated refresh before it is checked.
   */
  token(req: SimRequest, res: ServerResponse, o?: { refuseRefresh?: boolean; beforeRefresh?: (stored: OAuthToken<undefined> | undefined) => void }): void;
  /** The token behind `Authorization: Bearer …`; with `scopes`, it must hold one of them. */
  bearer(req: SimRequest, scopes?: readonly string[]): BearerCheck<Claims>;
  /** A live access token by value. */
  accessToken(value: string | undefined): OAuthToken<Claims> | undefined;
  /** Tokens as a finished flow would give them, without the flow. */
  issueTokens(grant: OAuthGrant, o?: { refresh?: boolean }): { access: OAuthToken<Claims>; refresh?: OAuthToken<undefined> };
  /** Makes access (or refresh) tokens of the account, or of all accounts, expire now. */
  expireAccessTokens(accountId?: string): void;
  expireRefreshTokens(accountId?: string): void;
  /** Revokes every token of the account (or of all): API calls and refreshes fail. */
  revoke(accountId?: string): void;
  /** Forgets every authorization code not yet redeemed (a simulator reset). */
  clearCodes(): void;
  /** Code for (account, client) without the consent page (tests). */
  issueCode(accountId: string, input: { clientId: string; redirectUri: string; scopes: string[]; codeChallenge?: string; codeChallengeMethod?: string; offline?: boolean }): string;
}

export const oauthError = (res: ServerResponse, status: number, error: string, description: string) =>
  sendJson(res, status, { error, error_description: description });

/** RFC 7636: does the verifier answer the challenge. */
function pkceMatches(challenge: string, method: string, verifier: string): boolean {
  return (method === 'plain' ? verifier : createHash('sha256').update(verifier).digest('base64url')) === challenge;
}

/** `Authorization: Basic` client credentials, percent-decoded (RFC 6749 §2.3.1). */
export function basicCredentials(req: SimRequest): { id: string; secret: string } | undefined {
  const basic = /^Basic\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
  if (!basic) return undefined;
  const decoded = Buffer.from(basic, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const unescape = (s: string) => { try { return decodeURIComponent(s); } catch { return s; } };
  return { id: unescape(decoded.slice(0, colon)), secret: unescape(decoded.slice(colon + 1)) };
}

/** Hidden inputs carrying the authorize parameters through the consent form (only `keys`, when given). */
export function hiddenInputs(params: Record<string, string>, keys?: readonly string[]): string {
  const entries = keys ? keys.filter((k) => params[k] !== undefined).map((k) => [k, params[k]!] as const) : Object.entries(params);
  return entries.map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`).join('');
}

const GOOGLE_TOKEN_REFUSALS: Record<TokenRefusal, [number, string, string]> = {
  method: [405, 'invalid_request', 'POST only'],
  body: [400, 'invalid_request', 'The request body must be application/x-www-form-urlencoded.'],
  grant_type_missing: [400, 'invalid_request', 'Missing required parameter: grant_type'],
  client: [401, 'invalid_client', 'Client authentication failed.'],
  code_missing: [400, 'invalid_request', 'Missing required parameter: code'],
  code: [400, 'invalid_grant', 'Invalid or expired authorization code.'],
  redirect_uri: [400, 'invalid_grant', 'redirect_uri does not match the authorization request.'],
  verifier_missing: [400, 'invalid_grant', 'Missing code verifier.'],
  verifier: [400, 'invalid_grant', 'Invalid code verifier.'],
  refresh: [400, 'invalid_grant', 'Token has been expired or revoked.'],
  scope: [400, 'invalid_scope', 'The scope is wider than the original grant.'],
  grant_type: [400, 'unsupported_grant_type', 'Invalid grant_type: '],
};

/** The token endpoint's refusals in Google's words: the default, and what a network falls back to. */
export function googleTokenRefused(res: ServerResponse, refusal: TokenRefusal, fields: Record<string, string>): void {
  const [status, error, description] = GOOGLE_TOKEN_REFUSALS[refusal];
  oauthError(res, status, error, refusal === 'grant_type' ? `${description}${fields.grant_type ?? ''}` : description);
}

const GOOGLE_AUTHORIZE_REFUSALS: Record<AuthorizeCheck, [number, string]> = {
  client: [401, 'invalid_client'], redirect_uri: [400, 'redirect_uri_mismatch'], response_type: [400, 'unsupported_response_type'],
  scope: [400, 'invalid_scope'], state: [400, 'invalid_request'], challenge: [400, 'invalid_request'], challenge_method: [400, 'invalid_request'],
};

const DEFAULT_CHECKS: readonly AuthorizeCheck[] = ['client', 'redirect_uri', 'response_type', 'scope', 'challenge_method'];

interface Code { grant: OAuthGrant; redirectUri: string; challenge?: string; method: string; offline: boolean; expiresAt: number; used: boolean }

export function createOAuthServer<Client extends OAuthClientRecord = OAuthClientRecord, Claims = undefined>(
  opts: OAuthServerOptions<Client, Claims>,
): OAuthServer<Claims> {
  const registry = new Map<string, Client>();
  const findClient = opts.findClient ?? ((id: string) => registry.get(id));
  const access = new Map<string, OAuthToken<Claims>>();
  const refresh = new Map<string, OAuthToken<undefined>>();
  const codes = new Map<string, Code>();
  const clientParam = opts.clientParam ?? 'client_id';
  const accountParam = opts.accountParam ?? 'account_id';
  const sep = opts.scopeSeparator ?? ' ';
  const methods = opts.challengeMethods ?? ['S256', 'plain'];
  const seededToken = (kind: string, length: number) => opts.seeded(kind).toString('base64url').slice(0, length);
  const newAccess = opts.newAccessToken ?? (() => `${opts.accessPrefix ?? ''}${seededToken('access', 60)}`);
  const newRefresh = opts.newRefreshToken ?? (() => `${opts.refreshPrefix ?? ''}${seededToken('refresh', 60)}`);
  const newCode = opts.newCode ?? (() => `4/0${seededToken('code', 40)}`);
  const scopeAllowed = (scope: string, client: Client) =>
    typeof opts.knownScopes === 'function' ? opts.knownScopes(scope, client) : opts.knownScopes.includes(scope);
  const grantOf = (t: OAuthGrant): OAuthGrant => ({ accountId: t.accountId, clientId: t.clientId, scopes: t.scopes });

  const issueAccess = (grant: OAuthGrant): OAuthToken<Claims> => {
    const value = newAccess();
    const token = { ...grantOf(grant), value, expiresAt: Date.now() + opts.accessTokenTtlSeconds * 1000, revoked: false, claims: opts.claimsOf?.(grant) as Claims };
    access.set(value, token);
    return token;
  };
  const issueRefresh = (grant: OAuthGrant, expiresAt?: number): OAuthToken<undefined> => {
    const value = newRefresh();
    const ttl = opts.refreshTokenTtlSeconds;
    const token = { ...grantOf(grant), value, expiresAt: expiresAt ?? (ttl === undefined ? Infinity : Date.now() + ttl * 1000), revoked: false, claims: undefined };
    refresh.set(value, token);
    return token;
  };

  const defaultRefused = (res: ServerResponse, check: AuthorizeCheck) => {
    const [status, error] = GOOGLE_AUTHORIZE_REFUSALS[check];
    sendText(res, status, `<!doctype html><title>Error</title><h1>Error ${status}: ${escapeHtml(error)}</h1>`, 'text/html; charset=utf-8');
  };

  /** The authorize request's checks; the refusal is sent when one fails. */
  function checkAuthorize(req: SimRequest, res: ServerResponse, p: Record<string, string>): AuthorizeContext<Client> & { client: Client } | undefined {
    const ctx: AuthorizeContext<Client> = {
      params: p, scopes: [], unknownScopes: [],
      redirect(params) {
        const target = new URL(p.redirect_uri!);
        for (const [k, v] of Object.entries(params)) target.searchParams.set(k, v);
        res.writeHead(302, { location: target.toString(), ...opts.redirectHeaders });
        res.end();
      },
    };
    ctx.scopes = (p.scope ?? '').split(sep).map((s) => s.trim()).filter(Boolean);
    const refuse = (check: AuthorizeCheck) => void (opts.authorizeRefused ? opts.authorizeRefused(res, check, ctx) : defaultRefused(res, check));
    for (const check of opts.authorizeChecks?.(req.method) ?? DEFAULT_CHECKS) {
      switch (check) {
        case 'client':
          ctx.client = findClient(p[clientParam] ?? '');
          if (!ctx.client) return refuse(check);
          break;
        case 'redirect_uri':
          if (!(opts.redirectAllowed ?? ((c, uri) => c.redirectUris.includes(uri)))(ctx.client!, p.redirect_uri ?? '')) return refuse(check);
          break;
        case 'response_type':
          if (p.response_type !== 'code') return refuse(check);
          break;
        case 'scope':
          ctx.unknownScopes = ctx.scopes.filter((s) => !scopeAllowed(s, ctx.client!));
          if (!ctx.scopes.length || ctx.unknownScopes.length) return refuse(check);
          break;
        case 'state':
          if (!p.state) return refuse(check);
          break;
        case 'challenge':
          if (!p.code_challenge) return refuse(check);
          break;
        case 'challenge_method': {
          const method = p.code_challenge_method;
          const looks = {
            nonempty: !!method, given: method !== undefined,
            challenge: p.code_challenge !== undefined, 'nonempty-challenge': !!p.code_challenge,
          }[opts.challengeMethodCheck ?? 'nonempty'];
          if (looks && !methods.includes(method ?? '')) return refuse(check);
          break;
        }
      }
    }
    return ctx as AuthorizeContext<Client> & { client: Client };
  }

  const defaultConsent = (input: { scopes: string[]; params: Record<string, string> }) => {
    const title = opts.title ?? 'Sign in';
    const choices = opts.accounts().map((a, i) =>
      `<label><input type="radio" name="${escapeHtml(accountParam)}" value="${escapeHtml(a.id)}"${i === 0 ? ' checked' : ''}> ${escapeHtml(a.label)}</label><br>`).join('');
    return `<!doctype html><meta charset="utf-8"><title>${escapeHtml(title)} (simulator)</title>
<h1>${escapeHtml(title)}</h1><p>Scopes: ${input.scopes.map(escapeHtml).join(', ')}</p>
<form method="post" action="${escapeHtml(opts.authorizePath)}">${hiddenInputs(input.params)}${choices || '<p>No sandbox account: create one first.</p>'}
<button name="decision" value="approve">Allow</button> <button name="decision" value="deny">Cancel</button></form>`;
  };

  function clientOf(req: SimRequest, fields: Record<string, string>): Client | undefined {
    const mode = opts.clientAuth ?? 'either';
    const basic = mode === 'body' ? undefined : basicCredentials(req);
    if (basic || mode === 'basic') {
      const client = basic ? findClient(basic.id) : undefined;
      return client && client.clientSecret !== null && client.clientSecret === basic!.secret ? client : undefined;
    }
    if (/^Basic\s/i.test(req.headers.authorization ?? '') && mode !== 'body') return undefined;
    const client = findClient(fields[clientParam] ?? '');
    if (!client) return undefined;
    if (mode === 'basic-or-public') return client.clientSecret === null ? client : undefined;
    return client.clientSecret !== null && client.clientSecret === fields.client_secret ? client : undefined;
  }

  const server: OAuthServer<Claims> = {
    createClient(redirectUris) {
      if (!opts.clientIdOf || !opts.clientSecretOf) throw new Error('createClient needs clientIdOf and clientSecretOf');
      const client = { clientId: opts.clientIdOf(opts.seeded), clientSecret: opts.clientSecretOf(opts.seeded), redirectUris } as Client;
      registry.set(client.clientId, client);
      return { clientId: client.clientId, clientSecret: client.clientSecret! };
    },
    page(req, res) {
      const ctx = checkAuthorize(req, res, req.query);
      if (!ctx) return;
      const html = (opts.consentPage ?? defaultConsent)({ client: ctx.client, scopes: ctx.scopes, params: req.query });
      sendText(res, 200, html, opts.consentContentType ?? 'text/html; charset=utf-8');
    },
    answer(req, res) {
      const p = req.body.kind === 'form' ? req.body.fields : {};
      const ctx = checkAuthorize(req, res, p);
      if (!ctx) return;
      const withState = (params: Record<string, string>) => ({ ...params, ...(p.state !== undefined ? { state: p.state } : {}) });
      const deny = () => ctx.redirect(opts.deniedRedirect ? opts.deniedRedirect(ctx) : withState({ error: 'access_denied' }));
      if (p.decision !== (opts.approveValue ?? 'approve')) return deny();
      const account = opts.accounts().find((a) => a.id === p[accountParam]);
      if (!account) return opts.unknownAccount ? opts.unknownAccount(res, ctx) : deny();
      const code = server.issueCode(account.id, {
        clientId: ctx.client.clientId, redirectUri: p.redirect_uri!, scopes: ctx.scopes, offline: p.access_type === 'offline',
        ...(p.code_challenge && opts.pkce !== false ? { codeChallenge: p.code_challenge } : {}),
        ...(p.code_challenge_method ? { codeChallengeMethod: p.code_challenge_method } : {}),
      });
      ctx.redirect(opts.codeRedirect ? opts.codeRedirect(code, ctx) : withState({ code }));
    },
    authorize(req, res) {
      return req.method === 'POST' ? server.answer(req, res) : server.page(req, res);
    },
    token(req, res, o = {}) {
      const fields = req.body.kind === 'form' ? req.body.fields : {};
      const refuse = (refusal: TokenRefusal) => (opts.tokenRefused ?? ((r, why) => googleTokenRefused(r, why, fields)))(res, refusal, { req, fields });
      if (req.method !== 'POST') return refuse('method');
      let client: Client | undefined;
      if (opts.clientBeforeBody && !(client = clientOf(req, fields))) return refuse('client');
      if (req.body.kind !== 'form') return refuse('body');
      const f = fields;
      if (opts.requireGrantType && !f.grant_type) return refuse('grant_type_missing');
      if (!client && !(client = clientOf(req, f))) return refuse('client');
      const send = (grantType: TokenAnswerInput<Claims>['grantType'], grant: OAuthGrant, withRefresh: boolean, refreshExpiresAt?: number) => {
        const issued = { grantType, access: issueAccess(grant), ...(withRefresh ? { refresh: issueRefresh(grant, refreshExpiresAt) } : {}) };
        const body = opts.tokenBody ? opts.tokenBody(issued) : {
          access_token: issued.access.value, expires_in: opts.accessTokenTtlSeconds, scope: grant.scopes.join(' '), token_type: 'Bearer',
          ...(issued.refresh ? { refresh_token: issued.refresh.value } : {}),
        };
        sendJson(res, 200, body, opts.tokenHeaders ?? { 'cache-control': 'no-store' });
      };
      if (f.grant_type === 'authorization_code') {
        if (opts.requiredCodeParams?.some((k) => !f[k])) return refuse('code_missing');
        const code = codes.get(f.code ?? '');
        if (!code || code.used || code.expiresAt < Date.now() || code.grant.clientId !== client.clientId) return refuse('code');
        if (code.redirectUri !== f.redirect_uri) return refuse('redirect_uri');
        if (code.challenge !== undefined) {
          if (!f.code_verifier) return refuse('verifier_missing');
          if (!pkceMatches(code.challenge, code.method, f.code_verifier)) return refuse('verifier');
        }
        code.used = true;
        return send('authorization_code', code.grant, opts.issuesRefresh?.({ grant: code.grant, client, offline: code.offline }) ?? true);
      }
      if (f.grant_type === 'refresh_token') {
        const stored = refresh.get(f.refresh_token ?? '');
        o.beforeRefresh?.(stored);
        if (o.refuseRefresh || !stored || stored.revoked || stored.expiresAt <= Date.now() || stored.clientId !== client.clientId
          || (opts.accountExists && !opts.accountExists(stored.accountId))) return refuse('refresh');
        let scopes = stored.scopes;
        if (opts.refreshScopeParam && f.scope) {
          scopes = f.scope.split(sep).map((s) => s.trim()).filter(Boolean);
          if (scopes.some((s) => !stored.scopes.includes(s))) return refuse('scope');
        }
        const grant = { ...grantOf(stored), scopes };
        const rotation = opts.refreshRotation ?? 'none';
        if (rotation === 'none') return send('refresh_token', grant, false);
        stored.revoked = true;
        return send('refresh_token', grant, true, rotation === 'rotate-keep-expiry' ? stored.expiresAt : undefined);
      }
      return refuse('grant_type');
    },
    bearer(req, scopes) {
      const value = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
      if (!value) return { kind: 'missing' };
      const token = access.get(value);
      if (!token) return { kind: 'unknown' };
      if (token.revoked) return { kind: 'revoked', token };
      if (token.expiresAt <= Date.now()) return { kind: 'expired', token };
      if (scopes && !token.scopes.some((s) => scopes.includes(s))) return { kind: 'scope', token };
      return { kind: 'ok', grant: grantOf(token), token };
    },
    accessToken(value) {
      const token = value === undefined ? undefined : access.get(value);
      return token && !token.revoked && token.expiresAt > Date.now() && (!opts.accountExists || opts.accountExists(token.accountId)) ? token : undefined;
    },
    issueTokens(grant, o = {}) {
      return { access: issueAccess(grant), ...(o.refresh ?? true ? { refresh: issueRefresh(grant) } : {}) };
    },
    expireAccessTokens(accountId) {
      for (const t of access.values()) if (accountId === undefined || t.accountId === accountId) t.expiresAt = Date.now() - 1000;
    },
    expireRefreshTokens(accountId) {
      for (const t of refresh.values()) if (accountId === undefined || t.accountId === accountId) t.expiresAt = Date.now() - 1000;
    },
    revoke(accountId) {
      for (const t of [...access.values(), ...refresh.values()]) if (accountId === undefined || t.accountId === accountId) t.revoked = true;
    },
    clearCodes: () => codes.clear(),
    issueCode(accountId, input) {
      const code = newCode();
      codes.set(code, {
        grant: { accountId, clientId: input.clientId, scopes: input.scopes }, redirectUri: input.redirectUri,
        ...(input.codeChallenge !== undefined ? { challenge: input.codeChallenge } : {}),
        method: input.codeChallengeMethod ?? opts.defaultChallengeMethod ?? 'S256', offline: input.offline ?? false,
        expiresAt: Date.now() + (opts.codeTtlMs ?? 10 * 60_000), used: false,
      });
      return code;
    },
  };
  return server;
}
