import { loadConfig } from '../../apps/shared/config';
import { anApiServer, type HttpAnswer } from '../support/api-app';

/**
 * The per-address authentication block over HTTP (issue 26): only a credential that is presented
 * and fails counts. Requests with none, CORS preflights and paths no route answers are answered
 * as they are (401, the OPTIONS answer, 404, 405) and leave the clients behind a shared address
 * able to sign in.
 */
describe('the auth-failure block of a client address', () => {
  let api: Awaited<ReturnType<typeof anApiServer>>;
  beforeEach(async () => { api = await anApiServer(); });
  afterEach(async () => api?.close());

  const answer = (res: HttpAnswer) => ({ status: res.status, type: res.headers['content-type'], errorCode: res.json?.error_code });
  const me = (authorization?: string) => api.send({ method: 'GET', path: '/api/herald/me', ...(authorization ? { headers: { Authorization: authorization } } : { auth: false }) });

  it('does not count requests without credentials, preflights or unknown paths', async () => {
    for (let i = 0; i < 12; i += 1) {
      expect(answer(await me())).toEqual({ status: 401, type: 'application/json; charset=utf-8', errorCode: 'unauthenticated' });
      const preflight = await api.send({
        method: 'OPTIONS', path: '/api/herald/users', auth: false,
        headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization' },
      });
      expect(preflight.status).toBe(200);
      expect(preflight.headers.allow?.split(', ').sort()).toEqual(['DELETE', 'GET', 'HEAD', 'POST']);
      expect(answer(await api.send({ method: 'GET', path: '/api/herald/no-such-endpoint', auth: false })))
        .toEqual({ status: 404, type: 'application/json; charset=utf-8', errorCode: 'not_found' });
      expect(answer(await api.send({ method: 'POST', path: '/api/herald/me', auth: false })))
        .toEqual({ status: 405, type: 'application/json; charset=utf-8', errorCode: 'method_not_allowed' });
      // A scheme the API does not verify (a browser's Basic, a connect token) is no guess at a key either.
      expect(answer(await me('Basic dXNlcjpwYXNz'))).toMatchObject({ status: 401, errorCode: 'unauthenticated' });
      // validate-jwt (its credential is the connect token) without one.
      expect(answer(await api.send({ method: 'GET', path: '/api/herald/users/validate-jwt', auth: false })))
        .toMatchObject({ status: 401, errorCode: 'unauthenticated' });
    }
    expect((await me(`Apikey ${api.secret}`)).status).toBe(200);
  });

  it('counts presented credentials that fail, and refuses even a valid key while the address is blocked', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 5; i += 1) statuses.push((await me('Apikey hk_wrong')).status);
    // A connect token that is not one counts like a wrong key.
    for (let i = 0; i < 5; i += 1) statuses.push((await api.send({ method: 'GET', path: '/api/herald/users/validate-jwt', headers: { Authorization: 'Bearer hct_unknown' } })).status);
    statuses.push((await me('Apikey hk_wrong')).status);
    expect(statuses).toEqual([...Array(10).fill(401), 429]);
    const blocked = await me(`Apikey ${api.secret}`);
    expect(blocked).toMatchObject({ status: 429, json: { success: false, error_code: 'auth_blocked' } });
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
    // A request without credentials during the block is still told what is missing.
    expect(answer(await me())).toMatchObject({ status: 401, errorCode: 'unauthenticated' });
  });

  describe('behind a trusted reverse proxy (HERALD_TRUST_PROXY)', () => {
    it('reads the number of proxies: true is one, unset or false none', () => {
      expect(loadConfig({}).api.trustProxy).toBe(0);
      expect(loadConfig({ HERALD_TRUST_PROXY: 'false' }).api.trustProxy).toBe(0);
      expect(loadConfig({ HERALD_TRUST_PROXY: 'true' }).api.trustProxy).toBe(1);
      expect(loadConfig({ HERALD_TRUST_PROXY: '2' }).api.trustProxy).toBe(2);
      expect(() => loadConfig({ HERALD_TRUST_PROXY: 'yes' })).toThrow(/HERALD_TRUST_PROXY/);
    });

    it('counts each client on the address the proxy saw, whatever the client wrote into X-Forwarded-For', async () => {
      await api.close();
      api = await anApiServer({ trustProxy: 1 });
      // The proxy appends the address it received each request from: client 203.0.113.7 here,
      // which puts a different forged address of its own in front every time.
      const from = (client: string, forged: string, authorization: string) => api.send({
        method: 'GET', path: '/api/herald/me', headers: { Authorization: authorization, 'X-Forwarded-For': `${forged}, ${client}` },
      });
      const statuses: number[] = [];
      for (let i = 0; i < 11; i += 1) statuses.push((await from('203.0.113.7', `198.51.100.${i}`, 'Apikey hk_wrong')).status);
      expect(statuses).toEqual([...Array(10).fill(401), 429]);
      expect((await from('203.0.113.7', '198.51.100.99', `Apikey ${api.secret}`)).status).toBe(429);
      // Another client behind the same proxy (the same socket address) is not affected.
      expect((await from('203.0.113.8', '203.0.113.7', `Apikey ${api.secret}`)).status).toBe(200);
    });
  });
});
