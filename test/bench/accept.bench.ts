/**
 * Async-accept latency: how fast Herald answers `POST /api/upload_text` with `async_upload=true`
 * (store the upload, start its Temporal workflow, answer 202), next to a bare Temporal
 * workflow-start loop with the same concurrency and count, so Herald's own overhead is visible.
 *
 * Phases, all in one run against one sandbox + stack (own database and task queue):
 *   - temporal: a @temporalio/client Client starts a no-op workflow type on an unused task queue
 *     (no worker: starting only), `BENCH_REQUESTS` times;
 *   - herald-busy: the API while the worker publishes the uploads as they arrive (same machine,
 *     so both compete for the CPU);
 *   - herald-idle (opt-in): the API alone with the worker stopped (the workflows wait in Temporal),
 *     then the worker is started and drains the backlog. Opt-in because draining a backlog of ~2000
 *     uploads wedged FerretDB v1.24.2 twice (every PostgreSQL pool connection taken, nothing
 *     answered any more, also for everyone else sharing it): run it against a FerretDB of its own
 *     (MONGODB_URI=...) if at all.
 * Each phase is preceded by `BENCH_WARMUP` unmeasured requests. Then `BENCH_TIMING_REQUESTS`
 * accepts go to a second API process with HERALD_DEBUG_TIMING=true (worker running): its
 * Server-Timing headers say where an accept's time goes (auth guard, rate limit, each database
 * call, the workflow start), and how many database round trips it makes. At the end every accepted upload
 * must be `completed` with all targets succeeded, and the Discord simulator must hold exactly one
 * message per accepted upload (nothing lost, nothing published twice).
 *
 * The whole machine's CPU is read around each measured loop, and for herald-busy from its first
 * measured accept until the last upload is published: it prints what a bare start and an
 * accepted-and-published upload each cost, and the steady-state bound that puts on the ratio.
 *
 * Knobs: BENCH_REQUESTS (1000), BENCH_CONCURRENCY (20), BENCH_WARMUP (100), BENCH_TIMING_REQUESTS (200),
 * BENCH_TIME_LIMIT_S per phase (180), BENCH_DRAIN_TIMEOUT_S (1200),
 * BENCH_ACCEPT_PHASES (temporal,herald-busy; add herald-idle to also measure the API alone),
 * BENCH_TEMPORAL (shared|own: a throwaway dev server with ops/infra.sh's settings), BENCH_TEMPORAL_ARGS.
 */
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Client, Connection } from '@temporalio/client';
import {
  boundedLoop, chooseTemporal, connectNetworks, cpuByName, describeEnvironment, envInt, envList, errorCounts, heading, ms, onCleanup, procCpuMs, runMain,
  say, ServerTiming, sleep, startBenchStack, startTimedApi, summarize, table, type BenchStack, type LoopResult,
} from './support';

const REQUESTS = envInt('BENCH_REQUESTS', 1000);
const CONCURRENCY = envInt('BENCH_CONCURRENCY', 20);
const WARMUP = envInt('BENCH_WARMUP', 100, 0);
const TIME_LIMIT_MS = envInt('BENCH_TIME_LIMIT_S', 180) * 1000;
const DRAIN_TIMEOUT_MS = envInt('BENCH_DRAIN_TIMEOUT_S', 1200) * 1000;
const PHASES = envList('BENCH_ACCEPT_PHASES', ['temporal', 'herald-busy']);
const TIMING_REQUESTS = envInt('BENCH_TIMING_REQUESTS', 200, 0);
const PROFILE = 'bench';

interface PhaseRow {
  label: string;
  loop: LoopResult<string>;
  apiCpuMs?: number;
  workerCpuMs?: number;
  /** CPU of the whole machine during the measured loop (every process: bench client, API, Temporal, database…). */
  machineCpuMs?: number;
}

const machineCpuMs = () => cpuByName([]).machineMs;

async function main(): Promise<void> {
  const unknownPhase = PHASES.filter((p) => !['temporal', 'herald-idle', 'herald-busy'].includes(p));
  if (unknownPhase.length) throw new Error(`BENCH_ACCEPT_PHASES: unknown ${unknownPhase.join(', ')}`);
  heading('accept: async upload_text accept latency vs bare Temporal workflow start');
  say(describeEnvironment());
  say(`requests ${REQUESTS} per phase, concurrency ${CONCURRENCY}, warm-up ${WARMUP}, time limit ${TIME_LIMIT_MS / 1000} s per phase, phases ${PHASES.join(', ')}`);
  say(`Temporal: ${(await chooseTemporal()).description}`);

  const b = await startBenchStack({ name: 'accept', worker: false, profile: PROFILE });
  await connectNetworks(b, PROFILE, ['discord']);
  const rows: PhaseRow[] = [];
  const run = randomBytes(3).toString('hex');
  let accepted = 0;
  let acceptedAndPublished: { cpuMs: number; uploads: number } | undefined;
  const drainRows: Array<Array<string | number>> = [];

  if (PHASES.includes('temporal')) rows.push(announce(await temporalPhase(run)));

  if (PHASES.includes('herald-idle')) {
    const before = accepted;
    accepted += await heraldLoop(b, `${run}-idle-warm`, WARMUP);
    const row = announce(await measuredHerald(b, `${run}-idle`, 'herald accept, worker stopped'));
    accepted += row.loop.outcomes.filter((o) => o.ok).length;
    rows.push(row);
    say(`[accept] starting the worker to drain ${accepted - before} queued uploads…`);
    await b.stack.startWorker();
    drainRows.push(await drain(b, 'worker stopped → started', accepted, accepted - before));
  }

  if (PHASES.includes('herald-busy')) {
    if (!b.stack.worker) await b.stack.startWorker();
    const before = accepted;
    accepted += await heraldLoop(b, `${run}-busy-warm`, WARMUP);
    // Everything the machine does from the first measured accept until the last upload is
    // published: the CPU an accepted-and-published upload costs, against a bare start's.
    const cpu0 = machineCpuMs();
    const row = announce(await measuredHerald(b, `${run}-busy`, 'herald accept, worker running'));
    const measured = row.loop.outcomes.filter((o) => o.ok).length;
    accepted += measured;
    rows.push(row);
    drainRows.push(await drain(b, 'worker running', accepted, accepted - before));
    acceptedAndPublished = { cpuMs: machineCpuMs() - cpu0, uploads: measured };
  }

  let timing: ServerTiming | undefined;
  if (TIMING_REQUESTS) {
    if (!b.stack.worker) await b.stack.startWorker();
    const timed = await startTimedApi(b);
    timing = new ServerTiming();
    const tally = timing;
    say(`[accept] where the time goes: ${TIMING_REQUESTS} accepts to an API with HERALD_DEBUG_TIMING=true, worker running`);
    const before = accepted;
    const loop = await boundedLoop(TIMING_REQUESTS, CONCURRENCY, TIME_LIMIT_MS, async (i) => {
      const t0 = performance.now();
      const r = await acceptOne(b, `${run}-timing`, i, timed.url);
      tally.add(r.timing ?? null, performance.now() - t0);
      return r;
    });
    accepted += loop.outcomes.filter((o) => o.ok).length;
    await timed.stop();
    drainRows.push(await drain(b, 'timing sample', accepted, accepted - before));
  }

  heading(`accept latency (ms), ${CONCURRENCY} concurrent clients, loopback`);
  const tableRows = rows.map((r) => {
    const lat = summarize(r.loop.outcomes.filter((o) => o.ok).map((o) => o.latencyMs));
    const ok = r.loop.outcomes.filter((o) => o.ok).length;
    return [
      r.label, r.loop.outcomes.length, ok, ms(lat.p50), ms(lat.p90), ms(lat.p99), ms(lat.max), ms(lat.mean),
      (ok / (r.loop.wallMs / 1000)).toFixed(0),
      r.apiCpuMs !== undefined ? (r.apiCpuMs / Math.max(1, r.loop.outcomes.length)).toFixed(2) : '-',
      r.workerCpuMs !== undefined ? (r.workerCpuMs / Math.max(1, r.loop.outcomes.length)).toFixed(2) : '-',
      r.machineCpuMs !== undefined ? (r.machineCpuMs / Math.max(1, r.loop.outcomes.length)).toFixed(2) : '-',
    ];
  });
  say(table(['path', 'sent', 'ok', 'p50', 'p90', 'p99', 'max', 'mean', 'req/s', 'api cpu ms/req', 'worker cpu ms/req', 'machine cpu ms/req'], tableRows));
  const bare = rows.find((r) => r.label.startsWith('temporal'));
  if (bare) {
    const base = summarize(bare.loop.outcomes.filter((o) => o.ok).map((o) => o.latencyMs));
    const baseRate = bare.loop.outcomes.filter((o) => o.ok).length / (bare.loop.wallMs / 1000);
    for (const r of rows.filter((x) => x !== bare)) {
      const lat = summarize(r.loop.outcomes.filter((o) => o.ok).map((o) => o.latencyMs));
      const rate = r.loop.outcomes.filter((o) => o.ok).length / (r.loop.wallMs / 1000);
      say(`${r.label}: p50 +${ms(lat.p50 - base.p50)} ms (x${(lat.p50 / base.p50).toFixed(1)}), p99 +${ms(lat.p99 - base.p99)} ms, ` +
        `throughput ${(100 * rate / baseRate).toFixed(0)}% of bare Temporal starts (goal ≥ 70 %)` +
        (r.apiCpuMs !== undefined ? `, API CPU ${(r.apiCpuMs / Math.max(1, r.loop.outcomes.length)).toFixed(2)} ms per accept (goal ≤ 5)` : ''));
    }
  }
  if (bare?.machineCpuMs !== undefined && acceptedAndPublished) {
    // What the goal asks of two cores shared by everything: a CPU bound, not a measurement of rate.
    const cores = os.cpus().length;
    const bareMs = bare.machineCpuMs / Math.max(1, bare.loop.outcomes.length);
    const fullMs = acceptedAndPublished.cpuMs / Math.max(1, acceptedAndPublished.uploads);
    heading('CPU per upload: bare start vs accepted and published (whole machine)');
    say(`bare workflow start: ${bareMs.toFixed(1)} ms of machine CPU; Herald accept + publish (from the first measured accept to the last upload completed): ` +
      `${fullMs.toFixed(1)} ms. With ${cores} cores, accepting and publishing at a steady state cannot exceed ${(cores * 1000 / fullMs).toFixed(0)} uploads/s ` +
      `= ${(100 * bareMs / fullMs).toFixed(0)} % of what the same cores give bare starts (a faster accept phase borrows from the drain that follows it).`);
  }
  if (timing) {
    heading(`where an accept's time goes (API with HERALD_DEBUG_TIMING=true, ${CONCURRENCY} clients, worker running)`);
    say(timing.table());
  }
  for (const r of rows) {
    const errors = errorCounts(r.loop.outcomes);
    if (errors.length) say(`${r.label}: failures: ${errors.slice(0, 5).map(([e, n]) => `${n}× ${e}`).join('; ')}`);
    if (r.loop.skipped) say(`${r.label}: ${r.loop.skipped} requests not sent (time limit ${TIME_LIMIT_MS / 1000} s reached)`);
  }

  heading('completion of every accepted upload');
  say(table(['phase', 'accepted in phase (incl. warm-up)', 'drain after last accept (s)', 'all completed'], drainRows.map((r) => r.slice(0, 4))));
  const verdict = await verify(b, accepted);
  say(table(['check', 'value'], verdict.rows));
  if (!verdict.ok) throw new Error('not every accepted upload completed successfully (see above)');
}

/** The phase's figures at once, so they survive a later failure (the drain can take minutes). */
function announce(row: PhaseRow): PhaseRow {
  const okOnes = row.loop.outcomes.filter((o) => o.ok);
  const lat = summarize(okOnes.map((o) => o.latencyMs));
  say(`[accept] ${row.label}: ${okOnes.length}/${row.loop.outcomes.length} ok, p50 ${ms(lat.p50)} p90 ${ms(lat.p90)} p99 ${ms(lat.p99)} max ${ms(lat.max)} ms, ` +
    `${(okOnes.length / (row.loop.wallMs / 1000)).toFixed(0)} req/s`);
  return row;
}

// ------------------------------------------------------------------------------------ Temporal

async function temporalPhase(run: string): Promise<PhaseRow> {
  const address = process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233';
  const connection = await Connection.connect({ address });
  onCleanup(() => connection.close());
  const client = new Client({ connection, namespace: process.env.TEMPORAL_NAMESPACE ?? 'default' });
  const taskQueue = `bench-unused-${run}`;
  const started: string[] = [];
  // No worker will ever run them: end them (they would time out after 10 minutes anyway).
  // Bounded below the cleanup timeout, so no call is still in flight when the connection closes.
  const terminate = async () => {
    const ids = started.splice(0);
    await boundedLoop(ids.length, 50, 40_000, async (i) => {
      await client.workflow.getHandle(ids[i]!).terminate('accept bench cleanup').catch(() => undefined);
      return { ok: true };
    });
  };
  onCleanup(terminate);
  const startOne = async (id: string, i: number) => {
    await client.workflow.start('BenchNoopWorkflow', {
      taskQueue, workflowId: id, args: [{ i }], workflowExecutionTimeout: '10 minutes',
    });
    started.push(id);
    return { ok: true, value: id };
  };
  say(`[accept] temporal: warm-up ${WARMUP}, then ${REQUESTS} starts of BenchNoopWorkflow on unused task queue ${taskQueue}`);
  await boundedLoop(WARMUP, CONCURRENCY, TIME_LIMIT_MS, (i) => startOne(`bench-noop-${run}-warm-${i}`, i));
  const cpu0 = machineCpuMs();
  const loop = await boundedLoop(REQUESTS, CONCURRENCY, TIME_LIMIT_MS, (i) => startOne(`bench-noop-${run}-${i}`, i));
  const machine = machineCpuMs() - cpu0;
  // Ended before the next phase: 1,100 open workflows with their pending tasks would load the
  // Temporal server (and with it every process) while Herald is measured.
  say(`[accept] temporal: terminating the ${started.length} no-op workflows before the next phase`);
  await terminate();
  return { label: 'temporal start (bare)', loop, machineCpuMs: machine };
}

// ------------------------------------------------------------------------------------ Herald

async function acceptOne(b: BenchStack, tag: string, i: number, apiUrl = b.stack.apiUrl): Promise<{ ok: boolean; value?: string; error?: string; timing?: string | null }> {
  const res = await fetch(`${apiUrl}/api/upload_text`, {
    method: 'POST',
    headers: { Authorization: b.auth, 'Content-Type': 'application/json' },
    // A distinct text per request: identical posts within the duplicate window return the first one.
    body: JSON.stringify({ user: PROFILE, 'platform[]': ['discord'], title: `accept bench ${tag} #${i}`, async_upload: true }),
  });
  const text = await res.text();
  if (res.status !== 202) return { ok: false, error: `HTTP ${res.status} ${text.slice(0, 160)}` };
  const body = JSON.parse(text) as { request_id?: string };
  return body.request_id ? { ok: true, value: body.request_id, timing: res.headers.get('server-timing') } : { ok: false, error: 'no request_id in 202' };
}

/** Unmeasured requests; returns how many were accepted. */
async function heraldLoop(b: BenchStack, tag: string, count: number): Promise<number> {
  if (!count) return 0;
  const loop = await boundedLoop(count, CONCURRENCY, TIME_LIMIT_MS, (i) => acceptOne(b, tag, i));
  return loop.outcomes.filter((o) => o.ok).length;
}

async function measuredHerald(b: BenchStack, tag: string, label: string): Promise<PhaseRow> {
  say(`[accept] ${label}: warm-up done, ${REQUESTS} measured requests`);
  const apiPid = b.stack.api.child.pid!;
  const workerPid = b.stack.worker?.child.pid;
  const api0 = procCpuMs(apiPid);
  const worker0 = workerPid ? procCpuMs(workerPid) : undefined;
  const cpu0 = machineCpuMs();
  const loop = await boundedLoop(REQUESTS, CONCURRENCY, TIME_LIMIT_MS, (i) => acceptOne(b, tag, i));
  const machine = machineCpuMs() - cpu0;
  const api1 = procCpuMs(apiPid);
  const worker1 = workerPid ? procCpuMs(workerPid) : undefined;
  return {
    label, loop, machineCpuMs: machine,
    ...(api0 !== undefined && api1 !== undefined ? { apiCpuMs: api1 - api0 } : {}),
    ...(worker0 !== undefined && worker1 !== undefined ? { workerCpuMs: worker1 - worker0 } : {}),
  };
}

/** A read of the API, tried again a few times before giving up (a drain lasts minutes). */
async function read(b: BenchStack, pathAndQuery: string): ReturnType<BenchStack['api']['get']> {
  for (let attempt = 1; ; attempt++) {
    try {
      const res = await b.api.get(pathAndQuery);
      if (res.status === 200 || attempt >= 5) return res;
    } catch (err) {
      if (attempt >= 5 || b.stack.api.child.exitCode !== null || b.stack.api.child.signalCode) throw err;
    }
    await sleep(1000);
  }
}

async function completedCount(b: BenchStack): Promise<number> {
  const res = await read(b, '/api/herald/history?status=completed&limit=1');
  if (res.status !== 200) throw new Error(`history answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body.total as number;
}

/** Waits until `expected` uploads are completed in total; the phase's row for the completion table. */
async function drain(b: BenchStack, label: string, expected: number, inPhase: number): Promise<Array<string | number>> {
  const t0 = performance.now();
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  let done = await completedCount(b);
  while (done < expected && Date.now() < deadline) {
    // Not too often: on FerretDB every history read is a sequential scan of the uploads.
    await sleep(2000);
    done = await completedCount(b);
  }
  const seconds = (performance.now() - t0) / 1000;
  say(`[accept] ${label}: ${done}/${expected} completed ${seconds.toFixed(1)} s after the last accept (${(inPhase / Math.max(seconds, 0.001)).toFixed(0)} uploads/s drained)`);
  return [label, inPhase, seconds.toFixed(1), done >= expected ? 'yes' : `NO (${done}/${expected})`];
}

/** Every upload completed with all targets succeeded, and one Discord message per upload. */
async function verify(b: BenchStack, accepted: number): Promise<{ ok: boolean; rows: Array<Array<string | number>> }> {
  const all = await read(b, '/api/herald/history?limit=1');
  const completed = await completedCount(b);
  let failed = 0;
  const failures = new Map<string, number>();
  for (let page = 1; (page - 1) * 100 < completed; page++) {
    const res = await read(b, `/api/herald/history?status=completed&limit=100&page=${page}`);
    for (const u of res.body.history as Array<{ all_succeeded: boolean | null; results: Record<string, { success: boolean; error?: string }> }>) {
      if (u.all_succeeded === true) continue;
      failed += 1;
      for (const r of Object.values(u.results)) if (!r.success) failures.set(r.error ?? 'unknown', (failures.get(r.error ?? 'unknown') ?? 0) + 1);
    }
  }
  const notCompleted: string[] = [];
  for (const status of ['pending', 'in_progress']) {
    const res = await read(b, `/api/herald/history?status=${status}&limit=1`);
    if (res.body.total) notCompleted.push(`${res.body.total} ${status}`);
  }
  const messages = b.sandbox.simulators.discord.messages().length;
  const rows: Array<Array<string | number>> = [
    ['uploads accepted (202) by the bench', accepted],
    ['uploads stored by Herald', all.body.total as number],
    ['completed', completed],
    ['completed with a failed target', failed],
    ['not completed', notCompleted.join(', ') || 0],
    ['discord messages received by the simulator', messages],
  ];
  for (const [error, n] of failures) rows.push([`  failure: ${error.slice(0, 100)}`, n]);
  const ok = completed === accepted && all.body.total === accepted && failed === 0 && messages === accepted;
  return { ok, rows };
}

runMain('accept', main);
