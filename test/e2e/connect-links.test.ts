import { useHerald } from '../support/e2e';

jest.setTimeout(180_000);

/**
 * Connect links over HTTP on the real API daemon (FerretDB, Redis, Temporal): generate-jwt,
 * validate-jwt's answers, PROFILE_BLOCKED after a downgrade, preferences, and the connect token
 * refused by every other endpoint. The page itself: connect-page.browser.test.ts.
 */
describe('connect links over HTTP', () => {
  const email = `connect-${Date.now()}@e2e.test`;
  const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
  const raw = (method: string, path: string, headers: Record<string, string>, body?: unknown) => fetch(`${stack.apiUrl}${path}`, {
    method, headers: { ...headers, ...(body ? { 'Content-Type': 'application/json' } : {}) }, ...(body ? { body: JSON.stringify(body) } : {}),
  }).then(async (res) => ({ status: res.status, type: res.headers.get('content-type') ?? '', body: await res.json() as any }));

  // No auth cache: the plan downgrade below must be seen at the next request.
  // Every refusal below is a failed authentication from 127.0.0.1: more than the default ten.
  const herald = useHerald({
    env: { HERALD_AUTH_CACHE_MS: '0', HERALD_AUTH_MAX_FAILURES: '1000', HERALD_WEB_PUBLIC_URL: 'https://connect.example.test' },
    worker: false,
    account: { email, plan: 'basic' },
    profiles: ['alice', 'p2', 'p3'],
  });
  const { api, stack } = herald;

  const generate = async (body: Record<string, unknown>) => api.post('/api/herald/users/generate-jwt', body);
  const tokenOf = (accessUrl: string) => new URL(accessUrl).searchParams.get('token')!;

  it('generate-jwt answers access_url on the web address, success and duration 48h; validate-jwt answers the profile', async () => {
    const res = await generate({ username: 'alice', ui_labels: { 'connect.title': 'Hello' }, platforms: ['telegram'], language: 'de' });
    expect(res.body).toEqual({ success: true, access_url: expect.stringMatching(/^https:\/\/connect\.example\.test\/connect\?token=hct_/), duration: '48h' });
    const valid = await raw('GET', '/api/herald/users/validate-jwt', bearer(tokenOf(res.body.access_url)));
    expect(valid).toMatchObject({ status: 200, body: { success: true, profile: { username: 'alice', social_accounts: {}, ui_labels: { 'connect.title': 'Hello' } } } });
    expect(valid.type).toMatch(/json/);
    // The stored labels come back on the profile too.
    expect((await api.get('/api/herald/users/alice')).body.profile.ui_labels).toEqual({ 'connect.title': 'Hello' });
  });

  it('validate-jwt: 401 without a token, with an unknown one or an API key', async () => {
    expect(await raw('GET', '/api/herald/users/validate-jwt', {})).toMatchObject({ status: 401, body: { success: false, error_code: 'unauthenticated' } });
    expect(await raw('GET', '/api/herald/users/validate-jwt', bearer('hct_forged'))).toMatchObject({ status: 401, body: { error_code: 'invalid_token' } });
    expect((await api.get('/api/herald/users/validate-jwt')).status).toBe(401);
  });

  it('400 for a missing username or invalid ui_labels, 404 PROFILE_NOT_FOUND', async () => {
    expect(await generate({})).toMatchObject({ status: 400, body: { success: false, error_code: 'invalid_request' } });
    expect(await generate({ username: 'alice', ui_labels: { 'bad key!': 'x' } })).toMatchObject({ status: 400, body: { message: expect.stringContaining('ui_labels') } });
    expect(await generate({ username: 'alice', ui_labels: { ok: 'x'.repeat(301) } })).toMatchObject({ status: 400 });
    expect(await generate({ username: 'alice', ui_labels: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, 'v'])) })).toMatchObject({ status: 400 });
    expect(await generate({ username: 'nobody' })).toMatchObject({ status: 404, body: { error_code: 'PROFILE_NOT_FOUND' } });
  });

  it('the connect token is refused by every other endpoint, webhook configuration included', async () => {
    const token = tokenOf((await generate({ username: 'alice' })).body.access_url);
    for (const [method, path] of [
      ['GET', '/api/herald/me'], ['GET', '/api/herald/users'], ['GET', '/api/herald/users/alice'], ['POST', '/api/herald/users/generate-jwt'],
      ['GET', '/api/herald/users/notifications'], ['POST', '/api/herald/users/notifications'], ['POST', '/api/herald/users/webhook-secret'],
      ['POST', '/api/herald/users/profile-webhook'], ['GET', '/api/herald/users/preferences'], ['POST', '/api/upload_text'], ['GET', '/api/herald/schedule'],
    ] as const) {
      const res = await raw(method, path, bearer(token), method === 'POST' ? { username: 'alice', profile_username: 'alice' } : undefined);
      expect({ method, path, status: res.status, code: res.body.error_code }).toEqual({ method, path, status: 401, code: 'unauthenticated' });
      expect(res.body.message).toMatch(/connect token/);
    }
    // Sent where an API key goes, it is no key either.
    expect((await raw('GET', '/api/herald/me', { Authorization: `Apikey ${token}` })).status).toBe(401);
    // Still valid for what it is for.
    expect((await raw('GET', '/api/herald/users/validate-jwt', bearer(token))).body.success).toBe(true);
  });

  it('preferences: week_start_day saved and read back; 400 for a bad day', async () => {
    expect(await api.get('/api/herald/users/preferences')).toMatchObject({ status: 200, body: { success: true, week_start_day: 'monday' } });
    expect(await api.post('/api/herald/users/preferences', { week_start_day: 'sunday' })).toMatchObject({ status: 200, body: { week_start_day: 'sunday' } });
    expect(await api.get('/api/herald/users/preferences')).toMatchObject({ body: { week_start_day: 'sunday' } });
    expect(await api.post('/api/herald/users/preferences', { week_start_day: 'someday' })).toMatchObject({ status: 400, body: { success: false } });
  });

  it('403 PROFILE_BLOCKED once a downgrade leaves more profiles than the plan allows; validate-jwt says so for links issued before', async () => {
    const before = tokenOf((await generate({ username: 'p3' })).body.access_url);
    const ensured = await stack.cli('account', 'ensure', '--email', email, '--plan', 'free');
    expect(ensured.code).toBe(0);
    expect(await generate({ username: 'p3' })).toMatchObject({ status: 403, body: { success: false, error_code: 'PROFILE_BLOCKED' } });
    expect((await generate({ username: 'alice' })).status).toBe(200);
    expect(await raw('GET', '/api/herald/users/validate-jwt', bearer(before))).toMatchObject({ status: 200, body: { isValid: false, reason: 'profile_blocked' } });
  });
});
