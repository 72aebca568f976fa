import type { AgentAuthorizationCode, AgentClient, AgentToken } from '../../../core/domain/agent-oauth';
import { DuplicateKeyError } from '../../../core/ports/storage';
import type { AgentOAuthStore } from '../../../core/ports/storage/agent-oauth';
import { at } from '../../support/mothers';
import { freshForEachTest, type MakeRepository } from './repository-under-test';

/** The behaviour every adapter of the agent authorization server's store must show. */
export function agentOAuthContract(name: string, make: MakeRepository<AgentOAuthStore>): void {
  describe(`Storage contract: ${name} (agent OAuth)`, () => {
    let store: AgentOAuthStore;
    freshForEachTest(make, (repository) => {
      store = repository;
    });

    const client: AgentClient = {
      clientId: 'hmcl_1', sealedSecret: null, createdAt: at(0),
      metadata: { client_name: 'Agent', redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none', $odd: { 'a.b': 1 } },
    };
    const code = (codeHash: string, expiresAt: Date): AgentAuthorizationCode => ({
      codeHash, clientId: 'hmcl_1', accountId: 'acct-1', keyHash: 'k', scope: ['herald'], codeChallenge: 'c', redirectUri: 'http://127.0.0.1:9/cb', resource: null, createdAt: at(0), expiresAt,
    });
    const token = (tokenHash: string, kind: AgentToken['kind'], grantId: string, expiresAt: Date): AgentToken => ({
      tokenHash, kind, grantId, clientId: 'hmcl_1', accountId: 'acct-1', keyHash: 'k', scope: ['herald:read'], resource: 'http://127.0.0.1:8789/mcp', createdAt: at(0), expiresAt, rotatedAt: null,
    });

    it('stores clients with their metadata as given (keys of any shape), by client id, once', async () => {
      await store.clients.insert(client);
      expect(await store.clients.find('hmcl_1')).toEqual(client);
      expect(await store.clients.find('hmcl_2')).toBeNull();
      await expect(store.clients.insert(client)).rejects.toBeInstanceOf(DuplicateKeyError);
    });

    it('finds a code by its hash and lets exactly one consumer spend it', async () => {
      await store.codes.insert(code('c1', at(10)));
      expect(await store.codes.find('c1')).toEqual(code('c1', at(10)));
      const spent = await Promise.all([store.codes.consume('c1'), store.codes.consume('c1'), store.codes.consume('c1')]);
      expect(spent.filter(Boolean)).toHaveLength(1);
      expect(await store.codes.find('c1')).toBeNull();
    });

    it('marks a refresh token rotated for exactly one caller', async () => {
      const r1 = token('r1', 'refresh', 'g1', at(100));
      await store.tokens.insert(r1);
      const marked = await Promise.all([store.tokens.markRotated(r1, at(5)), store.tokens.markRotated(r1, at(6)), store.tokens.markRotated(r1, at(7))]);
      expect(marked.filter(Boolean)).toHaveLength(1);
      expect((await store.tokens.find('r1'))!.rotatedAt).toEqual(expect.any(Date));
      expect(await store.tokens.markRotated(r1, at(8))).toBe(false);
      // The claim goes with its grant.
      expect(await store.tokens.deleteGrant('g1')).toBeGreaterThanOrEqual(1);
      await store.tokens.insert(r1);
      expect(await store.tokens.markRotated(r1, at(9))).toBe(true);
    });

    it('deletes one token, or every token of a grant', async () => {
      await store.tokens.insert(token('a1', 'access', 'g1', at(100)));
      await store.tokens.insert(token('r1', 'refresh', 'g1', at(100)));
      await store.tokens.insert(token('a2', 'access', 'g2', at(100)));
      await expect(store.tokens.insert(token('a2', 'access', 'g2', at(100)))).rejects.toBeInstanceOf(DuplicateKeyError);
      expect(await store.tokens.find('a1')).toEqual(token('a1', 'access', 'g1', at(100)));
      expect(await store.tokens.delete('a2')).toBe(true);
      expect(await store.tokens.delete('a2')).toBe(false);
      expect(await store.tokens.deleteGrant('g1')).toBe(2);
      expect(await store.tokens.find('r1')).toBeNull();
    });

    it('sweeps codes and tokens past their expiry', async () => {
      await store.codes.insert(code('old', at(5)));
      await store.codes.insert(code('new', at(50)));
      await store.tokens.insert(token('t-old', 'access', 'g', at(5)));
      await store.tokens.insert(token('t-new', 'refresh', 'g', at(50)));
      expect(await store.deleteExpired(at(10))).toBe(2);
      expect(await store.codes.find('new')).not.toBeNull();
      expect(await store.tokens.find('t-new')).not.toBeNull();
    });
  });
}
