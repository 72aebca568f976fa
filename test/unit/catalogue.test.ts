import { execFile } from 'node:child_process';
import type Router from '@koa/router';
import type Koa from 'koa';
import { createApi } from '../../apps/api/server';
import type { ApiDeps, ApiOptions } from '../../apps/api/deps';
import { OPERATIONS } from '../../apps/api/catalogue';
import { koaPath } from '../../apps/api/catalogue/mount';
import { openApiDocument, operationInputSchema } from '../../apps/api/catalogue/openapi';
import { operationRequest } from '../../apps/api/catalogue/requests';
import { anApiServer } from '../support/api-app';

const OPTIONS: ApiOptions = {
  namespace: 'herald', syncTimeoutMs: 5_000, trustProxy: 0, publicBaseUrl: 'http://127.0.0.1', duplicateWindowMs: 0, statusCacheMs: 0,
  maxUploadBytes: 1024, connectLinks: { ttlMs: 1000, webBaseUrl: 'http://127.0.0.1:8788' },
};

/** Every `METHOD /path` the routers of an app answer (HEAD left out: Koa adds it to every GET). */
function routesOf(app: Koa<any>): string[] {
  const routers = app.middleware.flatMap((mw) => {
    const router = (mw as unknown as { router?: Router }).router;
    return router ? [router] : [];
  });
  return routers.flatMap((r) => r.stack.flatMap((layer) => layer.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${String(layer.path)}`)));
}

const declared = (ns: string) => OPERATIONS.map((op) => `${op.method.toUpperCase()} ${koaPath(op, ns)}`);

/** Validates with @seriousme/openapi-schema-validator (an ES module: run in a node process of its own). */
function validateOpenApi(document: unknown): Promise<{ valid: boolean; errors?: unknown }> {
  const script = `import { Validator } from '@seriousme/openapi-schema-validator';
let text = ''; process.stdin.on('data', (c) => { text += c; }).on('end', async () => {
  const result = await new Validator().validate(JSON.parse(text));
  process.stdout.write(JSON.stringify({ valid: result.valid, errors: result.errors, version: new Validator().version }));
});`;
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, ['--input-type=module', '-e', script], { cwd: process.cwd(), maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err) reject(new Error(`${err.message}\n${stderr}`));
      else resolve(JSON.parse(stdout));
    });
    child.stdin!.end(JSON.stringify(document));
  });
}

describe('the operation catalogue', () => {
  it('has unique, camelCase ids and one operation per method and path', () => {
    const ids = OPERATIONS.map((op) => op.id);
    expect(ids.filter((id, n) => ids.indexOf(id) !== n)).toEqual([]);
    expect(ids.filter((id) => !/^[a-z][A-Za-z0-9]*$/.test(id))).toEqual([]);
    const routes = declared('herald');
    expect(routes.filter((r, n) => routes.indexOf(r) !== n)).toEqual([]);
    for (const op of OPERATIONS) expect([op.id, op.description.length > 40, Object.keys(op.responses).length > 0]).toEqual([op.id, true, true]);
  });

  it('generates a valid OpenAPI 3.1 document (version 1.0.0, paths in the namespace, both key schemes)', async () => {
    const document = openApiDocument(OPERATIONS, { namespace: 'herald', publicBaseUrl: 'https://herald.example' }) as any;
    const result = await validateOpenApi(document);
    expect(result).toEqual(expect.objectContaining({ valid: true }));
    // The validator does look: a document without info, or with a bad parameter, is refused.
    const { info: _info, ...noInfo } = document;
    expect((await validateOpenApi(noInfo)).valid).toBe(false);
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.0.0');
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/api/herald/users/{username}', '/api/upload', '/api/herald/ffmpeg/jobs/{job_id}/download']));
    expect(document.components.securitySchemes.apiKey).toEqual(expect.objectContaining({ type: 'apiKey', in: 'header', name: 'Authorization' }));
    const upload = document.paths['/api/upload'].post;
    expect(upload.requestBody.content['multipart/form-data'].schema.properties).toEqual(expect.objectContaining({
      user: expect.objectContaining({ type: 'string' }),
      'platform[]': expect.objectContaining({ type: 'array' }),
      privacy_level: expect.anything(), // tiktok's own field, from its descriptor
    }));
    expect(upload.responses['401'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
    // Another namespace moves every namespaced path, and only those.
    const other = openApiDocument(OPERATIONS, { namespace: 'posts' }) as any;
    expect(Object.keys(other.paths).filter((p) => p.includes('/herald'))).toEqual([]);
    expect(Object.keys(other.paths)).toEqual(expect.arrayContaining(['/api/posts/me', '/api/upload_text']));
  });

  it('gives every operation one input schema for tools (path, query and body fields; files as URL or base64)', () => {
    const video = operationInputSchema(OPERATIONS.find((op) => op.id === 'uploadVideo')!) as any;
    expect(video.required).toEqual(expect.arrayContaining(['user', 'platform[]']));
    expect(video.properties.video.anyOf).toHaveLength(2);
    const job = operationInputSchema(OPERATIONS.find((op) => op.id === 'getMediaJob')!) as any;
    expect(job).toEqual(expect.objectContaining({ required: ['job_id'] }));
  });

  it('splits one argument object into the request: path, query, body and file parts', () => {
    const byId = (id: string) => OPERATIONS.find((op) => op.id === id)!;
    expect(operationRequest(byId('getMediaJob'), 'herald', { job_id: 'a/b' })).toEqual({ method: 'GET', path: '/api/herald/ffmpeg/jobs/a%2Fb', query: {}, files: {} });
    expect(operationRequest(byId('listUploadHistory'), 'herald', { limit: 5, platform: 'x' })).toEqual({ method: 'GET', path: '/api/herald/history', query: { limit: '5', platform: 'x' }, files: {} });
    const byUrl = operationRequest(byId('uploadVideo'), 'herald', { user: 'alice', 'platform[]': ['x'], video: 'https://cdn.example/v.mp4' });
    expect(byUrl).toEqual({ method: 'POST', path: '/api/upload', query: {}, body: { user: 'alice', 'platform[]': ['x'], video: 'https://cdn.example/v.mp4' }, files: {} });
    const inline = { filename: 'v.mp4', content_type: 'video/mp4', data: 'AAAA' };
    expect(operationRequest(byId('uploadVideo'), 'herald', { user: 'alice', video: inline })).toEqual(expect.objectContaining({ body: { user: 'alice' }, files: { video: inline } }));
  });

  it('drift: every route of the app with every optional part on has an operation, and every operation a route', () => {
    const app = createApi({ health: async () => ({}), log: () => undefined, mediaJobs: {}, mediaUploads: {}, notifications: {}, connect: {}, analyticsHistory: {} } as unknown as ApiDeps, OPTIONS);
    const routes = routesOf(app).sort();
    const ops = declared('herald').sort();
    expect({ withoutOperation: routes.filter((r) => !ops.includes(r)), withoutRoute: ops.filter((o) => !routes.includes(o)) }).toEqual({ withoutOperation: [], withoutRoute: [] });
  });

  describe('over HTTP', () => {
    let api: Awaited<ReturnType<typeof anApiServer>>;
    beforeAll(async () => { api = await anApiServer(); });
    afterAll(async () => { await api.close(); });

    it('drift: the test app routes only declared operations', () => {
      const ops = declared('herald');
      expect(routesOf(api.app).filter((r) => !ops.includes(r))).toEqual([]);
    });

    it('serves the document and the reference page with its assets, without an API key', async () => {
      const doc = await api.send({ method: 'GET', path: '/api/openapi.json', auth: false });
      expect([doc.status, doc.headers['content-type'], doc.json.openapi, doc.json.servers]).toEqual([200, 'application/json; charset=utf-8', '3.1.0', [{ url: 'http://127.0.0.1' }]]);
      const page = await api.send({ method: 'GET', path: '/api/docs', auth: false });
      expect([page.status, page.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
      const assets = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
      expect(assets).toEqual(expect.arrayContaining(['/api/docs/swagger-ui-bundle.js', '/api/docs/swagger-ui.css']));
      expect(assets.filter((a) => !a.startsWith('/api/docs/'))).toEqual([]); // nothing from elsewhere
      for (const asset of assets) {
        const answer = await api.send({ method: 'GET', path: asset, auth: false });
        expect([asset, answer.status, answer.text.length > 100]).toEqual([asset, 200, true]);
      }
      expect(page.text).toContain('"/api/openapi.json"');
      const missing = await api.send({ method: 'GET', path: '/api/docs/package.json', auth: false });
      expect([missing.status, missing.json.error_code]).toEqual([404, 'not_found']);
    });

    it('refuses a wrong type in the query at the edge, naming the field', async () => {
      const answer = await api.send({ method: 'GET', path: '/api/herald/history?limit=lots&page=0' });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({
        success: false, error_code: 'invalid_request',
        message: expect.stringMatching(/^page: .*; limit: /),
        violations: [
          { field: 'page', in: 'query parameter', message: expect.stringMatching(/>=1/) },
          { field: 'limit', in: 'query parameter', message: expect.stringMatching(/expected number/) },
        ],
      });
    });

    it('refuses a wrong type in the body at the edge, naming the field, before the handler looks anything up', async () => {
      const answer = await api.json('PATCH', '/api/herald/schedule/job_missing', { title: 42, scheduled_date: ['tomorrow'] });
      expect(answer.status).toBe(400);
      expect(answer.json).toEqual({
        success: false, error_code: 'invalid_request',
        message: 'scheduled_date: Invalid input: expected string, received array; title: Invalid input: expected string, received number',
        violations: [
          { field: 'scheduled_date', in: 'body field', message: 'Invalid input: expected string, received array' },
          { field: 'title', in: 'body field', message: 'Invalid input: expected string, received number' },
        ],
      });
      // The right types pass the edge and meet the use case.
      const unknown = await api.json('PATCH', '/api/herald/schedule/job_missing', { title: 'ok' });
      expect(unknown.status).toBe(404);
    });

    it('leaves fields the core checks to the core (its message is kept)', async () => {
      const answer = await api.json('POST', '/api/herald/users', { username: 42 });
      expect([answer.status, answer.json.message]).toEqual([400, 'username is required: a non-empty string (your own id for this end user).']);
    });
  });
});
