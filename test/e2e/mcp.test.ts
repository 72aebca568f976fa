import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createServer, request, type Server } from 'node:http';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { LoggingMessageNotificationSchema, type CallToolResult, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { eventually, freePort } from '../support/stack';
import { media, useHerald } from '../support/e2e';

jest.setTimeout(300_000);

/**
 * The MCP daemon end to end with the SDK's own client over Streamable HTTP: tools generated from
 * the catalogue, each call a REST call with the caller's API key against the real API, worker,
 * Temporal and the sandbox simulators. Text and a video URL are published through tools, the
 * status is polled through a tool, the posts are read back at the simulators; REST errors come
 * back as tool errors with the REST error code; tenants stay apart.
 */
describe('MCP server (Streamable HTTP)', () => {
  let client: Client;
  let tools: Tool[];
  let files: Server;
  let filesBase: string;
  const clip = media.clip({ seconds: 3, audio: false });

  const connect = async (authorization: string): Promise<Client> => {
    const c = new Client({ name: 'herald-e2e', version: '1.0.0' });
    await c.connect(new StreamableHTTPClientTransport(new URL(`${stack.mcpUrl}/mcp`), { requestInit: { headers: { Authorization: authorization } } }));
    return c;
  };
  /** The tool wrapping one REST operation (its description names the method and path). */
  const toolFor = (method: string, restPath: string): Tool => {
    const found = tools.find((t) => t.description?.includes(`REST: ${method} ${restPath}.`));
    if (!found) throw new Error(`no tool for ${method} ${restPath} among ${tools.map((t) => t.name).join(', ')}`);
    return found;
  };
  const call = async (c: Client, tool: Tool, args: Record<string, unknown>) => (await c.callTool({ name: tool.name, arguments: args })) as CallToolResult;
  const ok = (result: CallToolResult) => {
    if (result.isError) throw new Error(`tool failed: ${JSON.stringify(result.content)}`);
    return result.structuredContent as Record<string, any>;
  };

  beforeAll(async () => {
    const bytes = readFileSync(clip);
    files = createServer((req, res) => {
      if (req.url !== '/media/clip.mp4') return void res.writeHead(404, { 'content-type': 'text/plain' }).end('no such file');
      res.writeHead(200, { 'content-type': 'video/mp4', 'content-length': String(bytes.length) }).end(bytes);
    });
    const filesPort = await freePort();
    await new Promise<void>((resolve) => files.listen(filesPort, '127.0.0.1', resolve));
    filesBase = `http://127.0.0.1:${filesPort}`;
  });
  const herald = useHerald({
    sandbox: true,
    env: ({ sandbox }) => ({ HERALD_MEDIA_FETCH_ALLOW: [sandbox!.env.HERALD_MEDIA_FETCH_ALLOW, new URL(filesBase).host].filter(Boolean).join(','), HERALD_AUTH_CACHE_MS: '0' }),
    mcp: true,
    account: { email: 'mcp@herald.dev' },
  });
  const { stack, sandbox } = herald;
  beforeAll(async () => {
    client = await connect(`Apikey ${herald.key}`);
    tools = (await client.listTools()).tools;
  });

  afterAll(async () => {
    await client?.close();
    await new Promise((resolve) => files?.close(resolve));
  });

  it('lists a tool for every catalogue operation an API key can call, with agent descriptions and JSON Schemas', async () => {
    const names = tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['create_profile', 'list_profiles', 'get_profile', 'delete_profile', 'connect_with_credentials', 'create_media_upload']));
    expect(new Set(names).size).toBe(names.length);
    const create = tools.find((t) => t.name === 'create_profile')!;
    expect(create.description).toContain('PROFILE_LIMIT_REACHED');
    expect(create.description).toContain('REST: POST /api/herald/users.');
    expect(create.inputSchema).toMatchObject({ type: 'object', properties: { username: { type: 'string' } }, required: ['username'] });
    expect(create.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
    expect(tools.find((t) => t.name === 'delete_profile')!.annotations).toMatchObject({ destructiveHint: true });
    expect(tools.find((t) => t.name === 'list_profiles')!.annotations).toMatchObject({ readOnlyHint: true });
    for (const t of tools) for (const prop of Object.keys(t.inputSchema.properties ?? {})) expect(prop).toMatch(/^[a-zA-Z0-9_.-]{1,64}$/);
  });

  it('creates a profile and connects discord, telegram and bluesky through tools', async () => {
    expect(ok(await call(client, toolFor('POST', '/api/herald/users'), { username: 'mia' }))).toMatchObject({ success: true, profile: { username: 'mia' } });
    const connectTool = toolFor('POST', '/api/herald/users/{platform}/credentials');
    const creds: Record<string, Record<string, unknown>> = {
      discord: { webhook_url: sandbox.env.SANDBOX_DISCORD_WEBHOOK_URL },
      telegram: { bot_token: sandbox.env.SANDBOX_TELEGRAM_BOT_TOKEN, chat_id: sandbox.env.SANDBOX_TELEGRAM_CHAT_ID },
      bluesky: { identifier: sandbox.env.SANDBOX_BLUESKY_IDENTIFIER, app_password: sandbox.env.SANDBOX_BLUESKY_APP_PASSWORD },
    };
    for (const [platform, fields] of Object.entries(creds)) {
      expect([platform, ok(await call(client, connectTool, { platform, profile_username: 'mia', ...fields })).success]).toEqual([platform, true]);
    }
    const profile = ok(await call(client, toolFor('GET', '/api/herald/users/{username}'), { username: 'mia' }));
    expect(Object.keys(profile.profile.social_accounts).sort()).toEqual(['bluesky', 'discord', 'telegram']);
  });

  it('reports each tool call\'s REST call as a log message in its response', async () => {
    const messages: unknown[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => { messages.push(n.params); });
    await call(client, toolFor('GET', '/api/herald/users/{username}'), { username: 'ghost' });
    expect(messages).toContainEqual({ level: 'warning', logger: 'herald', data: expect.objectContaining({ tool: 'get_profile', rest: 'GET /api/herald/users/{username}', status: 404, error_code: 'PROFILE_NOT_FOUND' }) });
  });

  it('answers REST errors as tool errors carrying the status and error_code', async () => {
    const missing = await call(client, toolFor('GET', '/api/herald/users/{username}'), { username: 'nobody' });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toMatchObject({ status: 404, success: false, error_code: 'PROFILE_NOT_FOUND' });
    expect((missing.content[0] as { text: string }).text).toMatch(/^HTTP 404 PROFILE_NOT_FOUND: /);
    const twice = await call(client, toolFor('POST', '/api/herald/users'), { username: 'mia' });
    expect(twice).toMatchObject({ isError: true, structuredContent: { status: 409 } });
    const reddit = await call(client, toolFor('POST', '/api/herald/users/{platform}/credentials'), { platform: 'reddit', profile_username: 'mia' });
    expect(reddit).toMatchObject({ isError: true, structuredContent: { status: 503, error_code: 'reddit_unavailable' } });
    const bad = await call(client, toolFor('POST', '/api/herald/users'), {});
    expect(bad).toMatchObject({ isError: true, structuredContent: { status: 400, success: false } });
  });

  it('publishes text to discord and telegram through a tool, polls the status tool until completed, and the posts are at the simulators', async () => {
    const published = ok(await call(client, toolFor('POST', '/api/upload_text'), {
      user: 'mia', platform: ['discord', 'telegram'], title: 'Hello from an agent', async_upload: true,
    }));
    expect(published).toMatchObject({ success: true, request_id: expect.any(String) });
    const statusTool = toolFor('GET', '/api/herald/status');
    const done = await eventually(async () => ok(await call(client, statusTool, { request_id: published.request_id })), (s) => s.status === 'completed', 120_000, 1000);
    expect(done).toMatchObject({ all_succeeded: true, results: { discord: { success: true }, telegram: { success: true } } });
    expect(sandbox.simulators.discord.messages().map((m) => m.content)).toContain('Hello from an agent');
    expect(sandbox.simulators.telegram.messages().map((m) => m.text)).toContain('Hello from an agent');
  });

  it('publishes a video by URL to bluesky through a tool and the simulator received the very bytes', async () => {
    const before = sandbox.simulators.bluesky.videoJobs().length;
    const published = ok(await call(client, toolFor('POST', '/api/upload'), {
      user: 'mia', platform: ['bluesky'], title: 'A clip from an agent', video: `${filesBase}/media/clip.mp4`, async_upload: true,
    }));
    const statusTool = toolFor('GET', '/api/herald/status');
    const done = await eventually(async () => ok(await call(client, statusTool, { request_id: published.request_id })), (s) => s.status === 'completed', 180_000, 1000);
    expect(done.results.bluesky).toMatchObject({ success: true, post_id: expect.any(String) });
    expect(sandbox.simulators.bluesky.videoJobs().length).toBe(before + 1);
    expect(sandbox.simulators.bluesky.videoJobs().at(-1)!.size).toBe(readFileSync(clip).length);
    expect(sandbox.simulators.bluesky.posts().some((p) => JSON.stringify(p).includes('A clip from an agent'))).toBe(true);
  });

  it('publishes a small video passed as base64 and a large one through an upload handle', async () => {
    const upload = toolFor('POST', '/api/upload');
    const statusTool = toolFor('GET', '/api/herald/status');
    const inline = ok(await call(client, upload, {
      user: 'mia', platform: ['bluesky'], title: 'Inline bytes', async_upload: true,
      video: { data: readFileSync(clip).toString('base64'), filename: 'clip.mp4', content_type: 'video/mp4' },
    }));
    const handle = ok(await call(client, tools.find((t) => t.name === 'create_media_upload')!, { filename: 'clip.mp4', content_type: 'video/mp4' }));
    expect(handle).toMatchObject({ upload_id: expect.stringMatching(/^up_/), upload_url: expect.stringContaining(`${stack.mcpUrl}/uploads/`) });
    const put = await fetch(handle.upload_url, { method: 'PUT', body: readFileSync(clip) });
    expect(put.status).toBe(201);
    expect((await fetch(handle.upload_url, { method: 'PUT', body: 'again' })).status).toBe(409);
    const byHandle = ok(await call(client, upload, { user: 'mia', platform: ['bluesky'], title: 'Handle bytes', async_upload: true, video: { upload_id: handle.upload_id } }));
    for (const requestId of [inline.request_id, byHandle.request_id]) {
      const done = await eventually(async () => ok(await call(client, statusTool, { request_id: requestId })), (s) => s.status === 'completed', 180_000, 1000);
      expect(done.results.bluesky).toMatchObject({ success: true });
    }
    const bad = await call(client, upload, { user: 'mia', platform: ['bluesky'], title: 'x', video: { data: '!!not base64!!' } });
    expect(bad).toMatchObject({ isError: true, structuredContent: { status: 400, error_code: 'invalid_request' } });
  });

  it('serves profiles and recent uploads as resources', async () => {
    const listed = await client.listResources();
    expect(listed.resources.map((r) => r.uri)).toEqual(expect.arrayContaining(['herald://profiles', 'herald://uploads/recent', 'herald://profiles/mia']));
    const profiles = await client.readResource({ uri: 'herald://profiles' });
    expect(JSON.parse((profiles.contents[0] as { text: string }).text).profiles.map((p: { username: string }) => p.username)).toEqual(['mia']);
    const recent = await client.readResource({ uri: 'herald://uploads/recent' });
    expect(JSON.parse((recent.contents[0] as { text: string }).text).history.length).toBeGreaterThanOrEqual(2);
    const templates = await client.listResourceTemplates();
    expect(templates.resourceTemplates.map((t) => t.uriTemplate)).toEqual(expect.arrayContaining(['herald://profiles/{username}', 'herald://uploads/{request_id}']));
    await expect(client.readResource({ uri: 'herald://profiles/nobody' })).rejects.toThrow(/PROFILE_NOT_FOUND/);
  });

  it('keeps tenants apart: another account sees none of these profiles and cannot use this account\'s upload handle', async () => {
    const otherKey = await stack.newApiKey('other@herald.dev');
    const other = await connect(`Bearer ${otherKey}`);
    try {
      const get = toolFor('GET', '/api/herald/users/{username}');
      expect(await call(other, get, { username: 'mia' })).toMatchObject({ isError: true, structuredContent: { status: 404, error_code: 'PROFILE_NOT_FOUND' } });
      const mine = ok(await call(client, tools.find((t) => t.name === 'create_media_upload')!, { filename: 'a.mp4' }));
      await fetch(mine.upload_url, { method: 'PUT', body: readFileSync(clip) });
      const stolen = await call(other, toolFor('POST', '/api/upload'), { user: 'mia', platform: ['bluesky'], title: 'x', video: { upload_id: mine.upload_id } });
      expect(stolen).toMatchObject({ isError: true, structuredContent: { status: 400, error_code: 'invalid_request' } });
      // Stateless: no session is handed out, so there is none to borrow; every request carries its credential.
      expect((client.transport as StreamableHTTPClientTransport).sessionId).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it('refuses a missing or wrong credential with 401 and points to the protected-resource metadata', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' };
    const none = await fetch(`${stack.mcpUrl}/mcp`, { method: 'POST', headers, body: JSON.stringify(init) });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe(`Bearer resource_metadata="${stack.mcpUrl}/.well-known/oauth-protected-resource/mcp"`);
    const wrong = await fetch(`${stack.mcpUrl}/mcp`, { method: 'POST', headers: { ...headers, Authorization: 'Apikey hk_wrong' }, body: JSON.stringify(init) });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect(await wrong.json()).toMatchObject({ success: false, error_code: 'unauthenticated', message: 'Invalid API key.' });
    const prm = await (await fetch(`${stack.mcpUrl}/.well-known/oauth-protected-resource/mcp`)).json();
    expect(prm).toMatchObject({ resource: `${stack.mcpUrl}/mcp`, authorization_servers: [`${stack.mcpUrl}/`] });
    // DNS rebinding: a foreign Host is refused before anything else.
    // (fetch cannot set Host: a plain request can.)
    const status = (host: string) => new Promise<number>((resolve, reject) => {
      const req = request(`${stack.mcpUrl}/healthz`, { headers: { Host: host } }, (res) => { res.resume(); resolve(res.statusCode ?? 0); });
      req.on('error', reject).end();
    });
    expect(await status('evil.example.com')).toBe(403);
    expect(await status(new URL(stack.mcpUrl).host)).toBe(200);
  });

  it('is stateless: a bare tools/call POST is answered (curl works), GET and DELETE are 405', async () => {
    const res = await fetch(`${stack.mcpUrl}/mcp`, {
      method: 'POST',
      headers: { Authorization: `Apikey ${herald.key}`, 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'list_profiles', arguments: {} } }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('mcp-session-id')).toBeNull();
    const text = await res.text();
    const data = text.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)));
    expect(data.find((m) => m.id === 7)).toMatchObject({ result: { structuredContent: { success: true, profiles: [expect.objectContaining({ username: 'mia' })] } } });
    for (const method of ['GET', 'DELETE']) {
      expect((await fetch(`${stack.mcpUrl}/mcp`, { method, headers: { Authorization: `Apikey ${herald.key}` } })).status).toBe(405);
    }
  });

  it('runs over stdio with an API key, as a desktop agent starts it', async () => {
    const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
    const stdio = new Client({ name: 'herald-e2e-stdio', version: '1.0.0' });
    await stdio.connect(new StdioClientTransport({
      command: process.execPath,
      args: [path.join(__dirname, '../../dist/apps/mcp/stdio.js')],
      env: { ...process.env as Record<string, string>, ...stack.env, HERALD_API_KEY: herald.key },
      stderr: 'pipe',
    }));
    try {
      const names = (await stdio.listTools()).tools.map((t) => t.name);
      expect(names).toContain('list_profiles');
      expect(names).not.toContain('create_media_upload');
      const listed = (await stdio.callTool({ name: 'list_profiles', arguments: {} })) as CallToolResult;
      expect(listed.structuredContent).toMatchObject({ success: true, profiles: [expect.objectContaining({ username: 'mia' })] });
    } finally {
      await stdio.close();
    }
    // And stays in the project's own API client's view of the world.
    expect((await herald.api.get('/api/herald/users')).body.profiles).toHaveLength(1);
  });
});
