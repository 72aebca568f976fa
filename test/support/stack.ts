import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import { createServer } from 'node:net';
import path from 'node:path';
import { MongoClient } from 'mongodb';

/**
 * The end-to-end harness: the real API and worker daemons (built into dist/) against the real
 * Temporal dev server, MongoDB-wire database and Redis that `bash ops/infra.sh up` started.
 * Each stack gets its own database and task queue, so stacks never see each other's work.
 */
export const ROOT = path.resolve(__dirname, '../..');
const DIST = path.join(ROOT, 'dist/apps');

/**
 * A port for a daemon that binds it later. Drawn below the kernel's ephemeral range (32768-60999
 * on Linux), where nothing that binds port 0 (every simulator, every client socket) can be handed
 * it in the meantime; checked free here, tried again when taken.
 */
export async function freePort(): Promise<number> {
  const LOW = 20_000;
  const HIGH = 32_000;
  for (let attempt = 0; attempt < 50; attempt += 1) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW));
    const free = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error(`no free port between ${LOW} and ${HIGH} after 50 tries`);
}

function infraEnv(): { temporal: string; mongo: string; redis: string } {
  return {
    temporal: process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233',
    mongo: process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017/herald',
    redis: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  };
}

export function withDatabase(uri: string, db: string): string {
  const url = new URL(uri);
  url.pathname = `/${db}`;
  return url.toString();
}

export interface Daemon {
  name: string;
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

/** Daemon output files of this test process, removed when it exits. */
let logDir: string | undefined;
export function daemonLogFile(name: string): string {
  if (!logDir) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-daemon-logs-'));
    logDir = dir;
    process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  }
  return path.join(logDir, `${name}-${randomBytes(4).toString('hex')}.log`);
}

/**
 * A daemon as a child process. Its stdout and stderr go to a file, as under a process supervisor
 * (journald, a container runtime): a daemon's synchronous log writes never wait for this process
 * to read a pipe, which under load (a benchmark, a busy test) would stall the daemon itself.
 * `output` reads the file. `pipe: true` (the CLI) keeps pipes, for stdout as the command's answer.
 */
function launch(name: string, script: string, env: Record<string, string>, args: string[] = [], opts: { pipe?: boolean } = {}): Daemon {
  const file = path.join(DIST, script);
  if (!existsSync(file)) throw new Error(`${file} is missing: build first (npx tsc -p tsconfig.json), as ops/test.sh does.`);
  // HERALD_PROF_DAEMON=api,worker writes V8 CPU profiles of those daemons to HERALD_PROF_DIR (default /tmp/herald-prof).
  const profiled = (process.env.HERALD_PROF_DAEMON ?? '').split(',').includes(name);
  const prof = profiled ? ['--cpu-prof', `--cpu-prof-dir=${process.env.HERALD_PROF_DIR ?? '/tmp/herald-prof'}`] : [];
  if (opts.pipe) {
    const child = spawn(process.execPath, ['--enable-source-maps', ...prof, file, ...args], {
      cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    const output: string[] = [];
    child.stdout!.on('data', (b: Buffer) => output.push(b.toString()));
    child.stderr!.on('data', (b: Buffer) => output.push(b.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    return { name, child, output, exited };
  }
  const logFile = daemonLogFile(name);
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, ['--enable-source-maps', ...prof, file, ...args], {
    cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  return {
    name, child, exited,
    get output() {
      try {
        return [readFileSync(logFile, 'utf8')];
      } catch {
        return [];
      }
    },
  };
}

async function waitFor(what: string, daemon: Daemon, ready: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (daemon.child.exitCode !== null) throw new Error(`${what} exited (${daemon.child.exitCode}):\n${daemon.output.join('').slice(-3000)}`);
    if (await ready().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`${what} not ready after ${timeoutMs} ms:\n${daemon.output.join('').slice(-3000)}`);
}

export interface Stack {
  apiUrl: string;
  env: Record<string, string>;
  api: Daemon;
  /** Further API daemons (startApi), stopped with the stack. */
  apis: Daemon[];
  /** Another API daemon over the same database, Redis and Temporal on a port of its own, as behind a balancer; answers its base URL. */
  startApi(): Promise<string>;
  worker: Daemon | null;
  /** Every worker started, the latest last (stop() ends them all). */
  workers: Daemon[];
  /** Starts a worker daemon; `extraEnv` adds to the stack's environment (`HERALD_WORKER_POOLS=notify`). */
  startWorker(extraEnv?: Record<string, string>): Promise<Daemon>;
  /** The connect page daemon (apps/web) on HERALD_WEB_PORT, at `webUrl`; started on demand. */
  webUrl: string;
  web: Daemon | null;
  startWeb(): Promise<Daemon>;
  /** The MCP daemon (apps/mcp) on HERALD_MCP_PORT: Streamable HTTP at `${mcpUrl}/mcp`; started on demand. */
  mcpUrl: string;
  mcp: Daemon | null;
  startMcp(): Promise<Daemon>;
  killWorker(signal?: NodeJS.Signals): Promise<void>;
  cli(...args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }>;
  /** Creates an operator account and returns a fresh API key for it. */
  newApiKey(email: string, plan?: string): Promise<string>;
  stop(): Promise<void>;
}

export async function startStack(extraEnv: Record<string, string> = {}): Promise<Stack> {
  const infra = infraEnv();
  const id = randomBytes(4).toString('hex');
  const dbName = `herald_e2e_${id}`;
  const port = extraEnv.HERALD_API_PORT ? Number(extraEnv.HERALD_API_PORT) : await freePort();
  const env: Record<string, string> = {
    HERALD_API_PORT: String(port),
    HERALD_API_HOST: '127.0.0.1',
    MONGODB_URI: withDatabase(infra.mongo, dbName),
    REDIS_URL: infra.redis,
    TEMPORAL_ADDRESS: infra.temporal,
    HERALD_TASK_QUEUE: `herald-e2e-${id}`,
    HERALD_REDIS_PREFIX: `herald-e2e-${id}`,
    HERALD_SECRET_KEY: randomBytes(32).toString('base64'),
    HERALD_SHUTDOWN_GRACE_MS: '5000',
    // Every answer checked against the catalogue: a mismatch is a 500 the test sees.
    HERALD_CHECK_RESPONSES: 'true',
    ...extraEnv,
  };
  const apiUrl = `http://127.0.0.1:${port}`;
  if (!env.HERALD_WEB_PORT) env.HERALD_WEB_PORT = String(await freePort());
  const webUrl = env.HERALD_WEB_PUBLIC_URL ?? `http://127.0.0.1:${env.HERALD_WEB_PORT}`;
  if (!env.HERALD_MCP_PORT) env.HERALD_MCP_PORT = String(await freePort());
  const mcpUrl = env.HERALD_MCP_PUBLIC_URL ?? `http://127.0.0.1:${env.HERALD_MCP_PORT}`;
  const api = launch('api', 'api/main.js', env);
  await waitFor('api', api, async () => (await fetch(`${apiUrl}/healthz`)).status < 500, 60_000);

  const stack: Stack = {
    apiUrl,
    env,
    api,
    apis: [],
    async startApi() {
      const other = String(await freePort());
      const daemon = launch('api', 'api/main.js', { ...env, HERALD_API_PORT: other });
      stack.apis.push(daemon);
      const url = `http://127.0.0.1:${other}`;
      await waitFor('api', daemon, async () => (await fetch(`${url}/healthz`)).status < 500, 60_000);
      return url;
    },
    worker: null,
    workers: [],
    webUrl,
    web: null,
    async startWeb() {
      const web = launch('web', 'web/main.js', env);
      stack.web = web;
      await waitFor('web', web, async () => (await fetch(`${webUrl}/healthz`)).status === 200, 60_000);
      return web;
    },
    mcpUrl,
    mcp: null,
    async startMcp() {
      const mcp = launch('mcp', 'mcp/main.js', env);
      stack.mcp = mcp;
      await waitFor('mcp', mcp, async () => (await fetch(`${mcpUrl}/healthz`)).status === 200, 60_000);
      return mcp;
    },
    async startWorker(extra: Record<string, string> = {}) {
      const worker = launch('worker', 'worker/main.js', { ...env, ...extra });
      stack.worker = worker;
      stack.workers.push(worker);
      await waitFor('worker', worker, async () => worker.output.join('').includes('herald worker running'), 90_000);
      return worker;
    },
    async killWorker(signal: NodeJS.Signals = 'SIGKILL') {
      const worker = stack.worker;
      if (!worker || worker.child.exitCode !== null) return;
      worker.child.kill(signal);
      await worker.exited;
      stack.worker = null;
    },
    cli(...args: string[]) {
      const cli = launch('cli', 'cli/main.js', env, args, { pipe: true });
      const stdout: string[] = [];
      cli.child.stdout!.on('data', (b: Buffer) => stdout.push(b.toString()));
      return cli.exited.then((code) => ({ code, stdout: stdout.join(''), stderr: cli.output.join('') }));
    },
    async newApiKey(email: string, plan = 'business') {
      const ensured = await stack.cli('account', 'ensure', '--email', email, '--plan', plan);
      if (ensured.code !== 0) throw new Error(`account ensure failed: ${ensured.stdout}`);
      const created = await stack.cli('key', 'create', '--email', email, '--name', 'e2e');
      if (created.code !== 0) throw new Error(`key create failed: ${created.stdout}`);
      const key = created.stdout.trim().split('\n').filter((l) => l.startsWith('hk_')).pop();
      if (!key) throw new Error(`no key printed: ${created.stdout}`);
      return key;
    },
    async stop() {
      await stack.killWorker('SIGTERM');
      await Promise.all(stack.workers.filter((w) => w.child.exitCode === null).map((w) => {
        w.child.kill('SIGTERM');
        return w.exited;
      }));
      for (const daemon of [stack.web, stack.mcp]) {
        if (daemon && daemon.child.exitCode === null) {
          daemon.child.kill('SIGTERM');
          await daemon.exited;
        }
      }
      for (const daemon of [...stack.apis, api]) {
        if (daemon.child.exitCode === null) {
          daemon.child.kill('SIGTERM');
          await daemon.exited;
        }
      }
      const client = await MongoClient.connect(env.MONGODB_URI, { serverSelectionTimeoutMS: 5000 });
      await client.db().dropDatabase().catch(() => undefined);
      await client.close();
    },
  };
  return stack;
}

/** A tiny HTTP client for the API with the key set. */
export function apiClient(baseUrl: string, key: string) {
  const send = (method: string, pathAndQuery: string, body: unknown, headers: Record<string, string>) => fetch(`${baseUrl}${pathAndQuery}`, {
    method,
    headers: { Authorization: `Apikey ${key}`, ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const call = async (method: string, pathAndQuery: string, body?: unknown, headers: Record<string, string> = {}) => {
    let res: Response;
    try {
      res = await send(method, pathAndQuery, body, headers);
    } catch (err) {
      // A GET on a kept-alive connection the server closed meanwhile is sent again once, on a new
      // connection, as HTTP clients do for idempotent requests; a daemon that died fails again.
      if (method !== 'GET') throw err;
      res = await send(method, pathAndQuery, body, { ...headers, Connection: 'close' });
    }
    const text = await res.text();
    let json: any;
    try { json = JSON.parse(text); } catch { json = { raw: text }; }
    return { status: res.status, headers: res.headers, body: json };
  };
  return {
    get: (p: string, headers?: Record<string, string>) => call('GET', p, undefined, headers),
    post: (p: string, body: unknown, headers?: Record<string, string>) => call('POST', p, body, headers),
    delete: (p: string, body?: unknown) => call('DELETE', p, body),
    patch: (p: string, body: unknown) => call('PATCH', p, body),
  };
}

/**
 * Moves a scheduled post to `aheadMs` from now (PATCH, with any other edited `fields`), so a test
 * can schedule far ahead, do what it must before the post runs, then let it run. A loaded machine
 * may deliver the edit after that moment, which answers 400 for a date in the past: the edit is
 * then sent again further ahead, so no test depends on the machine being fast.
 */
export async function rescheduleSoon(api: ReturnType<typeof apiClient>, jobId: string, fields: Record<string, unknown> = {}, aheadMs = 2000) {
  for (let ahead = aheadMs; ahead <= 64 * aheadMs; ahead *= 2) {
    const res = await api.patch(`/api/herald/schedule/${encodeURIComponent(jobId)}`, { ...fields, scheduled_date: new Date(Date.now() + ahead).toISOString() });
    if (res.status !== 400 || res.body.violations?.[0]?.field !== 'scheduled_date') return res;
  }
  throw new Error(`could not move job ${jobId} to a near time: every date was past before the API read it`);
}

/** Resolves with `p`, or fails after `ms`: a workflow that never ends must fail the test, not hang it. */
export async function within<T>(ms: number, what: string, p: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what} not done after ${ms} ms`)), ms); });
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export async function eventually<T>(fn: () => Promise<T>, ok: (value: T) => boolean, timeoutMs = 30_000, everyMs = 250): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await fn();
  while (!ok(last)) {
    if (Date.now() > deadline) throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(last).slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, everyMs));
    last = await fn();
  }
  return last;
}

/**
 * A request sent on a kept-alive connection at the moment the API closes it as idle fails with
 * "other side closed" before the API read anything (a race of keep-alive, not an answer): sent
 * once more, which then goes on a new connection. Any other failure fails the test.
 */
export async function onFreshSocketIfClosed<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (err) {
    if (!/other side closed/.test(String((err as { cause?: unknown }).cause))) throw err;
    return send();
  }
}
