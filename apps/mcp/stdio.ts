#!/usr/bin/env node
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { loadConfig } from '../shared/config';
import { mcpServerOptions } from './catalogue-tools';
import { createHeraldMcpServer, generateTools } from './mcp-server';

/**
 * The stdio entry for desktop agents: `HERALD_API_KEY=hk_… node dist/apps/mcp/stdio.js` (or
 * `npx herald-mcp`), with HERALD_MCP_API_URL naming the API (default http://127.0.0.1:8787). The
 * same tools as the HTTP daemon, each a REST call with that key; files go by URL or base64 (upload
 * handles need the HTTP daemon). stdout is the protocol channel: diagnostics go to stderr.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const key = process.env.HERALD_API_KEY?.trim();
  if (!key) throw new Error('HERALD_API_KEY is not set: give the agent an API key of your operator account (bash ops/start.sh prints one).');
  const options = mcpServerOptions(config);
  const authorization = `Apikey ${key}`;
  // Checked once at start, so a wrong key or address is reported before the agent calls a tool.
  const me = await fetch(`${options.apiBaseUrl}/api/${config.namespace}/me`, { headers: { Authorization: authorization } })
    .catch((err: Error) => { throw new Error(`cannot reach the Herald API at ${options.apiBaseUrl}: ${err.message}`); });
  const body = await me.json().catch(() => ({})) as { account_id?: string; message?: string };
  if (!me.ok) throw new Error(`the Herald API refused the key (${me.status}): ${body.message ?? ''}`);
  const principal = { authorization, accountId: body.account_id ?? null };
  const server = createHeraldMcpServer({ ...options, uploads: null, principalOf: () => principal }, generateTools(options));
  await server.connect(new StdioServerTransport());
  process.stderr.write(`herald mcp (stdio) ready: ${options.apiBaseUrl}\n`);
}

main().catch((err) => {
  process.stderr.write(`herald mcp failed to start: ${(err as Error).message}\n`);
  process.exit(1);
});
