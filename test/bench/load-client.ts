/**
 * The list benches' load client: a Node process of its own that sends GETs with a fixed number
 * of requests in flight and sends the latencies back over IPC (started by `LoadClient.start` with
 * child_process.fork).
 *
 * Why a process of its own: the bench process hosts the simulators. With the clients in that
 * process too, a Herald request waits on the bench's event loop twice (the simulator's answer,
 * then the client's receipt) where a request sent straight to the simulator waits on it once, so
 * any pause of the bench process (a scavenge, a burst of callbacks) was counted against Herald
 * twice. Here each path crosses the client's loop once and the simulators' loop once.
 *
 * BENCH_CLIENT picks the HTTP client: `http` (node:http with a keep-alive agent of `concurrency`
 * sockets: the default, about a third of fetch's CPU per request, so the client takes less of
 * the two cores away from what is measured) or `fetch` (Node's fetch, as before).
 */
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { boundedLoop } from './loop';

/** What the answer's body must hold: the array at `array` (a key path) with exactly `length` items. */
export interface BodyCheck {
  array: string[];
  length: number;
}

export interface LoadRequest {
  url: string;
  headers: Record<string, string>;
  check: BodyCheck;
  /** Requests to send at most, and the time after which no new one is sent. */
  count: number;
  timeLimitMs: number;
  concurrency: number;
}

export interface LoadResult {
  /** Latencies (ms) of the answers that passed the check, in the order they arrived. */
  latencies: number[];
  /** Failure messages with their counts. */
  errors: Array<[string, number]>;
  wallMs: number;
  /** CPU this client process spent on the run. */
  cpuMs: number;
}

type ClientKind = 'http' | 'fetch';

/** `check` against a parsed body: undefined when it passes, else what is wrong. */
export function checkBody(body: unknown, check: BodyCheck): string | undefined {
  let at: unknown = body;
  for (const key of check.array) at = at !== null && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined;
  if (!Array.isArray(at)) return `no array at ${check.array.join('.')}`;
  return at.length === check.length ? undefined : `${at.length} items at ${check.array.join('.')}, expected ${check.length}`;
}

// ------------------------------------------------------------------------------------ parent side

/** The client process, seen from the bench. */
export class LoadClient {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (r: LoadResult) => void; reject: (e: Error) => void }>();

  private constructor(private readonly child: import('node:child_process').ChildProcess, readonly kind: ClientKind) {
    child.on('message', (m: { id: number; result?: LoadResult; error?: string }) => {
      const waiting = this.pending.get(m.id);
      if (!waiting) return;
      this.pending.delete(m.id);
      if (m.result) waiting.resolve(m.result);
      else waiting.reject(new Error(`load client: ${m.error}`));
    });
    child.on('exit', (code, signal) => {
      for (const w of this.pending.values()) w.reject(new Error(`load client exited (${code ?? signal})`));
      this.pending.clear();
    });
  }

  /** Forks the client (BENCH_CLIENT: `http` or `fetch`). */
  static async start(): Promise<LoadClient> {
    const kind = (process.env.BENCH_CLIENT ?? 'http') as ClientKind;
    if (kind !== 'http' && kind !== 'fetch') throw new Error(`BENCH_CLIENT must be http or fetch, not "${String(kind)}"`);
    const { fork } = await import('node:child_process');
    const child = fork(__filename, [kind], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], serialization: 'advanced' });
    await new Promise<void>((resolve, reject) => {
      child.once('message', () => resolve());
      child.once('exit', (code) => reject(new Error(`load client exited (${code}) before it was ready`)));
    });
    return new LoadClient(child, kind);
  }

  run(request: LoadRequest): Promise<LoadResult> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.child.send({ id, request });
    });
  }

  pid(): number {
    return this.child.pid!;
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    await exited;
  }
}

// ------------------------------------------------------------------------------------ child side

/** GETs over one keep-alive agent of `concurrency` sockets. */
function httpGetter(concurrency: number) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  return (url: string, headers: Record<string, string>): Promise<{ status: number; text: string }> => new Promise((resolve, reject) => {
    const req = http.get(url, { headers, agent }, (res) => {
      res.setEncoding('utf8');
      let text = '';
      res.on('data', (chunk: string) => { text += chunk; });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

async function fetchGet(url: string, headers: Record<string, string>): Promise<{ status: number; text: string }> {
  const res = await fetch(url, { headers });
  return { status: res.status, text: await res.text() };
}

async function serve(kind: ClientKind): Promise<void> {
  const send = (m: unknown) => process.send!(m);
  const getters = new Map<number, ReturnType<typeof httpGetter>>();
  process.on('message', (m: { id: number; request: LoadRequest }) => {
    const { id, request: r } = m;
    let get = kind === 'fetch' ? fetchGet : getters.get(r.concurrency);
    if (!get) getters.set(r.concurrency, (get = httpGetter(r.concurrency)));
    const cpu0 = process.cpuUsage();
    boundedLoop(r.count, r.concurrency, r.timeLimitMs, async () => {
      const res = await get(r.url, r.headers);
      if (res.status !== 200) return { ok: false, error: `HTTP ${res.status} ${res.text.slice(0, 120)}` };
      const wrong = checkBody(JSON.parse(res.text), r.check);
      return wrong ? { ok: false, error: `unexpected body (${wrong}) ${res.text.slice(0, 120)}` } : { ok: true };
    }).then((loop) => {
      const cpu = process.cpuUsage(cpu0);
      const errors = new Map<string, number>();
      const latencies: number[] = [];
      for (const o of loop.outcomes) {
        if (o.ok) latencies.push(o.latencyMs);
        else errors.set(o.error ?? 'failed', (errors.get(o.error ?? 'failed') ?? 0) + 1);
      }
      send({ id, result: { latencies, errors: [...errors], wallMs: loop.wallMs, cpuMs: (cpu.user + cpu.system) / 1000 } satisfies LoadResult });
    }, (err: unknown) => send({ id, error: err instanceof Error ? err.message : String(err) }));
  });
  process.on('disconnect', () => process.exit(0));
  send({ ready: performance.now() });
}

if (require.main === module) {
  void serve(process.argv[2] === 'fetch' ? 'fetch' : 'http');
}
