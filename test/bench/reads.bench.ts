/**
 * Authenticated reads: `GET /api/herald/me` and `GET /api/herald/status?request_id=…` against a
 * bare Koa JSON route (a Koa app in its own process answering a constant JSON body: the floor of
 * what any Koa API can do on this machine), same concurrency, same client, in the same run. The
 * phases alternate (bare, me, status, bare, me, status, …) so that load from elsewhere on the
 * machine colours them alike; each runs for a fixed time.
 *
 * Then a second API process with HERALD_DEBUG_TIMING=true answers the same reads, and its
 * Server-Timing headers say where a request's time goes (auth-failure guard, rate limit, database).
 *
 * Knobs: BENCH_CONCURRENCY (20), BENCH_SECONDS per phase and round (5), BENCH_ROUNDS (2),
 * BENCH_WARMUP requests per phase (200), BENCH_TIMING_REQUESTS (2000).
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import {
  boundedLoop, connectNetworks, describeEnvironment, envInt, errorCounts, heading, ms, onCleanup, procCpuMs, ROOT, runMain, say, ServerTiming, sleep,
  startBenchStack, startTimedApi, summarize, table, type Outcome,
} from './support';

const CONCURRENCY = envInt('BENCH_CONCURRENCY', 20);
const SECONDS = envInt('BENCH_SECONDS', 5);
const ROUNDS = envInt('BENCH_ROUNDS', 2);
const WARMUP = envInt('BENCH_WARMUP', 200, 0);
const TIMING_REQUESTS = envInt('BENCH_TIMING_REQUESTS', 2000, 0);

interface Path {
  label: string;
  url: string;
  headers: Record<string, string>;
  pid: number;
  outcomes: Array<Outcome<unknown>>;
  wallMs: number;
  cpuMs: number;
}

/** A constant JSON answer from a Koa app of its own process (no middleware). */
async function startBareKoa(): Promise<{ url: string; pid: number }> {
  const script = `
    const Koa = require('koa');
    const app = new Koa();
    app.use((ctx) => { ctx.body = { success: true, email: 'bench@herald.dev', plan: 'business', account_id: 'acct_bench' }; });
    const server = app.listen(0, '127.0.0.1', () => process.stdout.write('port=' + server.address().port + '\\n'));
    process.on('SIGTERM', () => server.close(() => process.exit(0)));`;
  const child = spawn(process.execPath, ['-e', script], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  onCleanup(async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await exited;
  });
  const port = await new Promise<number>((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (d: Buffer) => {
      seen += d.toString();
      const m = /port=(\d+)/.exec(seen);
      if (m) resolve(Number(m[1]));
    });
    child.on('close', (code) => reject(new Error(`bare Koa exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}/`, pid: child.pid! };
}

async function get(url: string, headers: Record<string, string>): Promise<{ ok: boolean; value?: string; error?: string }> {
  const res = await fetch(url, { headers });
  const body = await res.text();
  return res.status === 200 ? { ok: true, value: res.headers.get('server-timing') ?? '' } : { ok: false, error: `HTTP ${res.status} ${body.slice(0, 120)}` };
}

async function phase(p: Path, seconds: number): Promise<void> {
  await boundedLoop(WARMUP, CONCURRENCY, 60_000, () => get(p.url, p.headers));
  const cpu0 = procCpuMs(p.pid) ?? NaN;
  const loop = await boundedLoop(Number.MAX_SAFE_INTEGER, CONCURRENCY, seconds * 1000, () => get(p.url, p.headers));
  p.cpuMs += (procCpuMs(p.pid) ?? NaN) - cpu0;
  p.outcomes.push(...loop.outcomes);
  p.wallMs += loop.wallMs;
}

const rate = (p: Path) => p.outcomes.filter((o) => o.ok).length / (p.wallMs / 1000);

async function main(): Promise<void> {
  heading('reads: authenticated GETs vs a bare Koa JSON route');
  say(describeEnvironment());
  say(`concurrency ${CONCURRENCY}, ${SECONDS} s per phase, ${ROUNDS} rounds, warm-up ${WARMUP} requests per phase`);

  const b = await startBenchStack({ name: 'reads', worker: false });
  // An upload to ask the status of (no worker: it stays pending, the read is the same).
  await connectNetworks(b, 'bench', ['discord']);
  const accepted = await b.api.post('/api/upload_text', { user: 'bench', 'platform[]': ['discord'], title: 'reads bench', async_upload: true });
  if (accepted.status !== 202) throw new Error(`upload_text answered ${accepted.status}: ${JSON.stringify(accepted.body)}`);
  const requestId = accepted.body.request_id as string;
  const bare = await startBareKoa();
  const apiPid = b.stack.api.child.pid!;
  const auth = { Authorization: b.auth };
  const paths: Path[] = [
    { label: 'bare Koa JSON route', url: bare.url, headers: {}, pid: bare.pid, outcomes: [], wallMs: 0, cpuMs: 0 },
    { label: 'GET /api/herald/me', url: `${b.stack.apiUrl}/api/herald/me`, headers: auth, pid: apiPid, outcomes: [], wallMs: 0, cpuMs: 0 },
    { label: 'GET /api/herald/status', url: `${b.stack.apiUrl}/api/herald/status?request_id=${encodeURIComponent(requestId)}`, headers: auth, pid: apiPid, outcomes: [], wallMs: 0, cpuMs: 0 },
  ];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const p of paths) {
      await phase(p, SECONDS);
      say(`[reads] round ${round}: ${p.label}: ${rate(p).toFixed(0)} req/s so far`);
    }
  }

  heading(`reads (ms), ${CONCURRENCY} concurrent clients, loopback`);
  const baseRate = rate(paths[0]!);
  say(table(['path', 'ok', 'req/s', '% of bare', 'p50', 'p90', 'p99', 'max', 'server cpu ms/req'], paths.map((p) => {
    const ok = p.outcomes.filter((o) => o.ok);
    const lat = summarize(ok.map((o) => o.latencyMs));
    return [p.label, ok.length, rate(p).toFixed(0), `${((100 * rate(p)) / baseRate).toFixed(0)}%`, ms(lat.p50), ms(lat.p90), ms(lat.p99), ms(lat.max),
      (p.cpuMs / Math.max(1, p.outcomes.length)).toFixed(3)];
  })));
  for (const p of paths) {
    const errors = errorCounts(p.outcomes);
    if (errors.length) say(`${p.label}: failures: ${errors.slice(0, 5).map(([e, n]) => `${n}× ${e}`).join('; ')}`);
  }

  if (TIMING_REQUESTS) {
    const timed = await startTimedApi(b);
    for (const p of paths.slice(1)) {
      heading(`where the time of ${p.label} goes (HERALD_DEBUG_TIMING API, ${TIMING_REQUESTS} requests, ${CONCURRENCY} clients)`);
      const url = p.url.replace(b.stack.apiUrl, timed.url);
      const tally = new ServerTiming();
      await boundedLoop(WARMUP, CONCURRENCY, 60_000, () => get(url, p.headers));
      await boundedLoop(TIMING_REQUESTS, CONCURRENCY, 120_000, async () => {
        const t0 = performance.now();
        const r = await get(url, p.headers);
        tally.add(r.value ?? null, performance.now() - t0);
        return r;
      });
      say(tally.table());
    }
    await timed.stop();
  }
  await sleep(0);
}

runMain('reads', main);
