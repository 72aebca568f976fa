import { request as httpRequest } from 'node:http';
import { startDiscordSimulator, type DiscordSimulator } from '../../ops/simulators/discord';
import { eventually } from '../support/stack';
import { useHerald } from '../support/e2e';

jest.setTimeout(180_000);

describe('authentication guard, rate limits and key management over HTTP', () => {
  const herald = useHerald({
    env: {
      HERALD_RATE_LIMIT_POINTS: '5', HERALD_RATE_LIMIT_WINDOW_SECONDS: '60', HERALD_AUTH_BLOCK_SECONDS: '3', HERALD_AUTH_CACHE_MS: '1000',
      // Points taken from Redis 3 at a time: the counts below must come out exactly as without leases.
      HERALD_RATE_LIMIT_LEASE: '3',
    },
    worker: false,
    account: { email: 'limits@herald.dev', plan: 'free' },
  });
  const { stack } = herald;

  it('answers 401 to ten consecutive failures, then blocks the client address for the block time', async () => {
    const wrong = herald.client('hk_not_a_key');
    const statuses = [];
    for (let i = 0; i < 11; i += 1) statuses.push((await wrong.get('/api/herald/me')).status);
    // The tenth failure starts the block; the eleventh request is the first one refused with 429.
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 401, 401, 429]);
    const blocked = await herald.api.get('/api/herald/me');
    expect(blocked.status).toBe(429);
    expect(blocked.body).toMatchObject({ success: false, error_code: 'auth_blocked', retry_after_seconds: expect.any(Number) });
    expect(blocked.body.message).toMatch(/blocked for \d+ more seconds/);
    expect(Number(blocked.headers.get('retry-after'))).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 3200));
    expect((await herald.api.get('/api/herald/me')).status).toBe(200);
  });

  it('never blocks the address for requests without credentials, preflights or unknown paths (the MCP daemon\'s included)', async () => {
    await stack.startMcp();
    for (let i = 0; i < 12; i += 1) {
      const anonymous = await fetch(`${stack.apiUrl}/api/herald/me`);
      expect(anonymous.status).toBe(401);
      expect(await anonymous.json()).toMatchObject({ success: false, error_code: 'unauthenticated' });
      expect(anonymous.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
      const preflight = await fetch(`${stack.apiUrl}/api/herald/users`, {
        method: 'OPTIONS', headers: { Origin: 'https://app.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'authorization' },
      });
      expect(preflight.status).toBe(200);
      const unknown = await fetch(`${stack.apiUrl}/api/herald/no-such-endpoint`);
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ error_code: 'not_found' });
      expect((await fetch(`${stack.mcpUrl}/mcp`, { method: 'POST' })).status).toBe(401);
      expect((await fetch(`${stack.mcpUrl}/no-such-endpoint`)).status).toBe(404);
    }
    expect((await herald.api.get('/api/herald/me')).status).toBe(200);
  });

  it('counts requests per key with X-RateLimit headers and answers 429 past the window', async () => {
    const api = herald.client(await stack.newApiKey('limits@herald.dev', 'free'));
    const remaining = [];
    for (let i = 0; i < 5; i += 1) {
      const res = await api.get('/api/herald/users');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('5');
      remaining.push(Number(res.headers.get('x-ratelimit-remaining')));
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0]);
    const over = await api.get('/api/herald/users');
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ success: false, error_code: 'rate_limited' });
    expect(over.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(over.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
  });

  it('enforces the free plan profile limit with 403 PROFILE_LIMIT_REACHED', async () => {
    const api = herald.client(await stack.newApiKey('limits@herald.dev', 'free'));
    expect((await api.post('/api/herald/users', { username: 'p1' })).status).toBe(201);
    expect((await api.post('/api/herald/users', { username: 'p2' })).status).toBe(201);
    expect(await api.post('/api/herald/users', { username: 'p3' }))
      .toMatchObject({ status: 403, body: { success: false, error_code: 'PROFILE_LIMIT_REACHED' } });
  });

  it('lists and revokes keys with the CLI; a revoked key gets 401 once the key cache bound has passed', async () => {
    const fresh = await stack.newApiKey('revoke@herald.dev');
    expect((await herald.client(fresh).get('/api/herald/me')).status).toBe(200);
    const listed = await stack.cli('key', 'list', '--email', 'revoke@herald.dev');
    expect(listed.code).toBe(0);
    const [line] = listed.stdout.trim().split('\n');
    expect(line).toMatch(/^key_\S+\t\S+…\te2e\t\S+\tactive$/);
    expect(listed.stdout).not.toContain(fresh);
    const id = line.split('\t')[0];
    expect((await stack.cli('key', 'revoke', '--email', 'revoke@herald.dev', '--id', id)).code).toBe(0);
    // The API remembers verified keys for HERALD_AUTH_CACHE_MS (1 s here); waited for with a generous bound.
    const refused = await eventually(() => herald.client(fresh).get('/api/herald/me'), (r) => r.status !== 200, 30_000, 200);
    expect(refused).toMatchObject({ status: 401, body: { message: 'Invalid API key.' } });
    expect((await stack.cli('key', 'list', '--email', 'revoke@herald.dev')).stdout).toMatch(/\trevoked /);
  });
});

describe('graceful shutdown on SIGTERM', () => {
  let discord: DiscordSimulator;
  beforeAll(async () => {
    discord = await startDiscordSimulator();
  });
  afterAll(async () => {
    await discord?.close();
  });
  const herald = useHerald({
    env: () => ({ DISCORD_API_BASE: discord.baseUrl, HERALD_SHUTDOWN_GRACE_MS: '15000', HERALD_SYNC_TIMEOUT_MS: '2000' }),
    account: { email: 'shutdown@herald.dev' },
    profiles: ['bob'],
  });
  const { api, stack } = herald;
  beforeAll(async () => {
    await herald.connect('discord', { profile: 'bob', credentials: { webhook_url: discord.createWebhook({ name: 'Shutdown' }).url } });
  });

  const inFlightAt = (text: string) => eventually(async () => discord.requests.some((r) => String(JSON.stringify(r.body)).includes(text)), Boolean, 60_000, 25);

  // The network answers 15 s after it is asked: far past the 2 s window however loaded the
  // machine, and well within the 60 s platform timeout.
  const SLOW_NETWORK_MS = 15_000;
  const delivered = (text: string) => discord.messages().filter((m) => m.content === text);

  it('switches a synchronous upload that outlasts the window to asynchronous and keeps going', async () => {
    discord.setLatency(SLOW_NETWORK_MS);
    const started = Date.now();
    const res = await api.post('/api/upload_text', { user: 'bob', 'platform[]': ['discord'], title: 'slow sync' }, { 'X-Request-Id': 'slow-sync' });
    // The 2 s window (HERALD_SYNC_TIMEOUT_MS) passed, the network had not answered yet.
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect(res).toMatchObject({ status: 202, body: { success: true, request_id: 'slow-sync', status: 'in_progress' } });
    expect(delivered('slow sync')).toHaveLength(0);
    expect(res.body.message).toContain('/api/herald/status?request_id=slow-sync');
    discord.setLatency(0);
    const done = await eventually(() => api.get('/api/herald/status?request_id=slow-sync'), (r) => r.body.status === 'completed', 90_000, 500);
    expect(done.body.results.discord).toMatchObject({ success: true });
    expect(delivered('slow sync')).toHaveLength(1);
  });

  it('lets the worker finish its running activity, then exit 0', async () => {
    discord.setLatency(2500);
    const res = await api.post('/api/upload_text', { user: 'bob', 'platform[]': ['discord'], title: 'worker drains', async_upload: true }, { 'X-Request-Id': 'drain-worker' });
    expect(res.status).toBe(202);
    await inFlightAt('worker drains');
    const worker = stack.worker!;
    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
    discord.setLatency(0);
    // The message went out on the old worker; a new worker only finishes the bookkeeping.
    expect(discord.messages().filter((m) => m.content === 'worker drains')).toHaveLength(1);
    await stack.startWorker();
    const done = await eventually(() => api.get('/api/herald/status?request_id=drain-worker'), (r) => r.body.status === 'completed', 60_000, 300);
    expect(done.body.results.discord).toMatchObject({ success: true, warnings: [] });
    expect(discord.messages().filter((m) => m.content === 'worker drains')).toHaveLength(1);
  });

  it('lets the API answer an in-flight synchronous upload before it exits 0', async () => {
    // The request is held open by the client: its headers are in (the API said 100 Continue), its
    // body not yet sent. SIGTERM comes then, so the request is surely in flight when the API is
    // told to stop, however fast or slow the machine; the body follows, and the API must finish it.
    // The network is slow, so the request surely outlasts the 2 s window: the API, already told to
    // stop, still waits the window out and answers 202 (going on) instead of dropping the request.
    discord.setLatency(SLOW_NETWORK_MS);
    const body = JSON.stringify({ user: 'bob', 'platform[]': ['discord'], title: 'api drains' });
    const req = httpRequest(`${stack.apiUrl}/api/upload_text`, {
      method: 'POST',
      headers: {
        Authorization: `Apikey ${herald.key}`, 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body),
        Expect: '100-continue', 'X-Request-Id': 'api-drains',
      },
    });
    const answered = new Promise<{ status: number; body: any }>((resolve, reject) => {
      req.once('response', (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(Buffer.concat(chunks).toString()) }));
      });
      req.once('error', reject);
    });
    const headersIn = new Promise<void>((resolve) => req.once('continue', () => resolve()));
    req.flushHeaders();
    await headersIn;
    stack.api.child.kill('SIGTERM');
    req.end(body);
    const res = await answered;
    expect(res).toMatchObject({ status: 202, body: { success: true, request_id: 'api-drains', status: 'in_progress' } });
    discord.setLatency(0);
    expect(await stack.api.exited).toBe(0);
    await expect(fetch(`${stack.apiUrl}/healthz`)).rejects.toThrow();
    await eventually(async () => delivered('api drains').length, (n) => n === 1, 90_000, 500);
  });
});
