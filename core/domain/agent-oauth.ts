/**
 * OAuth 2.1 for agents (the MCP daemon's authorization server): clients registered dynamically,
 * single-use authorization codes bound to a PKCE challenge, and access and refresh tokens bound to
 * one operator account through the API key its operator signed in with. Only hashes of codes and
 * tokens are stored; revoking that API key ends every grant made with it.
 */

/** Prefixes tell a token's kind at a glance and keep it from ever being taken for an API key (`hk_`). */
export const AGENT_ACCESS_TOKEN_PREFIX = 'hma_';
export const AGENT_REFRESH_TOKEN_PREFIX = 'hmr_';
export const AGENT_CODE_PREFIX = 'hmc_';
export const AGENT_CLIENT_PREFIX = 'hmcl_';

/**
 * `herald`: everything the signed-in API key may do. `herald:read`: reads only (the API refuses any
 * other method with 403 `insufficient_scope`, and so do webhook settings, which need the account).
 */
export const AGENT_SCOPES = ['herald', 'herald:read'] as const;
export type AgentScope = (typeof AGENT_SCOPES)[number];
export const DEFAULT_AGENT_SCOPE: AgentScope = 'herald';

export function isAgentScope(value: string): value is AgentScope {
  return (AGENT_SCOPES as readonly string[]).includes(value);
}

/**
 * The canonical URI of the MCP server (RFC 8707, MCP authorization): the one resource this
 * authorization server issues tokens for, and the audience every token is bound to.
 */
export function agentResourceOf(mcpPublicBaseUrl: string): string {
  return new URL(`${mcpPublicBaseUrl.replace(/\/+$/, '')}/mcp`).href;
}

/** Whether a resource indicator names `canonical` (a trailing slash is the same resource). */
export function isAgentResource(resource: string, canonical: string): boolean {
  return resource.replace(/\/+$/, '') === canonical.replace(/\/+$/, '');
}

/** A client registered through RFC 7591; `metadata` is what it registered (redirect_uris, name, auth method…). */
export interface AgentClient {
  clientId: string;
  metadata: Record<string, unknown>;
  /** The client secret sealed with the secret key (confidential clients); null for public clients. */
  sealedSecret: string | null;
  createdAt: Date;
}

/** The operator account a grant acts for, and the API key (by hash) whose rights it carries. */
export interface AgentPrincipal {
  accountId: string;
  keyHash: string;
}

export interface AgentAuthorizationCode extends AgentPrincipal {
  codeHash: string;
  clientId: string;
  scope: AgentScope[];
  /** S256 only. */
  codeChallenge: string;
  redirectUri: string;
  /** RFC 8707 resource indicator the client asked for, if any (null: the MCP server's own). */
  resource: string | null;
  createdAt: Date;
  expiresAt: Date;
}

export interface AgentToken extends AgentPrincipal {
  tokenHash: string;
  kind: 'access' | 'refresh';
  /** Every token issued from one authorization (and its refreshes) shares the grant id. */
  grantId: string;
  clientId: string;
  scope: AgentScope[];
  /** The audience (RFC 8707): only this resource accepts the token. Null on tokens issued before binding: accepted nowhere. */
  resource: string | null;
  createdAt: Date;
  expiresAt: Date;
  /** Refresh tokens only: when it was exchanged; presenting it again revokes the whole grant. */
  rotatedAt: Date | null;
}

export interface AgentOAuthTtls {
  codeMs: number;
  accessMs: number;
  refreshMs: number;
}

export const DEFAULT_AGENT_OAUTH_TTLS: AgentOAuthTtls = {
  codeMs: 5 * 60_000,
  accessMs: 60 * 60_000,
  refreshMs: 30 * 24 * 3600_000,
};
