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
});
