import { generateConnectLink } from '../../core/usecases/connect-links';
import { createProfile } from '../../core/usecases/profiles';
import { anApiServer } from '../support/api-app';

/**
 * What the commercial API's published clients send and read (issue 29): the answers they rely on,
 * at the HTTP edge over the in-memory world. The client tier (test/compat) drives the clients.
 */
describe('published clients at the HTTP edge', () => {
  let api: Awaited<ReturnType<typeof anApiServer>>;
  beforeAll(async () => { api = await anApiServer(); });
  afterAll(async () => api?.close());

  const future = (hours: number) => new Date(api.world.deps.clock.now().getTime() + hours * 3600_000).toISOString();
  const schedule = async (title: string) => {
    const res = await api.json('POST', '/api/upload_text', { user: 'alice', 'platform[]': ['discord'], title, scheduled_date: future(24) });
    expect(res.status).toBe(202);
    return (res.json as { job_id: string }).job_id;
  };

  it('a status read says success only once the upload finished and succeeded (a: clients stop polling on success)', async () => {
    const jobId = await schedule('later');
    const scheduled = await api.send({ method: 'GET', path: `/api/herald/status?job_id=${jobId}` });
    expect(scheduled).toMatchObject({ status: 200, json: { success: false, status: 'scheduled', all_succeeded: null } });

    const now = await api.json('POST', '/api/upload_text', { user: 'alice', 'platform[]': ['discord'], title: 'now' });
    expect(now).toMatchObject({ status: 200, json: { success: true } });
    const requestId = (now.json as { request_id: string }).request_id;
    const done = await api.send({ method: 'GET', path: `/api/herald/status?request_id=${requestId}` });
    expect(done).toMatchObject({ status: 200, json: { success: true, status: 'completed', all_succeeded: true } });

    await api.send({ method: 'DELETE', path: `/api/herald/schedule/${jobId}` });
    expect((await api.send({ method: 'GET', path: `/api/herald/status?job_id=${jobId}` })).json).toMatchObject({ success: false, status: 'cancelled' });
  });

  it('edits a scheduled post with POST as with PATCH (c)', async () => {
    const jobId = await schedule('before');
    const posted = await api.json('POST', `/api/herald/schedule/${jobId}`, { title: 'after POST' });
    expect(posted).toMatchObject({ status: 200, json: { success: true, job_id: jobId, title: 'after POST' } });
    const patched = await api.json('PATCH', `/api/herald/schedule/${jobId}`, { title: 'after PATCH', scheduled_date: future(48) });
    expect(patched).toMatchObject({ status: 200, json: { success: true, title: 'after PATCH', scheduled_date: future(48).replace(/\.\d+Z$/, '.000Z') } });
    expect(await api.json('POST', `/api/herald/schedule/${jobId}`, { scheduled_date: 'tomorrow' })).toMatchObject({ status: 400, json: { success: false } });
    expect(await api.json('POST', '/api/herald/schedule/job_nope', { title: 'x' })).toMatchObject({ status: 404, json: { error_code: 'JOB_NOT_FOUND' } });
  });

  it('validates a connect token sent as {jwt} with the API key (d), only for the caller\'s own links', async () => {
    const link = await api.json('POST', '/api/herald/users/generate-jwt', { username: 'alice' });
    const token = new URL((link.json as { access_url: string }).access_url).searchParams.get('token')!;
    expect(await api.json('POST', '/api/herald/users/validate-jwt', { jwt: token })).toMatchObject({
      status: 200, json: { success: true, profile: { username: 'alice', social_accounts: { discord: expect.any(Object) } } },
    });
    // Today's form still works.
    expect(await api.send({ method: 'GET', path: '/api/herald/users/validate-jwt', headers: { Authorization: `Bearer ${token}` } })).toMatchObject({ status: 200, json: { success: true } });

    const { account: other } = await api.world.operator('business');
    await createProfile(api.world.deps, other, { username: 'bob' });
    const foreign = await generateConnectLink({ ...api.world.deps, connect: api.connect }, { ttlMs: 3600_000, webBaseUrl: 'http://127.0.0.1:8788' }, other, { username: 'bob' });
    const foreignToken = new URL(foreign.access_url).searchParams.get('token')!;
    expect(await api.json('POST', '/api/herald/users/validate-jwt', { jwt: foreignToken })).toMatchObject({ status: 401, json: { success: false, error_code: 'invalid_token' } });
    expect(await api.json('POST', '/api/herald/users/validate-jwt', { jwt: 'hct_unknown' })).toMatchObject({ status: 401, json: { error_code: 'invalid_token' } });
    expect(await api.json('POST', '/api/herald/users/validate-jwt', {})).toMatchObject({ status: 400, json: { success: false, error_code: expect.any(String) } });
    expect(await api.json('POST', '/api/herald/users/validate-jwt', { jwt: token }, { Authorization: 'Apikey hk_wrong' })).toMatchObject({ status: 401 });
  });

  describe('spec rows no test asserted before (i)', () => {
    const text = (title: string, headers: Record<string, string> = {}, fields: Record<string, unknown> = {}) =>
      api.json('POST', '/api/upload_text', { user: 'alice', 'platform[]': ['discord'], title, ...fields }, headers);
    const sent = () => api.world.discord.posts.length;

    it('X-Idempotency-Key and X-Request-Id are Idempotency-Key: the retry returns the first request, nothing is posted twice', async () => {
      for (const header of ['X-Idempotency-Key', 'X-Request-Id']) {
        const before = sent();
        const first = await text(`once by ${header}`, { [header]: `key-${header}` });
        const again = await text(`once by ${header}`, { [header]: `key-${header}` });
        expect([header, first.status, again.status]).toEqual([header, 200, 200]);
        expect((again.json as { request_id: string }).request_id).toBe((first.json as { request_id: string }).request_id);
        expect([header, sent() - before]).toEqual([header, 1]);
      }
    });

    it('X-External-Id is external_id: echoed by status and found by history; over 255 characters is refused naming the field', async () => {
      const labelled = await text('labelled', { 'X-External-Id': 'crm-4711' });
      expect(labelled).toMatchObject({ status: 200, json: { external_id: 'crm-4711' } });
      const requestId = (labelled.json as { request_id: string }).request_id;
      expect((await api.send({ method: 'GET', path: `/api/herald/status?request_id=${requestId}` })).json).toMatchObject({ external_id: 'crm-4711' });
      const found = await api.send({ method: 'GET', path: '/api/herald/history?external_id=crm-4711' });
      expect((found.json as { history: Array<{ request_id: string }> }).history.map((h) => h.request_id)).toEqual([requestId]);
      expect(await text('longest', {}, { external_id: 'e'.repeat(255) })).toMatchObject({ status: 200, json: { external_id: 'e'.repeat(255) } });
      for (const refused of [await text('too long', {}, { external_id: 'e'.repeat(256) }), await text('too long', { 'X-External-Id': 'e'.repeat(256) })]) {
        expect(refused).toMatchObject({ status: 400, json: { success: false, message: expect.stringContaining('external_id') } });
      }
    });

    it('profile webhooks: webhook_events null resets to every event; DELETE removes the address', async () => {
      const saved = await api.json('POST', '/api/herald/users/profile-webhook', { profile_username: 'alice', webhook_url: 'https://example.com/alice', webhook_events: { social_account_connected: false } });
      expect(saved).toMatchObject({ status: 200, json: { success: true, profile_username: 'alice', webhook_url: 'https://example.com/alice', webhook_events: { social_account_connected: false } } });
      const reset = await api.json('POST', '/api/herald/users/profile-webhook', { profile_username: 'alice', webhook_url: 'https://example.com/alice', webhook_events: null });
      expect(reset).toMatchObject({ status: 200, json: { webhook_events: null } });
      expect((await api.send({ method: 'GET', path: '/api/herald/users/profile-webhook?profile_username=alice' })).json).toMatchObject({ webhook_url: 'https://example.com/alice', webhook_events: null });
      const removed = await api.json('DELETE', '/api/herald/users/profile-webhook', { profile_username: 'alice' });
      expect(removed).toMatchObject({ status: 200, json: { success: true, profile_username: 'alice', webhook_url: null } });
      expect((await api.send({ method: 'GET', path: '/api/herald/users/profile-webhook?profile_username=alice' })).json).toMatchObject({ webhook_url: null });
      expect(await api.json('DELETE', '/api/herald/users/profile-webhook', {})).toMatchObject({ status: 400, json: { success: false } });
    });
  });
});
