import { createMemoryAgentOAuthStore } from '../../adapters/memory/agent-oauth';
import { agentResourceOf, DEFAULT_AGENT_OAUTH_TTLS } from '../../core/domain/agent-oauth';
import {
  challengeForCode, deleteExpiredAgentGrants, exchangeAuthorizationCode, issueAuthorizationCode, parseAgentScopes, refreshAgentTokens,
  revokeAgentToken, type AgentOAuthDeps,
} from '../../core/usecases/agent-oauth';
import { authenticate } from '../../core/usecases/authenticate';
import { listApiKeys, revokeApiKey } from '../../core/usecases/operator-accounts';
import { aWorld } from '../support/world';

const RESOURCE = agentResourceOf('http://127.0.0.1:8789');

/** The agent authorization server's use cases on the in-memory store, and the API accepting its tokens. */
describe('agent OAuth (MCP authorization server)', () => {
  const setup = async () => {
    const world = aWorld();
    const store = createMemoryAgentOAuthStore();
    const oauth: AgentOAuthDeps = {
      store, hasher: world.deps.hasher, ids: world.deps.ids, clock: world.deps.clock, ttls: DEFAULT_AGENT_OAUTH_TTLS,
      resource: RESOURCE, apiKeys: world.deps.storage.apiKeys,
    };
    const { account, secret } = await world.operator();
    const auth = { ...world.deps, agentTokens: { store, resource: RESOURCE } };
    const code = (scope = parseAgentScopes(['herald']), clientId = 'hmcl_a', resource: string | null = null) => issueAuthorizationCode(oauth, {
      clientId, accountId: account.id, keyHash: world.deps.hasher.hash(secret), scope, codeChallenge: 'challenge', redirectUri: 'http://127.0.0.1:1/cb', resource,
    });
    const revokeKey = async () => {
      const [key] = await listApiKeys(world.deps, { email: account.email });
      await revokeApiKey(world.deps, { email: account.email, keyId: key!.id });
    };
    return { world, store, oauth, account, secret, auth, code, revokeKey };
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}`, address: '10.1.1.1' });

  it('issues a single-use code bound to the client, its challenge and redirect URI', async () => {
    const { oauth, code } = await setup();
    const c = await code();
    expect(await challengeForCode(oauth, 'hmcl_a', c)).toBe('challenge');
    await expect(challengeForCode(oauth, 'hmcl_other', c)).rejects.toMatchObject({ oauthError: 'invalid_grant' });
    await expect(exchangeAuthorizationCode(oauth, { clientId: 'hmcl_a', code: c, redirectUri: 'http://evil/cb' })).rejects.toMatchObject({ oauthError: 'invalid_grant' });
    const tokens = await exchangeAuthorizationCode(oauth, { clientId: 'hmcl_a', code: c, redirectUri: 'http://127.0.0.1:1/cb' });
    expect(tokens).toMatchObject({ token_type: 'Bearer', scope: 'herald', expires_in: 3600, access_token: expect.stringMatching(/^hma_/), refresh_token: expect.stringMatching(/^hmr_/) });
    await expect(exchangeAuthorizationCode(oauth, { clientId: 'hmcl_a', code: c })).rejects.toMatchObject({ oauthError: 'invalid_grant' });
  });

  it('expires codes and access tokens, and sweeps them', async () => {
    const { world, oauth, auth, account, code } = await setup();
    const late = await code();
    world.advance(DEFAULT_AGENT_OAUTH_TTLS.codeMs + 1);
    await expect(exchangeAuthorizationCode(oauth, { clientId: 'hmcl_a', code: late })).rejects.toMatchObject({ oauthError: 'invalid_grant' });
    const tokens = await exchangeAuthorizationCode(oauth, { clientId: 'hmcl_a', code: await code() });
    await expect(authenticate(auth, bearer(tokens.access_token))).resolves.toMatchObject({ kind: 'api_key', account: { id: account.id } });
    world.advance(DEFAULT_AGENT_OAUTH_TTLS.accessMs + 1);
    await expect(authenticate(auth, bearer(tokens.access_token))).rejects.toMatchObject({ kind: 'unauthenticated', message: expect.stringContaining('access token') });
    // The expired code and access token go; the refresh token (30 days) stays.
    expect(await deleteExpiredAgentGrants(oauth)).toBe(2);
    await expect(refreshAgentTokens(oauth, { clientId: 'hmcl_a', refreshToken: tokens.refresh_token })).resolves.toMatchObject({
      token_type: 'Bearer', scope: 'herald', access_token: expect.stringMatching(/^hma_/), refresh_token: expect.stringMatching(/^hmr_/),
    });
  });

  it('authenticates an access token as the API key it was granted with, narrowed to its scope', async () => {
    const { oauth, auth, account, code } = await setup();
    const full = await exchangeAuthorizationCode(oauth, { clientId: 'hmcl_a', code: await code() });
    expect(await authenticate(auth, bearer(full.access_token))).toMatchObject({ kind: 'api_key', account: { id: account.id }, scope: 'account' });
    const read = await exchangeAuthorizationCode(oauth, { clientId: 'hmcl_a', code: await code(['herald:read']) });
    expect(await authenticate(auth, bearer(read.access_token))).toMatchObject({ scope: 'read' });
    // A refresh token is not an access token; without the store the API does not know agent tokens at all.
    await expect(authenticate(auth, bearer(full.refresh_token))).rejects.toMatchObject({ kind: 'unauthenticated' });
    const { agentTokens, ...withoutStore } = auth;
    void agentTokens;
    await expect(authenticate(withoutStore, bearer(full.access_token))).rejects.toMatchObject({ kind: 'unauthenticated' });
  });

  it('counts a bad token as an authentication failure of the address', async () => {
    const { auth } = await setup();
    for (let i = 0; i < 10; i += 1) await expect(authenticate(auth, { authorization: 'Bearer hma_forged', address: '7.7.7.7' })).rejects.toMatchObject({ kind: 'unauthenticated' });
    await expect(authenticate(auth, { authorization: 'Bearer hma_forged', address: '7.7.7.7' })).rejects.toMatchObject({ kind: 'too_many_requests', errorCode: 'auth_blocked' });
  });

  it('ends the grant when the API key it carries is revoked', async () => {
    const { oauth, auth, code, revokeKey } = await setup();
    const tokens = await exchangeAuthorizationCode(oauth, { clientId: 'hmcl_a', code: await code() });
    await revokeKey();
    await expect(authenticate(auth, bearer(tokens.access_token))).rejects.toMatchObject({ kind: 'unauthenticated' });
  });

  it('refuses the refresh grant once the API key is revoked, and revokes every refresh token of the grant', async () => {
    const { store, world, oauth, code, revokeKey } = await setup();
    const first = await exchangeAuthorizationCode(oauth, { clientId: 'hmcl_a', code: await code() });
    const second = await refreshAgentTokens(oauth, { clientId: 'hmcl_a', refreshToken: first.refresh_token });
    const pending = await code();
    await revokeKey();
    await expect(refreshAgentTokens(oauth, { clientId: 'hmcl_a', refreshToken: second.refresh_token }))
      .rejects.toMatchObject({ oauthError: 'invalid_grant', message: expect.stringContaining('revoked') });
    expect(await store.tokens.find(world.deps.hasher.hash(second.refresh_token))).toBeNull();
    // A code issued before the revocation gets no tokens either.
    await expect(exchangeAuthorizationCode(oauth, { clientId: 'hmcl_a', code: pending })).rejects.toMatchObject({ oauthError: 'invalid_grant' });
  });

  it('refuses the refresh grant for a deleted API key', async () => {
    const { oauth, code } = await setup();
    const tokens = await exchangeAuthorizationCode(oauth, { clientId: 'hmcl_a', code: await code() });
    const gone = { ...oauth, apiKeys: { findByHash: async () => null } };
    await expect(refreshAgentTokens(gone, { clientId: 'hmcl_a', refreshToken: tokens.refresh_token })).rejects.toMatchObject({ oauthError: 'invalid_grant' });
    await expect(refreshAgentTokens(oauth, { clientId: 'hmcl_a', refreshToken: tokens.refresh_token })).rejects.toMatchObject({ oauthError: 'invalid_grant' });
  });

  describe('audience binding (RFC 8707)', () => {
    it('issues every token for the MCP server\'s resource, also when the authorization request named none', async () => {
      const { store, world, oauth, code } = await setup();
      const tokens = await exchangeAuthorizationCode(oauth, { clientId: 'hmcl_a', code: await code() });
      expect(await store.tokens.find(world.deps.hasher.hash(tokens.access_token))).toMatchObject({ resource: RESOURCE });
      const refreshed = await refreshAgentTokens(oauth, { clientId: 'hmcl_a', refreshToken: tokens.refresh_token, resource: `${RESOURCE}/` });
      expect(await store.tokens.find(world.deps.hasher.hash(refreshed.access_token))).toMatchObject({ resource: RESOURCE });
    });

    it('refuses a token request naming another resource with invalid_target, and keeps the code usable', async () => {
      const { oauth, code } = await setup();
      for (const granted of [null, RESOURCE]) {
        const c = await code(undefined, undefined, granted);
        await expect(exchangeAuthorizationCode(oauth, { clientId: 'hmcl_a', code: c, resource: 'https://elsewhere.example/mcp' }))
          .rejects.toMatchObject({ oauthError: 'invalid_target' });
        await expect(exchangeAuthorizationCode(oauth, { clientId: 'hmcl_a', code: c, resource: RESOURCE })).resolves.toMatchObject({ token_type: 'Bearer' });
      }
      const tokens = await exchangeAuthorizationCode(oauth, { clientId: 'hmcl_a', code: await code() });
      await expect(refreshAgentTokens(oauth, { clientId: 'hmcl_a', refreshToken: tokens.refresh_token, resource: 'https://elsewhere.example/mcp' }))
        .rejects.toMatchObject({ oauthError: 'invalid_target' });
      // The refused refresh did not spend the token.
      await expect(refreshAgentTokens(oauth, { clientId: 'hmcl_a', refreshToken: tokens.refresh_token })).resolves.toMatchObject({ token_type: 'Bearer' });
    });

    it('refuses a token at a resource it was not issued for, and a token bound to none', async () => {
      const { store, world, oauth, auth, account, code } = await setup();
      const tokens = await exchangeAuthorizationCode(oauth, { clientId: 'hmcl_a', code: await code() });
      const elsewhere = { ...auth, agentTokens: { store, resource: agentResourceOf('https://other.example') } };
      await expect(authenticate(elsewhere, bearer(tokens.access_token))).rejects.toMatchObject({ kind: 'unauthenticated' });
      await expect(authenticate(auth, bearer(tokens.access_token))).resolves.toMatchObject({ kind: 'api_key', account: { id: account.id } });
      // Issued before tokens were bound (resource null): refused until refreshed.
      const legacy = await store.tokens.find(world.deps.hasher.hash(tokens.access_token));
      await store.tokens.delete(legacy!.tokenHash);
      await store.tokens.insert({ ...legacy!, resource: null });
      await expect(authenticate(auth, bearer(tokens.access_token))).rejects.toMatchObject({ kind: 'unauthenticated' });
    });
  });

  it('rotates refresh tokens; a spent one presented again revokes the whole grant', async () => {
    const { oauth, auth, account, code } = await setup();
    const first = await exchangeAuthorizationCode(oauth, { clientId: 'hmcl_a', code: await code() });
    await expect(refreshAgentTokens(oauth, { clientId: 'hmcl_b', refreshToken: first.refresh_token })).rejects.toMatchObject({ oauthError: 'invalid_grant' });
    const second = await refreshAgentTokens(oauth, { clientId: 'hmcl_a', refreshToken: first.refresh_token });
    expect(second.refresh_token).not.toBe(first.refresh_token);
    await expect(authenticate(auth, bearer(second.access_token))).resolves.toMatchObject({ kind: 'api_key', account: { id: account.id } });
    await expect(refreshAgentTokens(oauth, { clientId: 'hmcl_a', refreshToken: first.refresh_token })).rejects.toMatchObject({ oauthError: 'invalid_grant', message: expect.stringContaining('already used') });
    await expect(authenticate(auth, bearer(second.access_token))).rejects.toMatchObject({ kind: 'unauthenticated' });
    await expect(authenticate(auth, bearer(first.access_token))).rejects.toMatchObject({ kind: 'unauthenticated' });
    await expect(refreshAgentTokens(oauth, { clientId: 'hmcl_a', refreshToken: second.refresh_token })).rejects.toMatchObject({ oauthError: 'invalid_grant' });
  });

  it('narrows the scope on refresh but never widens it', async () => {
    const { oauth, code } = await setup();
    const full = await exchangeAuthorizationCode(oauth, { clientId: 'hmcl_a', code: await code() });
    expect(await refreshAgentTokens(oauth, { clientId: 'hmcl_a', refreshToken: full.refresh_token, scopes: ['herald:read'] })).toMatchObject({ scope: 'herald:read' });
    const read = await exchangeAuthorizationCode(oauth, { clientId: 'hmcl_a', code: await code(['herald:read']) });
    await expect(refreshAgentTokens(oauth, { clientId: 'hmcl_a', refreshToken: read.refresh_token, scopes: ['herald'] })).rejects.toMatchObject({ oauthError: 'invalid_scope' });
    expect(() => parseAgentScopes(['admin'])).toThrow(/Unknown scope "admin"/);
    expect(parseAgentScopes([])).toEqual(['herald']);
  });

  it('revokes an access token alone and a refresh token with its grant; another client\'s token is left alone', async () => {
    const { oauth, auth, account, code } = await setup();
    const tokens = await exchangeAuthorizationCode(oauth, { clientId: 'hmcl_a', code: await code() });
    await revokeAgentToken(oauth, { clientId: 'hmcl_b', token: tokens.access_token });
    await expect(authenticate(auth, bearer(tokens.access_token))).resolves.toMatchObject({ kind: 'api_key', account: { id: account.id } });
    await revokeAgentToken(oauth, { clientId: 'hmcl_a', token: tokens.access_token });
    await expect(authenticate(auth, bearer(tokens.access_token))).rejects.toMatchObject({ kind: 'unauthenticated' });
    const next = await refreshAgentTokens(oauth, { clientId: 'hmcl_a', refreshToken: tokens.refresh_token });
    await revokeAgentToken(oauth, { clientId: 'hmcl_a', token: next.refresh_token });
    await expect(authenticate(auth, bearer(next.access_token))).rejects.toMatchObject({ kind: 'unauthenticated' });
    await expect(revokeAgentToken(oauth, { clientId: 'hmcl_a', token: 'hma_unknown' })).resolves.toBeUndefined();
  });
});
