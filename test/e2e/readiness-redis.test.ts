import { spawn, type ChildProcess } from 'node:child_process';
import { eventually, freePort } from '../support/stack';
import { useHerald } from '../support/e2e';

jest.setTimeout(600_000);

/**
 * Readiness follows Redis: a Redis of the test's own (never the shared one) is stopped, the API's
 * /readyz answers 503 naming redis while /healthz stays 200, and both are 200 again once the same
 * Redis is back.
 */
describe('readiness when Redis stops and comes back', () => {
  let redis: ChildProcess | undefined;
  let redisPort: number;
  let ops: string;

  const startRedis = async () => {
    const child = spawn('redis-server', ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (b: Buffer) => { out += b.toString(); });
    await eventually(async () => out, (o) => o.includes('Ready to accept connections') || child.exitCode !== null, 60_000, 100);
    if (child.exitCode !== null) throw new Error(`redis-server exited: ${out}`);
    redis = child;
  };
  const stopRedis = async () => {
    const child = redis!;
    redis = undefined;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  const readyz = async (base: string) => {
    const res = await fetch(`${base}/readyz`);
    return { status: res.status, body: await res.json() as { success: boolean; checks: Record<string, boolean>; error_code?: string } };
  };

  let opsPort: number;
  beforeAll(async () => {
    redisPort = await freePort();
    await startRedis();
    opsPort = await freePort();
    ops = `http://127.0.0.1:${opsPort}`;
  });
  afterAll(async () => {
    if (redis) await stopRedis();
  });
  // The API alone, on the test's own Redis.
  const herald = useHerald({ env: () => ({ REDIS_URL: `redis://127.0.0.1:${redisPort}`, HERALD_API_OPS_PORT: String(opsPort) }), worker: false, account: false });
  const { stack } = herald;

  it('is ready with Redis up, not ready with it stopped, ready again when it is back', async () => {
    await eventually(() => readyz(ops), (r) => r.status === 200, 60_000);
    expect((await readyz(stack.apiUrl)).body).toMatchObject({ success: true, checks: { mongodb: true, redis: true, temporal: true } });

    await stopRedis();
    const down = await eventually(() => readyz(ops), (r) => r.status === 503, 60_000);
    expect(down.body).toMatchObject({ success: false, error_code: 'not_ready', checks: { redis: false, mongodb: true, temporal: true } });
    expect((await readyz(stack.apiUrl)).status).toBe(503);
    // Liveness does not depend on Redis: the process is fine, an orchestrator must not restart it.
    expect((await fetch(`${stack.apiUrl}/healthz`)).status).toBe(200);
    expect((await fetch(`${ops}/healthz`)).status).toBe(200);

    await startRedis();
    const up = await eventually(() => readyz(ops), (r) => r.status === 200, 60_000);
    expect(up.body.checks).toEqual({ mongodb: true, redis: true, temporal: true });
    expect((await readyz(stack.apiUrl)).status).toBe(200);
  });
});
