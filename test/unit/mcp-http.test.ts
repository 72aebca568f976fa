import { listApiKeys, revokeApiKey } from '../../core/usecases/operator-accounts';
import { anMcpServer } from '../support/mcp-app';

const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };

/** The MCP daemon's OAuth over HTTP in-process: tokens bound to the MCP server (RFC 8707), grants ending with their API key. */
describe('MCP authorization over HTTP', () => {
  let mcp: Awaited<ReturnType<typeof anMcpServer>>;
  beforeAll(async () => { mcp = await anMcpServer(); });
  afterAll(async () => mcp?.close());

  const callMcp = (accessToken: string) => fetch(`${mcp.base}/mcp`, {
    method: 'POST', body: JSON.stringify(initialize),
    headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
  });

  it('refuses a token request naming another resource with invalid_target when the authorization request named none', async () => {
    const { clientId, code, verifier } = await mcp.authorize();
    const elsewhere = await mcp.token(clientId, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: 'http://127.0.0.1:9/callback', resource: 'https://elsewhere.example/mcp' });
    expect(elsewhere).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
    // Naming the MCP server itself, or nothing, gets tokens for it.
    const tokens = await mcp.token(clientId, { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: 'http://127.0.0.1:9/callback', resource: mcp.resource });
    expect(tokens).toMatchObject({ status: 200, body: { token_type: 'Bearer', access_token: expect.stringMatching(/^hma_/) } });
    expect((await callMcp(tokens.body.access_token)).status).toBe(200);
    const refreshElsewhere = await mcp.token(clientId, { grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token, resource: 'https://elsewhere.example/mcp' });
    expect(refreshElsewhere).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
  });

  it('refuses a token issued for another resource with 401 invalid_token and the resource metadata', async () => {
    const { clientId, code, verifier } = await mcp.authorize();
    const tokens = await mcp.token(clientId, { grant_type: 'authorization_code', code, code_verifier: verifier });
    expect(tokens.status).toBe(200);
    const stored = await mcp.store.tokens.find(mcp.world.deps.hasher.hash(tokens.body.access_token));
    await mcp.store.tokens.delete(stored!.tokenHash);
    await mcp.store.tokens.insert({ ...stored!, resource: 'https://elsewhere.example/mcp' });
    const refused = await callMcp(tokens.body.access_token);
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(new RegExp(
      `^Bearer error="invalid_token", error_description="[^"]+", resource_metadata="${mcp.base}/.well-known/oauth-protected-resource/mcp"$`));
    expect(await refused.json()).toMatchObject({ success: false, error: 'invalid_token', error_code: 'unauthenticated' });
  });

  it('refuses the refresh grant with invalid_grant once the API key is revoked, and revokes the grant\'s refresh tokens', async () => {
    const { clientId, code, verifier } = await mcp.authorize();
    const first = await mcp.token(clientId, { grant_type: 'authorization_code', code, code_verifier: verifier });
    const second = await mcp.token(clientId, { grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
    expect(second.status).toBe(200);
    const [key] = await listApiKeys(mcp.world.deps, { email: mcp.account.email });
    await revokeApiKey(mcp.world.deps, { email: mcp.account.email, keyId: key!.id });
    expect(await mcp.token(clientId, { grant_type: 'refresh_token', refresh_token: second.body.refresh_token }))
      .toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await mcp.store.tokens.find(mcp.world.deps.hasher.hash(second.body.refresh_token))).toBeNull();
    expect((await callMcp(second.body.access_token)).status).toBe(401);
  });
});
