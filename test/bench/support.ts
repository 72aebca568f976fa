/**
 * Shared pieces of the benchmarks (test/bench/*.bench.ts): environment knobs, a bounded
 * concurrent loop, latency statistics, plain-text tables, and a sandbox + stack of the real API and
 * worker daemons (test/support/stack.ts) that is always stopped again, even on Ctrl-C.
 *
 * Benchmarks print figures; they are not tests and assert nothing beyond "the run was valid".
 */
import { spawn } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import Module from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { approveAuthorization, startSandbox, type Sandbox } from '../../apps/sandbox/main';
import type * as Harness from '../support/stack';
import type { Stack } from '../support/stack';
import { type BodyCheck, LoadClient } from './load-client';
import { boundedLoop, type Outcome } from './loop';

/**
 * The e2e harness (test/support/stack.ts), loaded so that it finds the repository. It derives the
 * repository root from its own location (`__dirname/../..`), which is right for jest running the
 * .ts sources but points at dist/ once tsc has compiled it to dist/test/support/stack.js (it
 * would then look for dist/dist/apps). So its compiled code is loaded as if it sat at
 * <repo>/test/support/stack.js: same code, same behaviour, correct root. Should the harness learn
 * to run from dist/ itself, this keeps working unchanged.
 */
function loadHarness(): typeof Harness {
  const compiled = path.join(__dirname, '../support/stack.js');
  const repoRoot = path.resolve(__dirname, '../../..');
  const as = path.join(repoRoot, 'test/support/stack.js');
  type Internal = Module & { _compile(code: string, filename: string): void };
  const m = new Module(as, module) as Internal;
  m.filename = as;
  m.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(as));
  m._compile(readFileSync(compiled, 'utf8'), as);
  const harness = m.exports as typeof Harness;
  if (!existsSync(path.join(harness.ROOT, 'dist/apps/api/main.js'))) {
    throw new Error(`${path.join(harness.ROOT, 'dist/apps/api/main.js')} is missing: build first (npx tsc -p tsconfig.json)`);
  }
  return harness;
}

const { apiClient, daemonLogFile, freePort, ROOT, startStack } = loadHarness();
export { freePort, ROOT };
/** The e2e harness, for benches that need a bare stack (no sandbox). */
export const harness = { startStack, apiClient };

// ------------------------------------------------------------------------------------ environment

/** Loads `.herald/env` (TEMPORAL_ADDRESS, MONGODB_URI, REDIS_URL) for variables not set already. */
export function loadHeraldEnv(): void {
  const file = path.join(ROOT, '.herald/env');
  if (!existsSync(file)) return;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line);
    if (!m || process.env[m[1]!] !== undefined) continue;
    process.env[m[1]!] = m[2]!.trim().replace(/^'(.*)'$/, '$1').replace(/^"(.*)"$/, '$1');
  }
}

/** A positive integer knob from the environment. */
export function envInt(name: string, fallback: number, min = 1): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be an integer >= ${min}, got "${raw}"`);
  return value;
}

export function envList(name: string, fallback: string[]): string[] {
  const raw = process.env[name];
  return raw ? raw.split(',').map((s) => s.trim()).filter(Boolean) : fallback;
}

// ------------------------------------------------------------------------------------ output

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function say(line = ''): void {
  process.stdout.write(`${line}\n`);
}

export function heading(title: string): void {
  say('');
  say(`== ${title} ${'='.repeat(Math.max(0, 96 - title.length))}`);
}

/** A left-aligned first column, right-aligned numbers, one space-padded line per row. */
export function table(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = [headers, ...rows.map((r) => r.map(String))];
  const widths = headers.map((_, c) => Math.max(...cells.map((r) => (r[c] ?? '').length)));
  const line = (r: string[]) => r.map((cell, c) => (c === 0 ? cell.padEnd(widths[c]!) : cell.padStart(widths[c]!))).join('  ');
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.slice(1).map(line)].join('\n');
}

export const ms = (v: number | undefined) => (v === undefined || Number.isNaN(v) ? '-' : Math.abs(v) >= 100 ? v.toFixed(0) : v.toFixed(1));
export const mib = (bytes: number) => (bytes / 1024 ** 2).toFixed(1);

// ------------------------------------------------------------------------------------ statistics

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))]!;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  if (!s.length) return NaN;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export interface LatencySummary {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  mean: number;
}

export function summarize(latencies: number[]): LatencySummary {
  const s = [...latencies].sort((a, b) => a - b);
  return {
    n: s.length,
    p50: percentile(s, 50),
    p90: percentile(s, 90),
    p99: percentile(s, 99),
    max: s.length ? s[s.length - 1]! : NaN,
    mean: s.length ? s.reduce((a, b) => a + b, 0) / s.length : NaN,
  };
}

// ------------------------------------------------------------------------------------ bounded loop

export { boundedLoop, type LoopResult, type Outcome } from './loop';

/** The distinct error messages of failed outcomes with their counts, most frequent first. */
export function errorCounts(outcomes: Array<Outcome<unknown>>): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const o of outcomes) if (!o.ok) counts.set(o.error ?? 'failed', (counts.get(o.error ?? 'failed') ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]);
}

// ------------------------------------------------------------------------------------ cleanup

type Cleanup = () => Promise<void> | void;
/** What to print when a bench fails (the daemons' state and last output). */
const diagnostics: Array<() => string> = [];
const cleanups: Cleanup[] = [];
let signalsHooked = false;

/** Registers a cleanup run (last in, first out) by `runCleanups` and on SIGINT/SIGTERM. */
export function onCleanup(fn: Cleanup): void {
  cleanups.push(fn);
  if (signalsHooked) return;
  signalsHooked = true;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      say(`\n[bench] ${signal}: stopping everything this bench started…`);
      void runCleanups().finally(() => process.exit(130));
    });
  }
}

/** Each cleanup gets this long (a hung database must not keep the bench and its daemons alive). */
const CLEANUP_TIMEOUT_MS = 60_000;

export async function runCleanups(): Promise<void> {
  while (cleanups.length) {
    const fn = cleanups.pop()!;
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        Promise.resolve().then(fn),
        new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`timed out after ${CLEANUP_TIMEOUT_MS / 1000} s`)), CLEANUP_TIMEOUT_MS); }),
      ]);
    } catch (err) {
      say(`[bench] cleanup failed: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      clearTimeout(timer);
    }
  }
  killOwnChildren();
}

/**
 * Last resort: SIGKILL any process this bench spawned that is still alive (by parent pid, so only
 * ours): a daemon whose start failed (startStack keeps no handle then) or whose stop hung.
 */
export function killOwnChildren(): void {
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return;
  }
  for (const pid of entries) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== process.pid) continue;
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      if (!cmd.includes('/dist/apps/')) continue;
      say(`[bench] killing leftover daemon ${pid}: ${cmd.trim()}`);
      process.kill(Number(pid), 'SIGKILL');
    } catch {
      // gone already
    }
  }
}

/** Runs a bench's main with its cleanups, exit code 1 on failure. */
export function runMain(name: string, main: () => Promise<void>): void {
  loadHeraldEnv();
  const started = Date.now();
  main()
    .then(async () => {
      await runCleanups();
      say(`\n[bench] ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s; load average now ${loadAverage()}`);
    })
    .catch(async (err: unknown) => {
      say(`\n[bench] ${name} FAILED: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
      for (const d of diagnostics) say(d());
      await runCleanups();
      process.exitCode = 1;
    });
}

// ------------------------------------------------------------------------------------ sandbox + stack

export interface BenchStack {
  sandbox: Sandbox;
  stack: Stack;
  key: string;
  api: ReturnType<typeof apiClient>;
  /** `Apikey <key>` */
  auth: string;
  /** Per-bench media store and scratch space (deleted at the end). */
  tmpDir: string;
}

/**
 * All eleven simulators on random loopback ports, then the API daemon (own database, task queue
 * and Redis prefix, as the e2e harness does) with a per-bench media directory, a key for a
 * business-plan operator, and a first profile. The worker is started unless `worker: false`.
 */
export async function startBenchStack(opts: {
  name: string; processingMs?: number; env?: Record<string, string>; worker?: boolean; profile?: string;
}): Promise<BenchStack> {
  const tmpDir = mkdtempSync(path.join(os.tmpdir(), `herald-bench-${opts.name}-`));
  onCleanup(() => rmSync(tmpDir, { recursive: true, force: true }));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const sandbox = await startSandbox({ ports: 'random', heraldPublicBaseUrl: base, processingMs: opts.processingMs ?? 50 });
  onCleanup(() => sandbox.close());
  const stack = await startStack({
    ...sandbox.env,
    HERALD_API_PORT: String(port),
    HERALD_PUBLIC_BASE_URL: base,
    HERALD_MEDIA_DIR: path.join(tmpDir, 'media'),
    // A benchmark is not abuse: the per-key limit (300 a minute by default) would cut it short.
    HERALD_RATE_LIMIT_POINTS: '100000000',
    // BENCH_DAEMON_NODE_OPTIONS: Node options for the daemons only (V8 heap settings, say), not for this process.
    ...(process.env.BENCH_DAEMON_NODE_OPTIONS ? { NODE_OPTIONS: process.env.BENCH_DAEMON_NODE_OPTIONS } : {}),
    ...opts.env,
  });
  onCleanup(() => stack.stop());
  diagnostics.push(() => [stack.api, stack.worker].filter((d) => d !== null).map((d) =>
    `--- ${d.name} (pid ${d.child.pid}, ${d.child.exitCode === null ? (d.child.signalCode ? `killed by ${d.child.signalCode}` : 'running') : `exited ${d.child.exitCode}`}), last output:\n` +
    d.output.join('').slice(-2500)).join('\n'));
  if (opts.worker !== false) await stack.startWorker();
  const key = await stack.newApiKey(`bench-${opts.name}@herald.dev`);
  const api = apiClient(stack.apiUrl, key);
  const profile = opts.profile ?? 'bench';
  const created = await api.post('/api/herald/users', { username: profile });
  if (created.status !== 201) throw new Error(`profile create answered ${created.status}: ${JSON.stringify(created.body)}`);
  return { sandbox, stack, key, api, auth: `Apikey ${key}`, tmpDir };
}

export const OAUTH_NETWORKS = ['tiktok', 'instagram', 'threads', 'facebook', 'youtube', 'linkedin', 'x', 'pinterest'] as const;
export const CREDENTIAL_NETWORKS = ['bluesky', 'discord', 'telegram'] as const;

/** Connects networks to a profile through their real flows (OAuth authorize page + callback, or credentials). */
export async function connectNetworks(b: BenchStack, profile: string, networks: readonly string[]): Promise<void> {
  const env = b.sandbox.env;
  for (const network of networks) {
    if ((OAUTH_NETWORKS as readonly string[]).includes(network)) {
      const start = await b.api.post(`/api/herald/oauth/${network}/start`, { profile_username: profile, redirect_url: 'https://bench.example/connected' });
      if (start.status !== 200) throw new Error(`${network} oauth start answered ${start.status}: ${JSON.stringify(start.body)}`);
      const callback = await approveAuthorization(start.body.authorize_url as string);
      const res = await fetch(callback, { redirect: 'manual' });
      const status = res.headers.get('location') ? new URL(res.headers.get('location')!).searchParams.get('connect_status') : null;
      if (status !== 'success') throw new Error(`${network} connect: callback answered ${res.status}, connect_status=${status}`);
      continue;
    }
    const bodies: Record<string, Record<string, string>> = {
      discord: { webhook_url: env.SANDBOX_DISCORD_WEBHOOK_URL! },
      telegram: { bot_token: env.SANDBOX_TELEGRAM_BOT_TOKEN!, chat_id: env.SANDBOX_TELEGRAM_CHAT_ID! },
      bluesky: { identifier: env.SANDBOX_BLUESKY_IDENTIFIER!, app_password: env.SANDBOX_BLUESKY_APP_PASSWORD! },
    };
    if (!bodies[network]) throw new Error(`unknown network ${network}`);
    const res = await b.api.post(`/api/herald/users/${network}/credentials`, { profile_username: profile, ...bodies[network] });
    if (res.status !== 200) throw new Error(`${network} credentials answered ${res.status}: ${JSON.stringify(res.body)}`);
  }
}

/** VmRSS (or another /proc status field) of a process, in bytes; undefined once it is gone. */
export function procStatusBytes(pid: number, field = 'VmRSS'): number | undefined {
  try {
    const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : undefined;
  } catch {
    return undefined;
  }
}

export function describeEnvironment(): string {
  const cpus = os.cpus();
  return `node ${process.version}, ${cpus.length} CPU (${cpus[0]?.model.trim() ?? '?'}), ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB RAM; ` +
    `Temporal ${process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233'}, MongoDB-wire ${(process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017').replace(/\/\/[^@/]*@/, '//')}; ` +
    `load average ${loadAverage()} (other work on the machine skews every figure)`;
}

export function loadAverage(): string {
  return os.loadavg().map((l) => l.toFixed(2)).join(' ');
}

/** User + system CPU time a process has used so far, in milliseconds (from /proc/<pid>/stat). */
export function procCpuMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the whole line: 11 and 12 after the name.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}
/** USER_HZ: 100 on every Linux this runs on (getconf CLK_TCK). */
const CLOCK_TICKS = 100;

// ------------------------------------------------------------------------------------ where the time goes

/**
 * A second API daemon on the bench stack's database, Temporal task queue and Redis prefix, with
 * HERALD_DEBUG_TIMING=true: each answer carries a Server-Timing header saying where the request's
 * time went. Its own process, so the measured API never pays for the bookkeeping (async context
 * tracking costs every request a little).
 */
export async function startTimedApi(b: BenchStack): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  return startExtraApi(b, 'timed-api', { HERALD_DEBUG_TIMING: 'true' });
}

/** A second API daemon on the bench stack's settings plus `env`, on a port of its own. */
export async function startExtraApi(b: BenchStack, name: string, env: Record<string, string>): Promise<{ url: string; pid: number; stop: () => Promise<void> }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // Output to a file, as the stack's daemons (test/support/stack.ts launch): no pipe for a busy bench to stall it.
  const logFile = daemonLogFile(name);
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--enable-source-maps', path.join(ROOT, 'dist/apps/api/main.js')], {
    cwd: ROOT, env: { ...process.env, ...b.stack.env, HERALD_API_PORT: String(port), ...env }, stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const output = () => { try { return readFileSync(logFile, 'utf8'); } catch { return ''; } };
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && !child.signalCode) child.kill('SIGTERM');
    await exited;
  };
  onCleanup(stop);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${name} exited (${child.exitCode}): ${output().slice(-2000)}`);
    if (await fetch(`${url}/healthz`).then((r) => r.status < 500, () => false)) break;
    if (Date.now() > deadline) throw new Error(`${name} not ready after 60 s: ${output().slice(-2000)}`);
    await sleep(150);
  }
  return { url, pid: child.pid!, stop };
}

/**
 * BENCH_VARIANT_ENV (space-separated NAME=value pairs, e.g. `HERALD_RATE_LIMIT_LEASE=1`): the
 * settings of a second API daemon whose copy of `path` runs in the same rounds, so that a setting
 * is compared with the stack's own in one run (same host speed). Undefined when not set.
 */
export async function variantPath(b: BenchStack, path: ComparedPath): Promise<ComparedPath | undefined> {
  const spec = process.env.BENCH_VARIANT_ENV?.trim();
  if (!spec) return undefined;
  const env = Object.fromEntries(spec.split(/\s+/).map((pair) => {
    const at = pair.indexOf('=');
    if (at < 1) throw new Error(`BENCH_VARIANT_ENV: "${pair}" is not NAME=value`);
    return [pair.slice(0, at), pair.slice(at + 1)];
  }));
  const extra = await startExtraApi(b, 'variant-api', env);
  return comparedPath({ label: `${path.label} [${spec}]`, url: path.url.replace(b.stack.apiUrl, extra.url), headers: path.headers, check: path.check, apiPid: extra.pid });
}

/**
 * Sums Server-Timing headers (`name;dur=ms;desc="calls"`) over many answers: per request, how
 * long each dependency took and how often it was called, beside the client-side latency.
 */
export class ServerTiming {
  private readonly spans = new Map<string, { ms: number; n: number }>();
  private requests = 0;
  private totalMs = 0;
  private clientMs = 0;

  add(header: string | null, clientMs: number): void {
    if (!header) return;
    this.requests += 1;
    this.clientMs += clientMs;
    for (const part of header.split(',')) {
      const [name, ...params] = part.trim().split(';');
      const dur = Number(/dur=([\d.]+)/.exec(params.join(';'))?.[1] ?? 0);
      const n = Number(/desc="(\d+)"/.exec(params.join(';'))?.[1] ?? 1);
      if (name === 'total') {
        this.totalMs += dur;
        continue;
      }
      const span = this.spans.get(name!) ?? { ms: 0, n: 0 };
      span.ms += dur;
      span.n += n;
      this.spans.set(name!, span);
    }
  }

  /** Rows: span, calls per request, ms per request, share of the server's time. */
  table(): string {
    const per = (v: number) => v / Math.max(1, this.requests);
    const serverMs = per(this.totalMs);
    // Database round trips are listed beside the repository calls they make up, not added to them.
    const dependencyMs = per([...this.spans].filter(([name]) => name !== 'mongo.commands').reduce((a, [, s]) => a + s.ms, 0));
    const rows: Array<Array<string | number>> = [...this.spans]
      .sort((a, b) => b[1].ms - a[1].ms)
      .map(([name, s]) => [name, per(s.n).toFixed(2), per(s.ms).toFixed(2), name === 'mongo.commands' ? '(within db.*)' : `${((100 * per(s.ms)) / serverMs).toFixed(0)}%`]);
    rows.push(['in the API process itself (routing, validation, JSON, waiting for the event loop)', '', Math.max(0, serverMs - dependencyMs).toFixed(2),
      `${((100 * Math.max(0, serverMs - dependencyMs)) / serverMs).toFixed(0)}%`]);
    rows.push(['= server time (request arrived → answer written)', '', serverMs.toFixed(2), '100%']);
    rows.push(['client latency (incl. connection, queueing in the socket)', '', per(this.clientMs).toFixed(2), '']);
    return `${this.requests} requests\n${table(['span', 'calls/req', 'ms/req', 'share'], rows)}`;
  }
}

// ------------------------------------------------------------------------------------ Herald beside the simulator

/**
 * One path a read bench measures: a Herald endpoint, or the upstream call its adapter makes sent
 * straight to the simulator. `check` says what the answer's body must hold (a 200 with the wrong
 * body fails).
 */
export interface ComparedPath {
  label: string;
  url: string;
  headers: Record<string, string>;
  check: BodyCheck;
  /** The API daemon answering this path (Herald paths): its CPU is counted per phase. */
  apiPid?: number;
  /** Latencies (ms) of the measured phases' good answers, one array per round. */
  rounds: number[][];
  /** Failures of the measured phases, by message. */
  errors: Map<string, number>;
  /** CPU of the measured phases (not the warm-ups): the load client, this process (the simulators) and the API daemon. */
  cpu: { wallMs: number; clientMs: number; benchMs: number; apiMs: number };
}

/** A path to measure, with nothing measured yet. */
export function comparedPath(p: Pick<ComparedPath, 'label' | 'url' | 'headers' | 'check' | 'apiPid'>): ComparedPath {
  return { ...p, rounds: [], errors: new Map(), cpu: { wallMs: 0, clientMs: 0, benchMs: 0, apiMs: 0 } };
}

/** The body holds an array at `key` of exactly `length` items. */
export const listOf = (key: string, length: number): BodyCheck => ({ array: [key], length });

/**
 * Every path in turn, `rounds` times: a warm-up, then `seconds` of `concurrency` clients. Phases
 * alternate, so load from elsewhere on the machine colours Herald and the simulator alike. The
 * requests are sent by a load client in a process of its own (load-client.ts: why).
 */
export async function runAlternating(
  tag: string, paths: ComparedPath[], o: { rounds: number; warmup: number; concurrency: number; seconds: number },
): Promise<void> {
  const client = await LoadClient.start();
  onCleanup(() => client.stop());
  say(`[${tag}] load client: pid ${client.pid()}, ${client.kind === 'http' ? 'node:http keep-alive agent' : 'fetch'} (BENCH_CLIENT)`);
  const benchCpuMs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const load = (p: ComparedPath, count: number, timeLimitMs: number) =>
    client.run({ url: p.url, headers: p.headers, check: p.check, count, timeLimitMs, concurrency: o.concurrency });
  for (let round = 1; round <= o.rounds; round++) {
    for (const p of paths) {
      const warm = await load(p, o.warmup, 60_000);
      // A warm-up that fails says the run is not valid before anything is measured.
      if (warm.errors.length) throw new Error(`${p.label}: warm-up failed: ${warm.errors.slice(0, 3).map(([e, n]) => `${n}× ${e}`).join('; ')}`);
      const apiCpuMs = () => (p.apiPid ? procCpuMs(p.apiPid) ?? 0 : 0);
      const [bench0, api0] = [benchCpuMs(), apiCpuMs()];
      const r = await load(p, Number.MAX_SAFE_INTEGER, o.seconds * 1000);
      p.cpu.wallMs += r.wallMs;
      p.cpu.clientMs += r.cpuMs;
      p.cpu.benchMs += benchCpuMs() - bench0;
      p.cpu.apiMs += apiCpuMs() - api0;
      p.rounds.push(r.latencies);
      for (const [e, n] of r.errors) p.errors.set(e, (p.errors.get(e) ?? 0) + n);
      say(`[${tag}] round ${round}: ${p.label}: ${r.latencies.length} ok${r.errors.length ? `, ${r.errors.reduce((a, [, n]) => a + n, 0)} failed` : ''}`);
    }
  }
}

/**
 * The latency table of every path, then per pair (simulator path, Herald path, name) Herald's p99
 * beside the simulator's and the difference against `goalMs`, then the failures of each path.
 */
export function reportOverhead(title: string, paths: ComparedPath[], pairs: ReadonlyArray<readonly [number, number, string]>, goalMs: number): void {
  heading(title);
  const lat = paths.map((p) => summarize(p.rounds.flat()));
  say(table(['path', 'ok', 'p50', 'p90', 'p99', 'max'], paths.map((p, i) => [p.label, lat[i]!.n, ms(lat[i]!.p50), ms(lat[i]!.p90), ms(lat[i]!.p99), ms(lat[i]!.max)])));
  say('CPU per answered request (ms): the load client (a process of its own), this process (the simulators) and the API daemon (Herald paths)');
  say(table(['path', 'answers/s', 'load client', 'simulators', 'API daemon'], paths.map((p, i) => {
    const n = lat[i]!.n + [...p.errors.values()].reduce((a, b) => a + b, 0);
    return [p.label, (n / (p.cpu.wallMs / 1000)).toFixed(0), (p.cpu.clientMs / n).toFixed(3), (p.cpu.benchMs / n).toFixed(3), (p.cpu.apiMs / n).toFixed(3)];
  })));
  const roundP99 = (p: ComparedPath) => p.rounds.map((l) => summarize(l).p99);
  if (paths.every((p) => p.rounds.length > 1)) {
    say('p99 of each round (ms); a round runs every path in turn, so its paths saw the same state of the host');
    say(table(['path', ...paths[0]!.rounds.map((_, i) => `round ${i + 1}`)], paths.map((p) => [p.label, ...roundP99(p).map(ms)])));
  }
  for (const [sim, mine, name] of pairs) {
    const overhead = lat[mine]!.p99 - lat[sim]!.p99;
    const perRound = roundP99(paths[mine]!).map((v, i) => v - (roundP99(paths[sim]!)[i] ?? NaN));
    say(`${name}: Herald p99 ${ms(lat[mine]!.p99)} ms beside the simulator's own p99 ${ms(lat[sim]!.p99)} ms: overhead ${ms(overhead)} ms (goal ≤ ${goalMs} ms: ${overhead <= goalMs ? 'met' : 'NOT met'})` +
      (perRound.length > 1 ? `; per round ${perRound.map(ms).join(', ')}` : ''));
  }
  for (const p of paths) {
    const errors = [...p.errors].sort((a, b) => b[1] - a[1]);
    if (errors.length) say(`${p.label}: failures: ${errors.slice(0, 5).map(([e, n]) => `${n}× ${e}`).join('; ')}`);
  }
}

/**
 * Where Herald's time goes on `heraldPaths`: a second API process with HERALD_DEBUG_TIMING
 * answers `requests` of each, and the Server-Timing headers are summed (ServerTiming).
 */
export async function timingBreakdown(b: BenchStack, heraldPaths: ComparedPath[], o: { requests: number; concurrency: number }): Promise<void> {
  if (!o.requests) return;
  const timed = await startTimedApi(b);
  for (const p of heraldPaths) {
    heading(`where the time of ${p.label} goes (HERALD_DEBUG_TIMING API, ${o.requests} requests, ${o.concurrency} clients)`);
    const url = p.url.replace(b.stack.apiUrl, timed.url);
    const tally = new ServerTiming();
    await boundedLoop(o.requests, o.concurrency, 120_000, async () => {
      const t0 = performance.now();
      const res = await fetch(url, { headers: p.headers });
      await res.text();
      tally.add(res.headers.get('server-timing'), performance.now() - t0);
      return res.status === 200 ? { ok: true } : { ok: false, error: `HTTP ${res.status}` };
    });
    say(tally.table());
  }
  await timed.stop();
}

/** A Bluesky session of the sandbox account, as the adapter opens one: for calls straight to the simulator. */
export async function blueskySession(b: BenchStack): Promise<{ did: string; accessJwt: string; base: string }> {
  const env = b.sandbox.env;
  const base = env.BLUESKY_API_BASE!;
  const session = await fetch(`${base}/xrpc/com.atproto.server.createSession`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: env.SANDBOX_BLUESKY_IDENTIFIER, password: env.SANDBOX_BLUESKY_APP_PASSWORD }),
  }).then((r) => r.json() as Promise<{ did: string; accessJwt: string }>);
  return { ...session, base };
}

/**
 * A Threads token of the sandbox account (the simulator's default scopes, or `scopes`: reading
 * replies needs threads_read_replies, as Herald's connection has) and the simulator's Graph base
 * (`<apiBase>/<version>`).
 */
export function threadsAccess(b: BenchStack, scopes?: string[]): { token: string; userId: string; graph: string } {
  const account = b.sandbox.accounts.threads;
  const sim = b.sandbox.simulators.threads;
  const token = sim.issueToken(account.accountId, { clientId: account.clientId, ...(scopes ? { scopes } : {}) }).accessToken;
  return { token, userId: account.accountId, graph: `${sim.apiBase}/${sim.apiVersion}` };
}

// ------------------------------------------------------------------------------------ own Temporal

/** The SQLite pragmas ops/infra.sh gives the Temporal dev server. */
export const OPS_TEMPORAL_PRAGMAS = ['--sqlite-pragma', 'journal_mode=wal', '--sqlite-pragma', 'synchronous=normal'];
/** Every setting ops/infra.sh gives the Temporal dev server (keep in step with it). */
export const OPS_TEMPORAL_ARGS = [...OPS_TEMPORAL_PRAGMAS, '--dynamic-config-value', 'system.enableActivityEagerExecution=true'];

/**
 * A throwaway Temporal dev server of the bench's own (own ports, database file in a temporary
 * directory, no UI), so that figures can be taken with other server settings than the shared
 * one's without touching it. Stopped and deleted at the end.
 */
export async function startOwnTemporal(args: string[]): Promise<{ address: string; pid: number; stop: () => Promise<void> }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-bench-temporal-'));
  const [port, httpPort, metricsPort] = [await freePort(), await freePort(), await freePort()];
  const child = spawn(path.join(ROOT, '.tools/bin/temporal'), [
    'server', 'start-dev', '--ip', '127.0.0.1', '--port', String(port), '--http-port', String(httpPort), '--metrics-port', String(metricsPort),
    '--headless', '--db-filename', path.join(dir, 'temporal.db'), '--log-level', 'error', ...args,
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  const stderr: string[] = [];
  child.stderr!.on('data', (d: Buffer) => stderr.push(d.toString()));
  const exited = new Promise<void>((resolve) => child.on('close', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && !child.signalCode) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  onCleanup(stop);
  const address = `127.0.0.1:${port}`;
  // Serving comes before the default namespace exists: wait for the namespace, as ops/infra.sh does.
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`own Temporal dev server exited (${child.exitCode}): ${stderr.join('').slice(-2000)}`);
    const ok = await new Promise<boolean>((resolve) => {
      const probe = spawn(path.join(ROOT, '.tools/bin/temporal'), ['operator', 'namespace', 'describe', '--address', address, '--namespace', 'default'], { stdio: 'ignore' });
      probe.on('close', (code) => resolve(code === 0));
    });
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`own Temporal dev server not ready after 90 s: ${stderr.join('').slice(-2000)}`);
    await sleep(500);
  }
  return { address, pid: child.pid!, stop };
}

/**
 * CPU milliseconds used so far by every process whose command name (`/proc/<pid>/comm`) is one of
 * `names` (e.g. the shared FerretDB and PostgreSQL: that includes work done for anyone else), and
 * by the whole machine (all CPUs, from /proc/stat). Differences of two readings are what counts.
 */
export function cpuByName(names: string[]): { byName: Record<string, number>; machineMs: number } {
  const byName: Record<string, number> = Object.fromEntries(names.map((n) => [n, 0]));
  for (const pid of readdirSync('/proc').filter((e) => /^\d+$/.test(e))) {
    try {
      const comm = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
      if (!names.includes(comm)) continue;
      byName[comm]! += procCpuMs(Number(pid)) ?? 0;
    } catch {
      // gone meanwhile
    }
  }
  const cpuLine = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.split(/\s+/).slice(1).map(Number);
  // user nice system (idle iowait excluded) irq softirq steal
  const busy = cpuLine[0]! + cpuLine[1]! + cpuLine[2]! + cpuLine[5]! + cpuLine[6]! + cpuLine[7]!;
  return { byName, machineMs: (busy * 1000) / CLOCK_TICKS };
}

/**
 * BENCH_TEMPORAL: `shared` (default) uses TEMPORAL_ADDRESS as it is; `own` starts a throwaway dev
 * server with ops/infra.sh's settings (plus BENCH_TEMPORAL_ARGS, space-separated) and points
 * TEMPORAL_ADDRESS (this bench and the daemons it starts) at it. Call before starting the stack.
 */
export async function chooseTemporal(): Promise<{ description: string; pid?: number }> {
  const choice = process.env.BENCH_TEMPORAL ?? 'shared';
  if (choice === 'shared') return { description: `the shared dev server at ${process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233'} (as it was started)` };
  if (choice !== 'own') throw new Error(`BENCH_TEMPORAL must be shared or own, not "${choice}"`);
  const args = [...OPS_TEMPORAL_ARGS, ...(process.env.BENCH_TEMPORAL_ARGS ?? '').split(' ').filter(Boolean)];
  const own = await startOwnTemporal(args);
  process.env.TEMPORAL_ADDRESS = own.address;
  return { description: `a dev server of this bench's own at ${own.address} (${args.join(' ')})`, pid: own.pid };
}

/** The knobs of the list-overhead benches (media-library, comments), with their shared defaults. */
export function listBenchKnobs() {
  return {
    CONCURRENCY: envInt('BENCH_CONCURRENCY', 20),
    SECONDS: envInt('BENCH_SECONDS', 5),
    // 4 rounds of 5 s: 20 s per path. With 10 s the p99 rested on a few pauses of the bench process (client and simulators share it).
    ROUNDS: envInt('BENCH_ROUNDS', 4),
    // 2,000 requests (about a second) before each phase: with 200 a freshly started API process was still warming up (JIT, heap sizes) in round 1.
    WARMUP: envInt('BENCH_WARMUP', 2000, 0),
    LIMIT: 25,
    GOAL_MS: 10,
    TIMING_REQUESTS: envInt('BENCH_TIMING_REQUESTS', 1000, 0),
  };
}
