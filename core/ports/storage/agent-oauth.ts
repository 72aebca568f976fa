import type { AgentAuthorizationCode, AgentClient, AgentToken } from '../../domain/agent-oauth';

/**
 * The agent authorization server's records (core/domain/agent-oauth.ts). Every lookup is an
 * equality on a key or a hash; expiry is a field swept by deleteExpired (no TTL indexes).
 */
export interface AgentOAuthStore {
  clients: {
    /** Throws DuplicateKeyError when the client id exists. */
    insert(client: AgentClient): Promise<void>;
    find(clientId: string): Promise<AgentClient | null>;
  };
  codes: {
    insert(code: AgentAuthorizationCode): Promise<void>;
    find(codeHash: string): Promise<AgentAuthorizationCode | null>;
    /** Deletes the code; true for the one caller that deleted it (a code works once). */
    consume(codeHash: string): Promise<boolean>;
  };
  tokens: {
    insert(token: AgentToken): Promise<void>;
    find(tokenHash: string): Promise<AgentToken | null>;
    /**
     * Marks a refresh token exchanged; true for exactly one of concurrent callers (a unique-key
     * claim: FerretDB's filtered updates are not atomic). The claim goes with the token's grant
     * and expiry.
     */
    markRotated(token: AgentToken, at: Date): Promise<boolean>;
    delete(tokenHash: string): Promise<boolean>;
    /** Every token of a grant (revocation of a refresh token, reuse of a rotated one). */
    deleteGrant(grantId: string): Promise<number>;
  };
  /** Codes and tokens past their expiry. Returns how many went. */
  deleteExpired(now: Date): Promise<number>;
}
