import { createHash, randomBytes } from 'node:crypto';
import { anApiServer, multipart, type HttpAnswer } from '../support/api-app';
import { rawExchange } from '../support/raw-http';

/**
 * The HTTP edge of the API daemon in-process (Koa app + Node server over the in-memory world):
 * malformed input never answers 5xx, every error answer is the JSON error shape with an
 * error_code, ids are checked before they reach storage, reserved profile names, reddit first.
 */
describe('the HTTP edge', () => {
  let api: Awaited<ReturnType<typeof anApiServer>>;
  beforeAll(async () => { api = await anApiServer({ maxUploadBytes: 64 * 1024 }); });
  afterAll(async () => api?.close());

  const errorOf = (res: HttpAnswer) => ({ status: res.status, type: res.headers['content-type'], body: res.json ?? res.text });
  const jsonError = (status: number, errorCode: string, message?: string | RegExp) => ({
    status, type: 'application/json; charset=utf-8',
    body: expect.objectContaining({
      success: false, error_code: errorCode,
      message: message === undefined ? expect.any(String) : typeof message === 'string' ? message : expect.stringMatching(message),
    }),
  });

  describe('c. malformed bodies and ids', () => {
    it('answers a truncated multipart body with 400 invalid_body on every body-reading route', async () => {
      const { body, contentType } = multipart([['user', 'alice'], ['platform[]', 'discord'], ['title', 'hi']]);
      for (const path of ['/api/upload_text', '/api/upload_photos', '/api/upload', '/api/herald/users', '/api/herald/posts/retry']) {
        const res = await api.send({ method: 'POST', path, headers: { 'Content-Type': contentType }, body: [body.subarray(0, body.length - 12)] });
        expect([path, errorOf(res)]).toEqual([path, jsonError(400, 'invalid_body', /multipart body ended before its closing boundary/)]);
      }
    });

    it('keeps every byte of the files of a form whose fields it watches as they stream', async () => {
      const data = randomBytes(60 * 1024);
      const { body, contentType } = multipart([['user', 'alice'], ['platform[]', 'discord'], ['title', 'bytes']], [{ field: 'photos[]', filename: 'a.png', type: 'image/png', data }]);
      const chunks = Array.from({ length: Math.ceil(body.length / 997) }, (_, i) => body.subarray(i * 997, (i + 1) * 997));
      const res = await api.send({ method: 'POST', path: '/api/upload_photos', headers: { 'Content-Type': contentType }, body: chunks });
      expect(res.status).toBe(200);
      expect(await api.mediaStore.stat(createHash('sha256').update(data).digest('hex'))).toEqual(expect.objectContaining({ size: data.length }));
    });

    it('answers a file over the upload limit with 413 file_too_large', async () => {
      const { body, contentType } = multipart([['user', 'alice'], ['platform[]', 'discord']], [{ field: 'photos[]', filename: 'a.png', type: 'image/png', data: Buffer.alloc(100 * 1024, 1) }]);
      const res = await api.send({ method: 'POST', path: '/api/upload_photos', headers: { 'Content-Type': contentType }, body });
      expect(errorOf(res)).toEqual(jsonError(413, 'file_too_large', 'A file is larger than the upload limit of 64 KB.'));
    });

    it('refuses a NUL, a control character or an over-long value in any id with 400 invalid_id naming the field', async () => {
      const cases: Array<[string, () => Promise<HttpAnswer>, string]> = [
        ['GET /users/%00', () => api.send({ method: 'GET', path: '/api/herald/users/%00' }), 'username'],
        ['GET /users/a%0Ab', () => api.send({ method: 'GET', path: '/api/herald/users/a%0Ab' }), 'username'],
        ['GET /users/<129>', () => api.send({ method: 'GET', path: `/api/herald/users/${'u'.repeat(129)}` }), 'username'],
        ['DELETE /schedule/%00', () => api.send({ method: 'DELETE', path: '/api/herald/schedule/%00' }), 'job_id'],
        ['PATCH /schedule/%7F', () => api.json('PATCH', '/api/herald/schedule/job%7F', { title: 'x' }), 'job_id'],
        ['DELETE /schedule/<256>', () => api.send({ method: 'DELETE', path: `/api/herald/schedule/${'j'.repeat(256)}` }), 'job_id'],
        ['status request_id', () => api.send({ method: 'GET', path: '/api/herald/status?request_id=%00' }), 'request_id'],
        ['status job_id', () => api.send({ method: 'GET', path: '/api/herald/status?job_id=a%1Bb' }), 'job_id'],
        ['history external_id', () => api.send({ method: 'GET', path: '/api/herald/history?external_id=%00' }), 'external_id'],
        ['history profile_username', () => api.send({ method: 'GET', path: `/api/herald/history?profile_username=${'p'.repeat(129)}` }), 'profile_username'],
        ['queue preview profile_username', () => api.send({ method: 'GET', path: '/api/herald/queue/preview?profile_username=%00' }), 'profile_username'],
        ['pin profile_username', () => api.send({ method: 'GET', path: '/api/herald/users/facebook-page?profile_username=%00' }), 'profile_username'],
        ['retry request_id', () => api.json('POST', '/api/herald/posts/retry', { request_id: 'r\u0000' }), 'request_id'],
        ['credentials profile_username', () => api.json('POST', '/api/herald/users/discord/credentials', { profile_username: '\u0000', secret: 'good' }), 'profile_username'],
        ['oauth start profile_username', () => api.json('POST', '/api/herald/oauth/tiktok/start', { profile_username: 'a\u0000' }), 'profile_username'],
        ['oauth callback state', () => api.send({ method: 'GET', path: '/api/herald/oauth/tiktok/callback?state=%00&code=c', auth: false }), 'state'],
        ['upload user', () => api.json('POST', '/api/upload_text', { user: 'alice\u0000', 'platform[]': ['discord'], title: 'hi' }), 'user'],
        ['upload request_id', () => api.json('POST', '/api/upload_text', { user: 'alice', 'platform[]': ['discord'], title: 'hi', request_id: 'r\u0001' }), 'request_id'],
        ['upload external_id (form)', async () => {
          const { body, contentType } = multipart([['user', 'alice'], ['platform[]', 'discord'], ['title', 'hi'], ['external_id', 'e\u0000']]);
          return api.send({ method: 'POST', path: '/api/upload_text', headers: { 'Content-Type': contentType }, body });
        }, 'external_id'],
        ['delete profile username', () => api.json('DELETE', '/api/herald/users', { username: 'a\u0000' }), 'username'],
      ];
      for (const [what, call, field] of cases) {
        const res = await call();
        expect([what, errorOf(res)]).toEqual([what, jsonError(400, 'invalid_id', new RegExp(`^${field}: `))]);
        expect(res.json.violations).toEqual([{ field, message: expect.any(String) }]);
      }
      const nul = await api.send({ method: 'GET', path: '/api/herald/users/ab%00' });
      expect(nul.json.message).toBe('username: ids are printable text without control characters; found U+0000 at position 3.');
      const long = await api.send({ method: 'GET', path: `/api/herald/status?request_id=${'r'.repeat(300)}` });
      expect(long.json.message).toBe('request_id: ids are at most 255 characters; this one has 300.');
    });

    it('refuses what the database cannot store: a NUL in any text, $ or . in a field name, deep nesting', async () => {
      const post = (fields: Record<string, unknown>) => api.json('POST', '/api/upload_text', { user: 'alice', 'platform[]': ['discord'], title: 'hi', ...fields });
      expect(errorOf(await post({ title: 'a\u0000b' }))).toEqual(jsonError(400, 'invalid_character', 'title: text cannot contain U+0000 (NUL); found at position 2: remove it.'));
      expect(errorOf(await post({ discord_title: ['ok', 'x\u0000'] }))).toEqual(jsonError(400, 'invalid_character', /^discord_title\[1\]: /));
      expect(errorOf(await post({ scheduled_date: '2026-03-01T10:00:00Z', extra: { $where: 'x' } }))).toEqual(jsonError(400, 'invalid_field_name', /^"extra\.\$where": field names cannot start with/));
      expect(errorOf(await post({ 'a.b': 1 }))).toEqual(jsonError(400, 'invalid_field_name'));
      expect(errorOf(await post({ deep: JSON.parse(`${'['.repeat(40)}1${']'.repeat(40)}`) }))).toEqual(jsonError(400, 'body_too_deep'));
      expect(errorOf(await api.send({ method: 'GET', path: '/api/herald/history?status=a%00' }))).toEqual(jsonError(400, 'invalid_character', /^status: /));
      // A file's name and type go into the post as sent, less their control characters.
      const { body, contentType } = multipart([['user', 'alice'], ['platform[]', 'discord'], ['title', 'named']], [{ field: 'photos[]', filename: 'p\u0000ic.png', type: 'image/png\u0001', data: Buffer.alloc(500, 3) }]);
      const named = await api.send({ method: 'POST', path: '/api/upload_photos', headers: { 'Content-Type': contentType }, body });
      expect(named.status).toBe(200);
      const stored = await api.world.deps.storage.uploads.find(api.account.id, named.json.request_id);
      expect(stored!.content.media).toEqual([expect.objectContaining({ filename: 'pic.png', contentType: 'image/png' })]);
    });
  });

  describe('d. every error answer is JSON with an error_code', () => {
    it('405 method_not_allowed with the Allow header, also for methods no route knows', async () => {
      const post = await api.send({ method: 'POST', path: '/api/herald/me' });
      expect(errorOf(post)).toEqual(jsonError(405, 'method_not_allowed', 'POST is not allowed on /api/herald/me; allowed: HEAD, GET.'));
      expect(post.headers.allow).toBe('HEAD, GET');
      const propfind = await api.send({ method: 'PROPFIND', path: '/api/herald/schedule/job_1' });
      expect(errorOf(propfind)).toEqual(jsonError(405, 'method_not_allowed', 'PROPFIND is not allowed on /api/herald/schedule/job_1; allowed: DELETE, PATCH, POST.'));
      expect(propfind.headers.allow).toBe('DELETE, PATCH, POST');
    });

    it('431 headers_too_large and 400 for a request Node cannot parse, written as JSON by the server', async () => {
      const big = await api.send({ method: 'GET', path: '/api/herald/me', headers: { 'X-Padding': 'x'.repeat(20_000) } });
      expect(errorOf(big)).toEqual(jsonError(431, 'headers_too_large', /headers are larger than 16 KB/));
      const raw = await rawExchange(api.port, 'GET /api/herald/me HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n');
      expect(raw).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(raw).toContain('Content-Type: application/json; charset=utf-8');
      expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toEqual({ success: false, error_code: 'malformed_request', message: expect.stringMatching(/^The request is not valid HTTP/) });
    });

    it('413 body_too_large and 415 unsupported_media_type', async () => {
      const huge = await api.send({ method: 'POST', path: '/api/herald/users', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ username: 'x'.repeat(2 * 1024 * 1024) }) });
      expect(errorOf(huge)).toEqual(jsonError(413, 'body_too_large', 'The request body is larger than 1 MB.'));
      const xml = await api.send({ method: 'POST', path: '/api/herald/users', headers: { 'Content-Type': 'application/xml' }, body: '<username>a</username>' });
      expect(errorOf(xml)).toEqual(jsonError(415, 'unsupported_media_type', 'Send the body as application/json, application/x-www-form-urlencoded or multipart/form-data (got application/xml).'));
      const encoding = await api.send({ method: 'POST', path: '/api/herald/users', headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'br2' }, body: '{}' });
      expect(errorOf(encoding)).toEqual(jsonError(415, 'unsupported_media_type', /^The body's encoding cannot be read: Unsupported Content-Encoding: br2\./));
      const notGzip = await api.send({ method: 'POST', path: '/api/herald/users', headers: { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, body: 'not gzip' });
      expect(errorOf(notGzip)).toEqual(jsonError(400, 'invalid_body', /^The request body cannot be decompressed/));
    });

    it('401 carries an error_code too', async () => {
      const res = await api.send({ method: 'GET', path: '/api/herald/me', headers: { Authorization: 'Apikey nope' } });
      expect(errorOf(res)).toEqual(jsonError(401, 'unauthenticated', 'Invalid API key.'));
    });
  });

  describe('e. fixed /users/<word> paths', () => {
    it('refuses to create a profile under a reserved name with 400 username_reserved', async () => {
      for (const name of ['validate-jwt', 'generate-jwt', 'notifications', 'profile-webhook', 'webhook-secret', 'preferences', 'facebook-page', 'LinkedIn-Page', 'google-business-location']) {
        const res = await api.json('POST', '/api/herald/users', { username: name });
        expect([name, errorOf(res)]).toEqual([name, jsonError(400, 'username_reserved',
          `username "${name}" is reserved: GET /users/${name.toLowerCase()} is an endpoint of its own, so this profile could never be read. Choose another username.`)]);
      }
    });

    it('never answers a fixed path with a profile lookup', async () => {
      // Fixed paths with routes of their own answer as themselves.
      expect(await api.send({ method: 'GET', path: '/api/herald/users/notifications' })).toMatchObject({ status: 200, json: { success: true, notifications: { webhook_url: null } } });
      expect(await api.send({ method: 'GET', path: '/api/herald/users/profile-webhook' })).toMatchObject({ status: 400, json: { success: false, error_code: 'invalid_request' } });
      expect((await api.send({ method: 'GET', path: '/api/herald/users/preferences' })).json).toEqual({ success: true, week_start_day: 'monday' });
      const validate = await api.send({ method: 'GET', path: '/api/herald/users/validate-jwt', headers: { Authorization: 'Bearer hct_unknown' } });
      expect(validate.status).toBe(401);
      expect(validate.json).toMatchObject({ error_code: 'invalid_token' });
      const pin = await api.send({ method: 'GET', path: '/api/herald/users/facebook-page?profile_username=alice' });
      expect(pin.json).toEqual({ success: true, profile_username: 'alice', page_id: null });
    });
  });

  describe('f. reddit answers 503 before any other check', () => {
    const reddit = jsonError(503, 'reddit_unavailable', 'Publishing, connecting and commenting on reddit is unavailable. Remove reddit from platform[].');

    it('on the upload endpoints, whatever else is wrong with the request', async () => {
      const cases: Array<[string, () => Promise<HttpAnswer>]> = [
        ['no user', () => api.json('POST', '/api/upload_text', { 'platform[]': ['reddit'] })],
        ['platform key', () => api.json('POST', '/api/upload_text', { platform: 'Reddit ', title: 42 })],
        ['comma list with an unknown platform', () => api.json('POST', '/api/upload_text', { user: 'alice', 'platform[]': 'myspace, REDDIT' })],
        ['scheduled and queued', () => api.json('POST', '/api/upload_text', { user: 'ghost', 'platform[]': ['discord', 'reddit'], scheduled_date: 'soon', add_to_queue: true })],
        ['form without user', async () => {
          const { body, contentType } = multipart([['platform[]', 'discord'], ['platform[]', 'reddit']]);
          return api.send({ method: 'POST', path: '/api/upload_text', headers: { 'Content-Type': contentType }, body });
        }],
        ['photo of the wrong type', async () => {
          const { body, contentType } = multipart([['user', 'alice'], ['platform[]', 'reddit']], [{ field: 'photos[]', filename: 'a.txt', type: 'text/plain', data: Buffer.from('hi') }]);
          return api.send({ method: 'POST', path: '/api/upload_photos', headers: { 'Content-Type': contentType }, body });
        }],
        ['video over the size limit', async () => {
          const { body, contentType } = multipart([['platform[]', 'reddit']], [{ field: 'video', filename: 'a.mp4', type: 'video/mp4', data: Buffer.alloc(100 * 1024) }]);
          return api.send({ method: 'POST', path: '/api/upload', headers: { 'Content-Type': contentType }, body });
        }],
      ];
      for (const [what, call] of cases) expect([what, errorOf(await call())]).toEqual([what, reddit]);
    });

    it('but a truncated form is unreadable, whatever it names: the answer cannot depend on how its bytes arrived', async () => {
      const { body, contentType } = multipart([['platform[]', 'reddit'], ['title', 'hi']]);
      for (const chunks of [[body.subarray(0, body.length - 10)], [body.subarray(0, 60), body.subarray(60, body.length - 10)]]) {
        const res = await api.send({ method: 'POST', path: '/api/upload_text', headers: { 'Content-Type': contentType }, body: chunks });
        expect(errorOf(res)).toEqual(jsonError(400, 'invalid_body'));
      }
    });

    it('on connect: credentials and OAuth start and callback, however reddit is spelled', async () => {
      expect(errorOf(await api.json('POST', '/api/herald/users/reddit/credentials', {}))).toEqual(reddit);
      expect(errorOf(await api.json('POST', '/api/herald/users/Reddit/credentials', { profile_username: '\u0000' }))).toEqual(reddit);
      expect(errorOf(await api.json('POST', '/api/herald/oauth/reddit/start', {}))).toEqual(reddit);
      expect(errorOf(await api.send({ method: 'POST', path: '/api/herald/oauth/REDDIT/start', headers: { 'Content-Type': 'application/json' }, body: '{oops' }))).toEqual(reddit);
      expect(errorOf(await api.send({ method: 'GET', path: '/api/herald/oauth/reddit/callback?state=x', auth: false }))).toEqual(reddit);
    });
  });

  describe('g. profile created_at', () => {
    it('is an HTTP-date on create and ISO-8601 on reads, as the spec shows', async () => {
      const created = await api.json('POST', '/api/herald/users', { username: 'gina' });
      expect(created.status).toBe(201);
      expect(created.json).toEqual({ success: true, profile: { username: 'gina', created_at: 'Thu, 01 Jan 2026 00:00:00 GMT', social_accounts: {} } });
      const one = await api.send({ method: 'GET', path: '/api/herald/users/gina' });
      expect(one.json.profile.created_at).toBe('2026-01-01T00:00:00.000Z');
      const list = await api.send({ method: 'GET', path: '/api/herald/users' });
      expect(list.json.profiles.find((p: { username: string }) => p.username === 'gina').created_at).toBe('2026-01-01T00:00:00.000Z');
    });
  });
});
