import { createServer, type IncomingMessage, type Server } from 'node:http';
import { OPERATIONS, documentPath } from '../../apps/api/catalogue';
import { callOperation } from '../../apps/mcp/rest-call';
import { generateTools } from '../../apps/mcp/mcp-server';
import { isToolOperation, toolNameOf } from '../../apps/mcp/tools';

/** Tools generated from the catalogue, and a tool call turned into the REST request it stands for. */
describe('MCP tools from the catalogue', () => {
  const tools = generateTools({ operations: OPERATIONS, pathOf: (op) => documentPath(op, 'herald') });
  const tool = (id: string) => tools.find((t) => t.operation.id === id)!;

  it('makes one tool per operation an API key can call, and none for documents, callbacks or connect tokens', () => {
    expect(tools.map((t) => t.operation)).toEqual(OPERATIONS.filter(isToolOperation));
    expect(tools.length).toBeGreaterThanOrEqual(40);
    const names = tools.map((t) => t.tool.name);
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) expect(name).toMatch(/^[a-z][a-z0-9_]*$/);
    expect(OPERATIONS.filter((op) => op.auth !== 'apiKey').every((op) => !tools.some((t) => t.operation === op))).toBe(true);
    expect(toolNameOf({ id: 'startOAuth' })).toBe('start_oauth');
    expect(toolNameOf({ id: 'listUploadHistory' })).toBe('list_upload_history');
    expect(toolNameOf({ id: 'x', mcp: { name: 'custom' } })).toBe('custom');
  });

  it('builds input schemas hosts accept: safe property names, path parameters required, files as URL, base64 or upload handle', () => {
    for (const t of tools) {
      expect(t.tool.inputSchema.type).toBe('object');
      for (const prop of Object.keys(t.tool.inputSchema.properties ?? {})) expect(prop).toMatch(/^[a-zA-Z0-9_.-]{1,64}$/);
      expect(t.tool.description).toContain(t.operation.description);
    }
    const video = tool('uploadVideo');
    expect(video.targets.platform).toEqual({ wire: 'platform[]' });
    expect(video.targets.video).toEqual({ wire: 'video', file: true });
    expect(video.tool.inputSchema.required).toEqual(expect.arrayContaining(['user', 'platform']));
    expect(JSON.stringify(video.tool.inputSchema.properties!.video)).toContain('upload_id');
    expect(JSON.stringify(video.tool.inputSchema.properties!.video)).toContain('"format":"uri"');
    expect(tool('getProfile').tool.inputSchema.required).toEqual(['username']);
  });

  describe('a call as a REST request', () => {
    let server: Server;
    let base: string;
    const seen: Array<{ method: string; url: string; headers: IncomingMessage['headers']; body: Buffer }> = [];
    let answer: { status: number; body: unknown } = { status: 200, body: { success: true } };
    beforeAll(async () => {
      server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
          seen.push({ method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks) });
          res.writeHead(answer.status, { 'content-type': 'application/json', 'x-ratelimit-remaining': '299' }).end(JSON.stringify(answer.body));
        });
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    });
    afterAll(() => new Promise((resolve) => server.close(resolve)));
    const ctx = (_id: string) => ({ apiBaseUrl: base, namespace: 'herald', authorization: 'Bearer hma_x', accountId: 'acc_1', uploads: null, base64MaxBytes: 16 });

    it('puts path, query and body arguments where the operation takes them, with the caller\'s credential', async () => {
      answer = { status: 200, body: { success: true, profile: { username: 'a b' } } };
      const got = await callOperation(tool('getProfile'), { username: 'a b' }, ctx('getProfile'));
      expect(seen.at(-1)).toMatchObject({ method: 'GET', url: '/api/herald/users/a%20b', headers: { authorization: 'Bearer hma_x' } });
      expect(got).toMatchObject({ structuredContent: { success: true }, _meta: { 'herald/rate_limit': { 'x-ratelimit-remaining': '299' } } });
      await callOperation(tool('listUploadHistory'), { limit: 5, platform: 'discord' }, ctx('listUploadHistory'));
      expect(seen.at(-1)!.url).toBe('/api/herald/history?limit=5&platform=discord');
      await callOperation(tool('uploadText'), { user: 'u', platform: ['discord', 'telegram'], title: 'Hi' }, ctx('uploadText'));
      expect(seen.at(-1)).toMatchObject({ method: 'POST', url: '/api/upload_text', headers: { 'content-type': 'application/json' } });
      expect(JSON.parse(seen.at(-1)!.body.toString())).toEqual({ user: 'u', 'platform[]': ['discord', 'telegram'], title: 'Hi' });
    });

    it('sends a base64 file as a multipart part, and refuses one over the inline limit without calling the API', async () => {
      await callOperation(tool('uploadVideo'), { user: 'u', platform: ['bluesky'], video: { data: Buffer.from('tiny video').toString('base64'), filename: 'c.mp4', content_type: 'video/mp4' } }, ctx('uploadVideo'));
      const sent = seen.at(-1)!;
      expect(sent.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);
      const text = sent.body.toString();
      expect(text).toContain('name="platform[]"\r\n\r\nbluesky');
      expect(text).toMatch(/name="video"; filename="c.mp4"\r\nContent-Type: video\/mp4\r\n\r\ntiny video/);
      const count = seen.length;
      const big = await callOperation(tool('uploadVideo'), { user: 'u', platform: ['bluesky'], video: { data: Buffer.alloc(17).toString('base64') } }, ctx('uploadVideo'));
      expect(big).toMatchObject({ isError: true, structuredContent: { status: 400, error_code: 'invalid_request', message: expect.stringContaining('upload handle') } });
      const handle = await callOperation(tool('uploadVideo'), { user: 'u', platform: ['bluesky'], video: { upload_id: 'up_nope' } }, ctx('uploadVideo'));
      expect(handle).toMatchObject({ isError: true, structuredContent: { status: 400 } });
      expect(seen.length).toBe(count);
    });

    it('answers an error status as a tool error carrying status, error_code and message', async () => {
      answer = { status: 404, body: { success: false, error_code: 'PROFILE_NOT_FOUND', message: 'No profile "z".' } };
      const got = await callOperation(tool('getProfile'), { username: 'z' }, ctx('getProfile'));
      expect(got).toMatchObject({ isError: true, structuredContent: { status: 404, error_code: 'PROFILE_NOT_FOUND', message: 'No profile "z".' } });
      expect((got.content[0] as { text: string }).text).toMatch(/^HTTP 404 PROFILE_NOT_FOUND: No profile "z"\./);
      const down = await callOperation(tool('getProfile'), { username: 'z' }, { ...ctx('getProfile'), apiBaseUrl: 'http://127.0.0.1:1' });
      expect(down).toMatchObject({ isError: true, structuredContent: { status: 502, error_code: 'api_unreachable' } });
    });
  });
});
