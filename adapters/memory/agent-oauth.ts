import type { AgentAuthorizationCode, AgentClient, AgentToken } from '../../core/domain/agent-oauth';
import { DuplicateKeyError } from '../../core/ports/storage';
import type { AgentOAuthStore } from '../../core/ports/storage/agent-oauth';
import { copy } from './values';

export function createMemoryAgentOAuthStore(): AgentOAuthStore {
  const clients = new Map<string, AgentClient>();
  const codes = new Map<string, AgentAuthorizationCode>();
  const tokens = new Map<string, AgentToken>();
  return {
    clients: {
      async insert(client) {
        if (clients.has(client.clientId)) throw new DuplicateKeyError('agent client');
        clients.set(client.clientId, copy(client));
      },
      async find(clientId) { const c = clients.get(clientId); return c ? copy(c) : null; },
    },
    codes: {
      async insert(code) {
        if (codes.has(code.codeHash)) throw new DuplicateKeyError('authorization code');
        codes.set(code.codeHash, copy(code));
      },
      async find(codeHash) { const c = codes.get(codeHash); return c ? copy(c) : null; },
      async consume(codeHash) { return codes.delete(codeHash); },
    },
    tokens: {
      async insert(token) {
        if (tokens.has(token.tokenHash)) throw new DuplicateKeyError('agent token');
        tokens.set(token.tokenHash, copy(token));
      },
      async find(tokenHash) { const t = tokens.get(tokenHash); return t ? copy(t) : null; },
      async markRotated(token, at) {
        const t = tokens.get(token.tokenHash);
        if (!t || t.rotatedAt) return false;
        t.rotatedAt = new Date(at.getTime());
        return true;
      },
      async delete(tokenHash) { return tokens.delete(tokenHash); },
      async deleteGrant(grantId) {
        let n = 0;
        for (const [k, t] of tokens) if (t.grantId === grantId) { tokens.delete(k); n += 1; }
        return n;
      },
    },
    async deleteExpired(now) {
      let n = 0;
      for (const map of [codes, tokens] as Map<string, { expiresAt: Date }>[]) {
        for (const [k, v] of map) if (v.expiresAt <= now) { map.delete(k); n += 1; }
      }
      return n;
    },
  };
}
