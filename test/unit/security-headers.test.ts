import { anApiServer, type HttpAnswer } from '../support/api-app';
import { anMcpServer } from '../support/mcp-app';
import { rawExchange } from '../support/raw-http';

const JSON_POLICY = "default-src 'none'; frame-ancestors 'none'";
const common = { 'x-content-type-options': 'nosniff', 'x-frame-options': 'DENY', 'referrer-policy': 'no-referrer' };
const headersOf = (res: HttpAnswer) => ({
  'content-security-policy': res.headers['content-security-policy'], 'x-content-type-options': res.headers['x-content-type-options'],
  'x-frame-options': res.headers['x-frame-options'], 'referrer-policy': res.headers['referrer-policy'],
});
const fetched = (res: Response) => ({
  'content-security-policy': res.headers.get('content-security-policy'), 'x-content-type-options': res.headers.get('x-content-type-options'),
  'x-frame-options': res.headers.get('x-frame-options'), 'referrer-policy': res.headers.get('referrer-policy'),
});

/** Issue 26: nosniff, a Content-Security-Policy, no framing and no referrer on every answer of the API and MCP daemons. */
describe('security headers', () => {
  describe('on the API', () => {
    let api: Awaited<ReturnType<typeof anApiServer>>;
    beforeAll(async () => { api = await anApiServer(); });
    afterAll(async () => api?.close());

    it.each([
      ['an authenticated answer', { method: 'GET', path: '/api/herald/me' }, 200],
      ['a 401', { method: 'GET', path: '/api/herald/me', auth: false }, 401],
      ['a 404', { method: 'GET', path: '/api/herald/nope', auth: false }, 404],
      ['a 405', { method: 'POST', path: '/api/herald/me', auth: false }, 405],
      ['a preflight', { method: 'OPTIONS', path: '/api/herald/users', auth: false }, 200],
      ['a 400 of the body reader', { method: 'POST', path: '/api/herald/users', headers: { 'Content-Type': 'application/json' }, body: '{' }, 400],
      ['liveness', { method: 'GET', path: '/healthz', auth: false }, 200],
      ['the OpenAPI document', { method: 'GET', path: '/api/openapi.json', auth: false }, 200],
      ['a reference page asset', { method: 'GET', path: '/api/docs/swagger-ui-bundle.js', auth: false }, 200],
      ['a media URL refused', { method: 'GET', path: `/media/${'0'.repeat(64)}`, auth: false }, 403],
    ] as const)('on %s: the JSON policy', async (_name, req, status) => {
      const res = await api.send({ ...req } as Parameters<typeof api.send>[0]);
      expect(res.status).toBe(status);
      expect(headersOf(res)).toEqual({ 'content-security-policy': JSON_POLICY, ...common });
    });

    it('on the reference page: a page policy that lets Swagger UI run from this API only', async () => {
      const res = await api.send({ method: 'GET', path: '/api/docs', auth: false });
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(headersOf(res)).toEqual({ 'content-security-policy': expect.any(String), ...common });
      const policy = Object.fromEntries(String(res.headers['content-security-policy']).split('; ').map((d) => [d.split(' ')[0], d.slice(d.indexOf(' ') + 1)]));
      expect(policy).toEqual({
        'default-src': "'none'", 'script-src': expect.stringMatching(/^'self' 'sha256-[A-Za-z0-9+/]+=*'$/), 'style-src': "'self' 'unsafe-inline'",
        'img-src': "'self' data:", 'connect-src': "'self' http://127.0.0.1", 'base-uri': "'none'", 'frame-ancestors': "'none'",
      });
    });

    it('on the answers Node writes for requests it cannot parse', async () => {
      const raw = await rawExchange(api.port, 'GET /api/herald/me HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
      expect(raw).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(raw).toContain(`\r\nContent-Security-Policy: ${JSON_POLICY}\r\n`);
      expect(raw).toContain('\r\nX-Content-Type-Options: nosniff\r\nX-Frame-Options: DENY\r\nReferrer-Policy: no-referrer\r\n');
    });
  });

  describe('on the MCP daemon', () => {
    let mcp: Awaited<ReturnType<typeof anMcpServer>>;
    beforeAll(async () => { mcp = await anMcpServer(); });
    afterAll(async () => mcp?.close());

    it.each([
      ['liveness', '/healthz', {}, 200],
      ['protected-resource metadata', '/.well-known/oauth-protected-resource/mcp', {}, 200],
      ['authorization-server metadata', '/.well-known/oauth-authorization-server', {}, 200],
      ['a 401 at /mcp', '/mcp', { method: 'POST' }, 401],
      ['a refused key at /mcp', '/mcp', { method: 'GET', headers: { Authorization: 'Apikey hk_nope' } }, 401],
      ['an unknown path, answered in JSON', '/nope', {}, 404],
    ] as const)('on %s', async (_name, path, init, status) => {
      const res = await fetch(`${mcp.base}${path}`, init as RequestInit);
      expect(res.status).toBe(status);
      expect(fetched(res)).toEqual({ 'content-security-policy': JSON_POLICY, ...common });
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    });

    it('on the consent page: the page policy (no script, inline style)', async () => {
      const registered = await (await fetch(`${mcp.base}/register`, {
        method: 'POST', headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ client_name: 'x', redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' }),
      })).json() as { client_id: string };
      const url = new URL(`${mcp.base}/authorize`);
      url.search = new URLSearchParams({ response_type: 'code', client_id: registered.client_id, redirect_uri: 'http://127.0.0.1:9/cb', code_challenge: 'c'.repeat(43), code_challenge_method: 'S256' }).toString();
      const res = await fetch(url);
      expect(res.status).toBe(200);
      expect(fetched(res)).toEqual({
        'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src http: https: data:; script-src 'none'; base-uri 'none'; frame-ancestors 'none'",
        ...common,
      });
    });
  });
});
