import {
  AGENT_ACCESS_TOKEN_PREFIX, AGENT_CODE_PREFIX, AGENT_REFRESH_TOKEN_PREFIX, DEFAULT_AGENT_SCOPE, isAgentResource, isAgentScope,
  type AgentClient, type AgentOAuthTtls, type AgentPrincipal, type AgentScope, type AgentToken,
} from '../domain/agent-oauth';
import { HeraldError } from '../domain/errors';
import type { Storage } from '../ports/storage';
import type { AgentOAuthStore } from '../ports/storage/agent-oauth';
import type { Clock, IdGenerator, KeyHasher } from '../ports/system';

export interface AgentOAuthDeps {
  store: AgentOAuthStore;
  /** SHA-256 of codes and tokens (192-bit random: no salt needed). */
  hasher: Pick<KeyHasher, 'hash'>;
  ids: IdGenerator;
  clock: Clock;
  ttls: AgentOAuthTtls;
  /** The canonical resource tokens are issued for (agentResourceOf: the MCP server's URL). */
  resource: string;
  /** A grant lives only as long as the API key it was made with. */
  apiKeys: Pick<Storage['apiKeys'], 'findByHash'>;
}

/** An OAuth error (RFC 6749 §5.2 codes): the MCP daemon answers it in the protocol's shape. */
export class AgentOAuthError extends HeraldError {
  constructor(readonly oauthError: 'invalid_grant' | 'invalid_scope' | 'invalid_request' | 'invalid_client' | 'invalid_target', message: string) {
    super(oauthError === 'invalid_client' ? 'unauthenticated' : 'invalid_input', message, oauthError);
  }
}

export interface AgentTokens {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  refresh_token: string;
  scope: string;
}

const secret = (ids: IdGenerator, prefix: string): string => `${prefix}${ids.next()}${ids.next()}`;

/** The scopes asked for, checked; none asked = the default. */
export function parseAgentScopes(requested: readonly string[] | undefined): AgentScope[] {
  const asked = (requested ?? []).filter(Boolean);
  if (asked.length === 0) return [DEFAULT_AGENT_SCOPE];
  const unknown = asked.filter((s) => !isAgentScope(s));
  if (unknown.length) throw new AgentOAuthError('invalid_scope', `Unknown scope ${unknown.map((s) => `"${s}"`).join(', ')}: use "herald" (everything the API key may do) or "herald:read" (reads only).`);
  return [...new Set(asked)] as AgentScope[];
}

/** Whether a grant's scopes allow writes (any method), or reads only. */
export function agentScopeLevel(scope: readonly AgentScope[]): 'account' | 'read' {
  return scope.includes('herald') ? 'account' : 'read';
}

export async function registerAgentClient(deps: Pick<AgentOAuthDeps, 'store' | 'clock'>, client: Omit<AgentClient, 'createdAt'>): Promise<AgentClient> {
  const record: AgentClient = { ...client, createdAt: deps.clock.now() };
  await deps.store.clients.insert(record);
  return record;
}

/** After the operator signed in and consented: a single-use code for the client's redirect. */
export async function issueAuthorizationCode(deps: AgentOAuthDeps, input: AgentPrincipal & {
  clientId: string; scope: AgentScope[]; codeChallenge: string; redirectUri: string; resource: string | null;
}): Promise<string> {
  const code = secret(deps.ids, AGENT_CODE_PREFIX);
  const now = deps.clock.now();
  await deps.store.codes.insert({
    ...input, codeHash: deps.hasher.hash(code), createdAt: now, expiresAt: new Date(now.getTime() + deps.ttls.codeMs),
  });
  return code;
}

async function liveCode(deps: AgentOAuthDeps, clientId: string, code: string) {
  const found = await deps.store.codes.find(deps.hasher.hash(code));
  if (!found || found.clientId !== clientId || found.expiresAt <= deps.clock.now()) {
    throw new AgentOAuthError('invalid_grant', 'The authorization code is unknown, expired, already used or issued to another client.');
  }
  return found;
}

/** The PKCE challenge the code was issued for (the token endpoint checks the verifier against it). */
export async function challengeForCode(deps: AgentOAuthDeps, clientId: string, code: string): Promise<string> {
  return (await liveCode(deps, clientId, code)).codeChallenge;
}

/**
 * The one resource a grant's tokens are for: this server's (the authorization request may only
 * name it, or none). A token request may name it again (RFC 8707 §2.2), never another one.
 */
function grantResource(deps: AgentOAuthDeps, granted: string | null, asked: string | undefined): string {
  for (const named of [granted, asked]) {
    if (named !== null && named !== undefined && !isAgentResource(named, deps.resource)) {
      throw new AgentOAuthError('invalid_target', `This authorization is for the resource ${deps.resource} only, not ${named}.`);
    }
  }
  return deps.resource;
}

/** The grant's API key is still live: a revoked or deleted key ends the grant and every token of it. */
async function requireLiveKey(deps: AgentOAuthDeps, grant: AgentPrincipal & { grantId?: string }): Promise<void> {
  const key = await deps.apiKeys.findByHash(grant.keyHash);
  if (key && !key.revokedAt && key.accountId === grant.accountId) return;
  if (grant.grantId) await deps.store.tokens.deleteGrant(grant.grantId);
  throw new AgentOAuthError('invalid_grant', 'The API key this authorization was made with is revoked: every token of it is revoked; authorize again.');
}

async function issueTokens(deps: AgentOAuthDeps, grant: AgentPrincipal & { grantId: string; clientId: string; scope: AgentScope[]; resource: string }): Promise<AgentTokens> {
  const now = deps.clock.now();
  const access = secret(deps.ids, AGENT_ACCESS_TOKEN_PREFIX);
  const refresh = secret(deps.ids, AGENT_REFRESH_TOKEN_PREFIX);
  const base = { ...grant, createdAt: now, rotatedAt: null };
  await deps.store.tokens.insert({ ...base, kind: 'access', tokenHash: deps.hasher.hash(access), expiresAt: new Date(now.getTime() + deps.ttls.accessMs) });
  await deps.store.tokens.insert({ ...base, kind: 'refresh', tokenHash: deps.hasher.hash(refresh), expiresAt: new Date(now.getTime() + deps.ttls.refreshMs) });
  return { access_token: access, token_type: 'Bearer', expires_in: Math.floor(deps.ttls.accessMs / 1000), refresh_token: refresh, scope: grant.scope.join(' ') };
}

/**
 * The authorization-code grant, after the caller checked the PKCE verifier against
 * challengeForCode: the code is consumed (a second exchange fails), the redirect URI must be the
 * one the code was issued for, and so must the resource if the request names one.
 */
export async function exchangeAuthorizationCode(deps: AgentOAuthDeps, input: { clientId: string; code: string; redirectUri?: string; resource?: string }): Promise<AgentTokens> {
  const code = await liveCode(deps, input.clientId, input.code);
  if (input.redirectUri !== undefined && input.redirectUri !== code.redirectUri) {
    throw new AgentOAuthError('invalid_grant', 'redirect_uri differs from the one of the authorization request.');
  }
  const resource = grantResource(deps, code.resource, input.resource);
  if (!(await deps.store.codes.consume(code.codeHash))) {
    throw new AgentOAuthError('invalid_grant', 'The authorization code was already used.');
  }
  await requireLiveKey(deps, code);
  return issueTokens(deps, {
    grantId: deps.ids.next('grant'), clientId: code.clientId, accountId: code.accountId, keyHash: code.keyHash, scope: code.scope, resource,
  });
}

/**
 * The refresh-token grant with rotation: the presented refresh token is spent and a new pair is
 * issued. A spent refresh token presented again means it leaked: the whole grant is revoked.
 */
export async function refreshAgentTokens(deps: AgentOAuthDeps, input: { clientId: string; refreshToken: string; scopes?: string[]; resource?: string }): Promise<AgentTokens> {
  const hash = deps.hasher.hash(input.refreshToken);
  const token = await deps.store.tokens.find(hash);
  const now = deps.clock.now();
  if (!token || token.kind !== 'refresh' || token.clientId !== input.clientId || token.expiresAt <= now) {
    throw new AgentOAuthError('invalid_grant', 'The refresh token is unknown, expired, revoked or issued to another client.');
  }
  // Checked before the token is spent: a refused request leaves it usable.
  const resource = grantResource(deps, token.resource, input.resource);
  await requireLiveKey(deps, token);
  if (token.rotatedAt || !(await deps.store.tokens.markRotated(token, now))) {
    await deps.store.tokens.deleteGrant(token.grantId);
    throw new AgentOAuthError('invalid_grant', 'The refresh token was already used: every token of this authorization is revoked; authorize again.');
  }
  let scope = token.scope;
  if (input.scopes?.length) {
    const asked = parseAgentScopes(input.scopes);
    const wider = asked.filter((s) => !token.scope.includes(s) && !(s === 'herald:read' && token.scope.includes('herald')));
    if (wider.length) throw new AgentOAuthError('invalid_scope', `The refresh asks for scopes the authorization did not grant: ${wider.join(', ')}.`);
    scope = asked;
  }
  return issueTokens(deps, { grantId: token.grantId, clientId: token.clientId, accountId: token.accountId, keyHash: token.keyHash, scope, resource });
}

/**
 * RFC 7009: an access token is revoked alone; a refresh token takes its whole grant with it. An
 * unknown token, or another client's, is not an error (nothing is revealed).
 */
export async function revokeAgentToken(deps: AgentOAuthDeps, input: { clientId: string; token: string }): Promise<void> {
  const hash = deps.hasher.hash(input.token);
  const token = await deps.store.tokens.find(hash);
  if (!token || token.clientId !== input.clientId) return;
  if (token.kind === 'refresh') await deps.store.tokens.deleteGrant(token.grantId);
  else await deps.store.tokens.delete(hash);
}

/**
 * A live access token by its hash for `resource`, or null (unknown, revoked, expired, a refresh
 * token, or issued for another resource: RFC 8707 audience binding).
 */
export async function findLiveAccessToken(deps: { store: Pick<AgentOAuthStore, 'tokens'>; clock: Clock }, tokenHash: string, resource: string): Promise<AgentToken | null> {
  const token = await deps.store.tokens.find(tokenHash);
  return token && token.kind === 'access' && token.expiresAt > deps.clock.now() && token.resource !== null && isAgentResource(token.resource, resource) ? token : null;
}

export async function deleteExpiredAgentGrants(deps: Pick<AgentOAuthDeps, 'store' | 'clock'>): Promise<number> {
  return deps.store.deleteExpired(deps.clock.now());
}
