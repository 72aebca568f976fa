import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { freePort } from '../support/stack';
import { useHerald } from '../support/e2e';

jest.setTimeout(300_000);

const SHOTS = process.env.HERALD_SCREENSHOT_DIR ?? '/tmp/herald-shots';
const CHROMIUM = process.env.HERALD_CHROMIUM_PATH ?? '/usr/bin/chromium';
const WAIT_MS = 60_000;

/**
 * OAuth 2.1 for agents end to end, as an MCP client does it: discovery (RFC 9728, RFC 8414),
 * dynamic registration (RFC 7591), PKCE S256 authorization through the consent page in Chromium
 * (the operator signs in with an API key and allows), the token exchange (a wrong verifier and a
 * reused code refused), tool calls with the access token (and the API accepting it as that key),
 * refresh with rotation (a reused refresh token revokes the grant), the read-only scope, denial
 * and revocation (RFC 7009).
 */
describe('MCP OAuth 2.1 with PKCE through the consent page', () => {
  const herald = useHerald({ env: { HERALD_AUTH_CACHE_MS: '0' }, worker: false, mcp: true, account: { email: 'oauth@herald.dev' }, profiles: ['olga'] });
  const { stack } = herald;
  let browser: Browser;
  let callbacks: Server;
  let redirectUri: string;
  let clientId: string;
  let meta: Record<string, any>;

  const pkce = () => {
    const verifier = randomBytes(32).toString('base64url');
    return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
  };
  const form = async (url: string, fields: Record<string, string>) => {
    const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields) });
    return { status: res.status, body: await res.json().catch(() => ({})) as Record<string, any> };
  };
  const token = (fields: Record<string, string>) => form(meta.token_endpoint, { client_id: clientId, ...fields });
  const authorizeUrl = (challenge: string, state: string, scope = 'herald') => {
    const url = new URL(meta.authorization_endpoint);
    url.search = new URLSearchParams({
      response_type: 'code', client_id: clientId, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: 'S256',
      state, scope, resource: `${stack.mcpUrl}/mcp`,
    }).toString();
    return url.href;
  };
  /** Runs the consent page in Chromium and answers where it sent the browser back to. */
  const consent = async (url: string, opts: { wrongKeyFirst?: boolean; decision?: 'allow' | 'deny'; shot?: string } = {}): Promise<URL> => {
    const context = await browser.newContext({ locale: 'en-US' });
    context.setDefaultTimeout(WAIT_MS);
    const page = await context.newPage();
    try {
      await page.goto(url);
      await page.getByRole('heading', { name: 'Allow E2E Agent to use Herald?' }).waitFor();
      if (opts.shot) await page.screenshot({ path: path.join(SHOTS, `${opts.shot}.png`), fullPage: true });
      if (opts.wrongKeyFirst) {
        await page.fill('#api_key', 'hk_not_a_key');
        await Promise.all([page.waitForResponse((r) => r.url().endsWith('/oauth/consent')), page.click('button[value=allow]')]);
        await page.locator('[data-notice=error]', { hasText: 'That API key is not valid' }).waitFor();
      }
      if (opts.decision !== 'deny') await page.fill('#api_key', herald.key);
      await Promise.all([page.waitForURL((u) => u.href.startsWith(redirectUri)), page.click(`button[value=${opts.decision ?? 'allow'}]`)]);
      return new URL(page.url());
    } finally {
      await context.close();
    }
  };
  const connectMcp = async (accessToken: string): Promise<Client> => {
    const c = new Client({ name: 'oauth-e2e', version: '1.0.0' });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${stack.mcpUrl}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${accessToken}` } } }));
    return c;
  };
  const mcpStatus = async (accessToken: string) => (await fetch(`${stack.mcpUrl}/mcp`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${accessToken}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } }),
  })).status;
  /** A full authorization: consent in the browser, then the code exchanged. */
  const authorize = async (scope: string, opts: { wrongKeyFirst?: boolean; shot?: string } = {}) => {
    const { verifier, challenge } = pkce();
    const state = randomBytes(8).toString('hex');
    const back = await consent(authorizeUrl(challenge, state, scope), opts);
    expect(back.searchParams.get('state')).toBe(state);
    const code = back.searchParams.get('code')!;
    expect(code).toMatch(/^hmc_/);
    return { code, verifier };
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    const callbackPort = await freePort();
    redirectUri = `http://127.0.0.1:${callbackPort}/callback`;
    callbacks = createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Back in the agent</h1>'));
    await new Promise<void>((resolve) => callbacks.listen(callbackPort, '127.0.0.1', resolve));
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => callbacks?.close(resolve));
  });

  it('publishes protected-resource and authorization-server metadata, and registers a client dynamically', async () => {
    const prm = await (await fetch(`${stack.mcpUrl}/.well-known/oauth-protected-resource/mcp`)).json() as Record<string, any>;
    expect(prm).toMatchObject({ resource: `${stack.mcpUrl}/mcp`, scopes_supported: ['herald', 'herald:read'] });
    expect(await (await fetch(`${stack.mcpUrl}/.well-known/oauth-protected-resource`)).json()).toMatchObject({ resource: `${stack.mcpUrl}/mcp` });
    meta = await (await fetch(new URL('/.well-known/oauth-authorization-server', prm.authorization_servers[0]))).json() as Record<string, any>;
    expect(meta).toMatchObject({
      issuer: `${stack.mcpUrl}/`, code_challenge_methods_supported: ['S256'], response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      authorization_endpoint: `${stack.mcpUrl}/authorize`, token_endpoint: `${stack.mcpUrl}/token`,
      registration_endpoint: `${stack.mcpUrl}/register`, revocation_endpoint: `${stack.mcpUrl}/revoke`,
    });
    const refused = await fetch(meta.registration_endpoint, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ redirect_uris: ['javascript:alert(1)'] }) });
    expect(refused.status).toBe(400);
    const registered = await fetch(meta.registration_endpoint, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_name: 'E2E Agent', redirect_uris: [redirectUri], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }),
    });
    expect(registered.status).toBe(201);
    const client = await registered.json() as Record<string, any>;
    expect(client).toMatchObject({ client_id: expect.stringMatching(/^hmcl_/), client_name: 'E2E Agent', redirect_uris: [redirectUri] });
    expect(client.client_secret).toBeUndefined();
    clientId = client.client_id;
  });

  it('refuses the plain PKCE method and a resource other than this server', async () => {
    const url = new URL(authorizeUrl('x'.repeat(43), 's1'));
    url.searchParams.set('code_challenge_method', 'plain');
    const plain = await fetch(url, { redirect: 'manual' });
    expect(plain.status).toBe(302);
    expect(new URL(plain.headers.get('location')!).searchParams.get('error')).toBe('invalid_request');
    url.searchParams.set('code_challenge_method', 'S256');
    url.searchParams.set('resource', 'https://elsewhere.example/mcp');
    expect((await fetch(url, { redirect: 'manual' })).status).toBe(400);
  });

  it('authorizes through the consent page, exchanges the code with PKCE, calls tools with the token, refreshes with rotation', async () => {
    const { code, verifier } = await authorize('herald', { wrongKeyFirst: true, shot: 'mcp-consent' });
    const wrong = await token({ grant_type: 'authorization_code', code, code_verifier: pkce().verifier, redirect_uri: redirectUri });
    expect(wrong).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    const first = await token({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri });
    expect(first).toMatchObject({ status: 200, body: { token_type: 'Bearer', scope: 'herald', expires_in: 3600, access_token: expect.stringMatching(/^hma_/), refresh_token: expect.stringMatching(/^hmr_/) } });
    expect(await token({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });

    // The token acts as the operator's key: through MCP, and at the API itself.
    const agent = await connectMcp(first.body.access_token);
    const created = (await agent.callTool({ name: 'create_profile', arguments: { username: 'made-by-agent' } })) as CallToolResult;
    expect(created.structuredContent).toMatchObject({ success: true, profile: { username: 'made-by-agent' } });
    const listed = (await agent.callTool({ name: 'list_profiles', arguments: {} })) as CallToolResult;
    expect((listed.structuredContent!.profiles as Array<{ username: string }>).map((p) => p.username).sort()).toEqual(['made-by-agent', 'olga']);
    await agent.close();
    const me = await fetch(`${stack.apiUrl}/api/herald/me`, { headers: { Authorization: `Bearer ${first.body.access_token}` } });
    expect(me.status).toBe(200);
    expect(await me.json()).toMatchObject({ email: 'oauth@herald.dev' });

    // Rotation: the new pair works; the spent refresh token presented again revokes the grant.
    const second = await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token });
    expect(second).toMatchObject({ status: 200, body: { access_token: expect.stringMatching(/^hma_/), refresh_token: expect.stringMatching(/^hmr_/) } });
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    expect(await mcpStatus(second.body.access_token)).toBe(200);
    expect(await token({ grant_type: 'refresh_token', refresh_token: first.body.refresh_token })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    expect(await mcpStatus(second.body.access_token)).toBe(401);
    expect(await token({ grant_type: 'refresh_token', refresh_token: second.body.refresh_token })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });

  it('grants the read-only scope: reads work, writes are refused with 403 insufficient_scope', async () => {
    const { code, verifier } = await authorize('herald:read');
    const tokens = await token({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri });
    expect(tokens).toMatchObject({ status: 200, body: { scope: 'herald:read' } });
    const agent = await connectMcp(tokens.body.access_token);
    try {
      expect(((await agent.callTool({ name: 'list_profiles', arguments: {} })) as CallToolResult).isError).toBeFalsy();
      const write = (await agent.callTool({ name: 'create_profile', arguments: { username: 'nope' } })) as CallToolResult;
      expect(write).toMatchObject({ isError: true, structuredContent: { status: 403, error_code: 'insufficient_scope' } });
    } finally {
      await agent.close();
    }
    // A refresh cannot widen the scope.
    expect(await token({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token, scope: 'herald' })).toMatchObject({ status: 400, body: { error: 'invalid_scope' } });
  });

  it('revokes an access token alone, and a refresh token with its whole grant (RFC 7009)', async () => {
    const { code, verifier } = await authorize('herald');
    const first = (await token({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri })).body;
    expect(await mcpStatus(first.access_token)).toBe(200);
    expect((await form(meta.revocation_endpoint, { client_id: clientId, token: first.access_token })).status).toBe(200);
    expect(await mcpStatus(first.access_token)).toBe(401);
    expect((await fetch(`${stack.apiUrl}/api/herald/me`, { headers: { Authorization: `Bearer ${first.access_token}` } })).status).toBe(401);
    const second = await token({ grant_type: 'refresh_token', refresh_token: first.refresh_token });
    expect(second.status).toBe(200);
    expect((await form(meta.revocation_endpoint, { client_id: clientId, token: second.body.refresh_token })).status).toBe(200);
    expect(await mcpStatus(second.body.access_token)).toBe(401);
    expect(await token({ grant_type: 'refresh_token', refresh_token: second.body.refresh_token })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
    // An unknown token is not an error (nothing is revealed).
    expect((await form(meta.revocation_endpoint, { client_id: clientId, token: 'hma_unknown' })).status).toBe(200);
  });

  it('sends the browser back with access_denied when the operator denies', async () => {
    const { challenge } = pkce();
    const back = await consent(authorizeUrl(challenge, 'deny-state'), { decision: 'deny' });
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('state')).toBe('deny-state');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('issues tokens for this server only: a token request naming another resource gets invalid_target', async () => {
    const { code, verifier } = await authorize('herald');
    const exchange = { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri };
    expect(await token({ ...exchange, resource: 'https://elsewhere.example/mcp' })).toMatchObject({ status: 400, body: { error: 'invalid_target' } });
    const tokens = await token({ ...exchange, resource: `${stack.mcpUrl}/mcp` });
    expect(tokens.status).toBe(200);
    expect(await mcpStatus(tokens.body.access_token)).toBe(200);
    expect(await token({ grant_type: 'refresh_token', refresh_token: tokens.body.refresh_token, resource: 'https://elsewhere.example/mcp' }))
      .toMatchObject({ status: 400, body: { error: 'invalid_target' } });
  });

  it('ends every grant made with an API key when that key is revoked: no refresh either', async () => {
    const { code, verifier } = await authorize('herald');
    const tokens = (await token({ grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: redirectUri })).body;
    expect(await mcpStatus(tokens.access_token)).toBe(200);
    const keys = await stack.cli('key', 'list', '--email', 'oauth@herald.dev');
    // The account's one key, the one the grant was made with: id, prefix, name, created, state.
    const listed = keys.stdout.trim().split('\n').map((line) => line.split('\t'));
    expect(listed).toEqual([[expect.stringMatching(/^key_[A-Za-z0-9_-]+$/), `${herald.key.slice(0, 10)}…`, 'e2e', expect.any(String), 'active']]);
    const keyId = listed[0]![0]!;
    expect((await stack.cli('key', 'revoke', '--email', 'oauth@herald.dev', '--id', keyId)).code).toBe(0);
    expect(await mcpStatus(tokens.access_token)).toBe(401);
    expect(await token({ grant_type: 'refresh_token', refresh_token: tokens.refresh_token })).toMatchObject({ status: 400, body: { error: 'invalid_grant' } });
  });
});
