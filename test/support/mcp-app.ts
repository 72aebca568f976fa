import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createMemoryAgentOAuthStore } from '../../adapters/memory/agent-oauth';
import { agentResourceOf, DEFAULT_AGENT_OAUTH_TTLS } from '../../core/domain/agent-oauth';
import { OPERATIONS, documentPath } from '../../apps/api/catalogue';
import { createMcpApp } from '../../apps/mcp/app';
import { generateTools } from '../../apps/mcp/mcp-server';
import { createUploadHandles } from '../../apps/mcp/uploads';
import { aWorld } from './world';

const REDIRECT_URI = 'http://127.0.0.1:9/callback';

/**
 * The MCP daemon's HTTP side in-process (apps/mcp/app.ts over the in-memory world and agent OAuth
 * store): the authorization server, the consent page and /mcp. Tool calls would go to an API that
 * is not there; these tests stop at authentication.
 */
export async function anMcpServer() {
  const world = aWorld();
  const { account, secret } = await world.operator('business');
  const store = createMemoryAgentOAuthStore();
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const resource = agentResourceOf(base);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-mcp-'));
  const oauth = { store, hasher: world.deps.hasher, ids: world.deps.ids, clock: world.deps.clock, ttls: DEFAULT_AGENT_OAUTH_TTLS, resource, apiKeys: world.deps.storage.apiKeys };
  const serverOptions = {
    version: '1.0.0', operations: OPERATIONS, namespace: 'herald', pathOf: (op: (typeof OPERATIONS)[number]) => documentPath(op, 'herald'),
    apiBaseUrl: 'http://127.0.0.1:9', base64MaxBytes: 1024 * 1024,
  };
  const { app } = createMcpApp({
    server: serverOptions, tools: generateTools(serverOptions), oauth, secrets: world.deps.secrets,
    auth: { ...world.deps, agentTokens: { store, resource } },
    uploads: createUploadHandles({ dir, ttlMs: 3600_000, maxBytes: 1024 * 1024, publicBaseUrl: base }),
    log: () => undefined,
  }, { publicBaseUrl: base, allowedHosts: ['127.0.0.1', 'localhost'], trustProxy: 0, jsonLimitBytes: 4 * 1024 * 1024, consentKey: 'k', oauthRateLimit: false });
  server.on('request', app);

  const form = async (url: string, fields: Record<string, string>) => {
    const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields), redirect: 'manual' });
    return { status: res.status, headers: res.headers, body: await res.json().catch(() => ({})) as Record<string, any> };
  };

  /** A client registered dynamically, then authorized through the consent page with the operator's key: a code and its verifier. */
  async function authorize(opts: { resource?: string } = {}): Promise<{ clientId: string; code: string; verifier: string }> {
    const registered = await (await fetch(`${base}/register`, {
      method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ client_name: 'Unit Agent', redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] }),
    })).json() as { client_id: string };
    const verifier = randomBytes(32).toString('base64url');
    const url = new URL(`${base}/authorize`);
    url.search = new URLSearchParams({
      response_type: 'code', client_id: registered.client_id, redirect_uri: REDIRECT_URI, code_challenge_method: 'S256',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'), scope: 'herald', ...(opts.resource ? { resource: opts.resource } : {}),
    }).toString();
    const page = await (await fetch(url)).text();
    const request = /name="request" value="([^"]+)"/.exec(page)?.[1];
    if (!request) throw new Error(`no consent form in ${page.slice(0, 200)}`);
    const consented = await fetch(`${base}/oauth/consent`, {
      method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, redirect: 'manual',
      body: new URLSearchParams({ request: request.replace(/&amp;/g, '&'), api_key: secret, decision: 'allow' }),
    });
    const code = new URL(consented.headers.get('location') ?? 'http://x/').searchParams.get('code');
    if (!code) throw new Error(`consent answered ${consented.status} without a code`);
    return { clientId: registered.client_id, code, verifier };
  }

  return {
    world, account, secret, store, base, resource, form, authorize,
    token: (clientId: string, fields: Record<string, string>) => form(`${base}/token`, { client_id: clientId, ...fields }),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
