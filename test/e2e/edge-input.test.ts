import { request as httpRequest } from 'node:http';
import { useHerald } from '../support/e2e';

jest.setTimeout(120_000);

/**
 * What only the real stack shows about malformed input: FerretDB (PostgreSQL underneath) refuses
 * a NUL in a lookup or a stored text with an error, which answered 500; the daemon's own Node
 * server answers what it cannot parse. The in-process fuzz (test/unit/api-fuzz.test.ts) covers
 * the rest of the edge quickly; this checks the same rules on the daemon and the database.
 */
describe('malformed input on the real stack', () => {
  const herald = useHerald({ sandbox: true, env: { HERALD_MEDIA_MAX_BYTES: '1024' }, worker: false, account: { email: 'edge@herald.dev' } });
  const { api, stack, sandbox } = herald;

  /** Any method, raw body bytes, chunked when given as an array; never throws on what comes back. */
  const send = (method: string, path: string, headers: Record<string, string> = {}, body?: string | Buffer | Buffer[]) =>
    new Promise<{ status: number; type: string | undefined; json: any }>((resolve, reject) => {
      const url = new URL(stack.apiUrl);
      const all: Record<string, string> = { Authorization: `Apikey ${herald.key}`, ...headers };
      if (Array.isArray(body)) all['Transfer-Encoding'] = 'chunked';
      else if (body !== undefined) all['Content-Length'] = String(Buffer.byteLength(body));
      const req = httpRequest({ host: url.hostname, port: url.port, method, path, headers: all, agent: false }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => { text += c.toString(); });
        res.on('end', () => {
          let json: unknown;
          try { json = JSON.parse(text); } catch { json = text; }
          resolve({ status: res.statusCode!, type: res.headers['content-type'], json });
        });
      });
      req.on('error', reject);
      for (const part of body === undefined ? [] : Array.isArray(body) ? body : [body]) req.write(part);
      req.end();
    });
  const error = (status: number, errorCode: string) => ({ status, type: 'application/json; charset=utf-8', json: expect.objectContaining({ success: false, error_code: errorCode, message: expect.any(String) }) });

  it('answers a NUL in any id with 400 invalid_id before FerretDB sees it (it answered 500)', async () => {
    const json = { 'Content-Type': 'application/json' };
    const cases: Array<[string, string, string, Record<string, string>?, string?]> = [
      ['GET', '/api/herald/users/%00', 'username'],
      ['DELETE', '/api/herald/schedule/%00', 'job_id'],
      ['PATCH', '/api/herald/schedule/%00', 'job_id', json, '{"title":"x"}'],
      ['GET', '/api/herald/status?request_id=%00', 'request_id'],
      ['GET', '/api/herald/status?job_id=a%00', 'job_id'],
      ['GET', '/api/herald/history?external_id=%00', 'external_id'],
      ['GET', '/api/herald/queue/settings?profile_username=%00', 'profile_username'],
      ['GET', '/api/herald/users/linkedin-page?profile_username=%00', 'profile_username'],
      ['POST', '/api/herald/posts/retry', 'request_id', json, '{"request_id":"r\\u0000"}'],
      ['POST', '/api/herald/users/discord/credentials', 'profile_username', json, '{"profile_username":"\\u0000","webhook_url":"https://x"}'],
      ['GET', '/api/herald/oauth/tiktok/callback?state=%00&code=c', 'state'],
    ];
    for (const [method, path, field, headers, body] of cases) {
      const res = await send(method, path, headers, body);
      expect([method, path, res]).toEqual([method, path, error(400, 'invalid_id')]);
      expect(res.json.violations).toEqual([{ field, message: expect.stringMatching(/U\+0000/) }]);
    }
  });

  it('answers a NUL in a stored text and field names the database refuses with 400 (FerretDB answered 500)', async () => {
    expect((await api.post('/api/herald/users', { username: 'nina' })).status).toBe(201);
    const webhook = sandbox.env.SANDBOX_DISCORD_WEBHOOK_URL!;
    const json = { 'Content-Type': 'application/json' };
    expect(await send('POST', '/api/herald/users/discord/credentials', json, JSON.stringify({ profile_username: 'nina', webhook_url: webhook, name: 'n\u0000' })))
      .toEqual(error(400, 'invalid_character'));
    await herald.connect('discord', { profile: 'nina' });
    // Scheduled: accepted and stored without the worker, fields and all.
    const scheduled = { user: 'nina', 'platform[]': ['discord'], scheduled_date: new Date(Date.now() + 86_400_000).toISOString() };
    expect(await send('POST', '/api/upload_text', json, JSON.stringify({ ...scheduled, title: 'a\u0000b' }))).toEqual(error(400, 'invalid_character'));
    expect(await send('POST', '/api/upload_text', json, JSON.stringify({ ...scheduled, title: 'x', 'a.b': 1 }))).toEqual(error(400, 'invalid_field_name'));
    expect(await send('POST', '/api/upload_text', json, JSON.stringify({ ...scheduled, title: 'x', extra: { $gt: 1 } }))).toEqual(error(400, 'invalid_field_name'));
    expect((await send('POST', '/api/upload_text', json, JSON.stringify({ ...scheduled, title: 'fine' }))).status).toBe(202);
  });

  it('answers broken bodies, wrong methods and oversized headers in the JSON error shape', async () => {
    const form = Buffer.from('--b\r\nContent-Disposition: form-data; name="user"\r\n\r\nnina\r\n--b\r\nContent-Disposition: form-data; name="platform[]"\r\n\r\ndisc');
    expect(await send('POST', '/api/upload_text', { 'Content-Type': 'multipart/form-data; boundary=b' }, [form])).toEqual(error(400, 'invalid_body'));
    // reddit before a file over the limit answers 503 (the daemon's limit is HERALD_MEDIA_MAX_BYTES; 1 KB here).
    const big = Buffer.concat([Buffer.from('--b\r\nContent-Disposition: form-data; name="platform[]"\r\n\r\nreddit\r\n'
      + '--b\r\nContent-Disposition: form-data; name="video"; filename="v.mp4"\r\nContent-Type: video/mp4\r\n\r\n'), Buffer.alloc(4096, 1), Buffer.from('\r\n--b--\r\n')]);
    expect(await send('POST', '/api/upload', { 'Content-Type': 'multipart/form-data; boundary=b' }, [big])).toEqual(error(503, 'reddit_unavailable'));
    expect(await send('POST', '/api/herald/me')).toEqual(error(405, 'method_not_allowed'));
    expect(await send('PUT', '/api/herald/users', { 'Content-Type': 'text/plain' }, 'x')).toEqual(error(405, 'method_not_allowed'));
    expect(await send('POST', '/api/herald/users', { 'Content-Type': 'text/plain' }, 'nina')).toEqual(error(415, 'unsupported_media_type'));
    expect(await send('GET', '/api/herald/me', { 'X-Padding': 'p'.repeat(20_000) })).toEqual(error(431, 'headers_too_large'));
  });

  it('reserves the fixed /users/<word> paths and shows created_at as the spec does', async () => {
    expect((await api.post('/api/herald/users', { username: 'validate-jwt' })).body).toMatchObject({ success: false, error_code: 'username_reserved' });
    // validate-jwt is an endpoint of its own (its credential is the connect token, not the API key).
    expect(await api.get('/api/herald/users/validate-jwt')).toMatchObject({ status: 401, body: { success: false, error_code: 'unauthenticated' } });
    const created = await api.post('/api/herald/users', { username: 'olga' });
    expect(created.body.profile.created_at).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    const read = await api.get('/api/herald/users/olga');
    // The HTTP-date has whole seconds; the ISO reads have milliseconds.
    expect(read.body.profile.created_at.slice(0, 19)).toBe(new Date(created.body.profile.created_at).toISOString().slice(0, 19));
    const listed = await api.get('/api/herald/users');
    expect(listed.body.profiles.find((p: { username: string }) => p.username === 'olga').created_at).toBe(read.body.profile.created_at);
  });
});
