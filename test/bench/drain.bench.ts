/**
 * Drain: how fast the worker publishes a backlog. `BENCH_UPLOADS` one-network text posts
 * (`upload_text`, async, Discord: its simulator answers at once) are queued with the worker
 * stopped; then the worker starts and the bench measures how fast they complete, from the moment the
 * worker is ready to the last upload marked completed.
 *
 * Where an upload's time goes: the worker runs with HERALD_DEBUG_TIMING=true and logs the MongoDB
 * commands it sends (the driver's command monitoring), divided here by the uploads drained; the
 * Temporal history of a sample of uploads gives the workflow tasks, activities, local activities
 * and timers per upload, and how long each waited in its task queue and ran.
 *
 * In the same run, a bare Temporal workflow of the same history shape (one local activity making the
 * same simulator call, no database; test/bench/drain-bare/) is drained the same way by a worker
 * process of its own, and the two rates are printed side by side (goal: Herald ≥ 60 % of bare).
 *
 * At the end every upload must be completed with its target succeeded, and the Discord simulator
 * must hold exactly one message per upload.
 *
 * Temporal: the shared dev server (TEMPORAL_ADDRESS) by default; BENCH_TEMPORAL=own starts a
 * throwaway dev server of the bench's own with the settings ops/infra.sh uses (SQLite WAL, eager
 * activity execution), so the
 * figure does not depend on how long-lived the shared one is or how it was started;
 * BENCH_TEMPORAL_ARGS adds `temporal server start-dev` flags to it (space-separated).
 *
 * Knobs: BENCH_UPLOADS (1000), BENCH_CONCURRENCY for queueing (20), BENCH_DRAIN_TIMEOUT_S (1200),
 * BENCH_HISTORY_SAMPLE (20), BENCH_TEMPORAL (shared|own), BENCH_TEMPORAL_ARGS.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { workflowIds } from '../../core/ports/workflow-names';
import {
  boundedLoop, connectNetworks, describeEnvironment, envInt, errorCounts, heading, ms, onCleanup, procCpuMs, runMain, chooseTemporal,
  say, sleep, startBenchStack, table, cpuByName, type BenchStack,
} from './support';

const UPLOADS = envInt('BENCH_UPLOADS', 1000);
const CONCURRENCY = envInt('BENCH_CONCURRENCY', 20);
const DRAIN_TIMEOUT_MS = envInt('BENCH_DRAIN_TIMEOUT_S', 1200) * 1000;
const SAMPLE = envInt('BENCH_HISTORY_SAMPLE', 20, 0);
const PROFILE = 'bench';
/** The database processes, by command name. */
const SHARED_PROCESSES = ['ferretdb', 'postgres'];

type CommandCounts = Record<string, { n: number; ms: number }>;

/** The worker's last "mongo commands" log line (cumulative counts per command name). */
function lastCommandCounts(b: BenchStack, by: 'by_command' | 'by_target' = 'by_command'): CommandCounts {
  const lines = (b.stack.worker?.output.join('') ?? '').split('\n').filter((l) => l.includes('"mongo commands"'));
  const last = lines[lines.length - 1];
  return last ? (JSON.parse(last) as Record<typeof by, CommandCounts | undefined>)[by] ?? {} : {};
}

async function completedCount(b: BenchStack): Promise<number> {
  const res = await b.api.get('/api/herald/history?status=completed&limit=1');
  if (res.status !== 200) throw new Error(`history answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body.total as number;
}

async function main(): Promise<void> {
  heading('drain: a backlog of one-network text uploads, published by the worker');
  say(describeEnvironment());
  say(`uploads ${UPLOADS}, queued by ${CONCURRENCY} clients with the worker stopped; Discord simulator answers at once`);
  const temporal = await chooseTemporal();
  const temporalPid = temporal.pid;
  say(`Temporal: ${temporal.description}`);

  const b = await startBenchStack({ name: 'drain', worker: false, profile: PROFILE, env: { HERALD_DEBUG_TIMING: 'true' } });
  await connectNetworks(b, PROFILE, ['discord']);
  const me = await b.api.get('/api/herald/me');
  const accountId = me.body.account_id as string;

  const q0 = performance.now();
  const queued = await boundedLoop(UPLOADS, CONCURRENCY, DRAIN_TIMEOUT_MS, async (i) => {
    const res = await b.api.post('/api/upload_text', { user: PROFILE, 'platform[]': ['discord'], title: `drain bench #${i}`, async_upload: true });
    return res.status === 202 ? { ok: true, value: res.body.request_id as string } : { ok: false, error: `HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 160)}` };
  });
  const requestIds = queued.outcomes.filter((o) => o.ok).map((o) => o.value!);
  const errors = errorCounts(queued.outcomes);
  if (errors.length) throw new Error(`queueing failed: ${errors.slice(0, 3).map(([e, n]) => `${n}× ${e}`).join('; ')}`);
  say(`[drain] ${requestIds.length} uploads queued in ${((performance.now() - q0) / 1000).toFixed(1)} s; starting the worker…`);

  const worker = await b.stack.startWorker();
  const workerPid = worker.child.pid!;
  const commands0 = lastCommandCounts(b);
  const targets0 = lastCommandCounts(b, 'by_target');
  const cpu0 = procCpuMs(workerPid) ?? NaN;
  const temporal0 = temporalPid ? procCpuMs(temporalPid) ?? NaN : NaN;
  const shared0 = cpuByName(SHARED_PROCESSES);
  const bench0 = process.cpuUsage();
  const t0 = performance.now();
  const discord = b.sandbox.simulators.discord;
  const marks: Array<[number, number]> = [];
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  let lastSaid = 0;
  for (;;) {
    const seen = discord.messages().length;
    marks.push([performance.now() - t0, seen]);
    if (seen >= requestIds.length || Date.now() > deadline) break;
    if (performance.now() - lastSaid > 10_000) {
      lastSaid = performance.now();
      say(`[drain] ${seen}/${requestIds.length} published after ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    }
    await sleep(200);
  }
  // Published is not yet completed: the workflow marks the upload completed after the publish.
  let completed = await completedCount(b);
  while (completed < requestIds.length && Date.now() < deadline) {
    await sleep(250);
    completed = await completedCount(b);
  }
  const drainMs = performance.now() - t0;
  const cpuMs = (procCpuMs(workerPid) ?? NaN) - cpu0;
  const temporalMs = temporalPid ? (procCpuMs(temporalPid) ?? NaN) - temporal0 : NaN;
  const shared1 = cpuByName(SHARED_PROCESSES);
  const benchCpu = process.cpuUsage(bench0);
  await sleep(2500); // the worker logs its command counts every 2 s
  const commands1 = lastCommandCounts(b);
  const targets1 = lastCommandCounts(b, 'by_target');

  const at = (fraction: number) => marks.find(([, n]) => n >= fraction * requestIds.length)?.[0] ?? NaN;
  const steady = (0.8 * requestIds.length) / ((at(0.9) - at(0.1)) / 1000);
  heading(`drain of ${requestIds.length} queued uploads (worker ready → last upload completed)`);
  say(table(['figure', 'value'], [
    ['completed', `${completed}/${requestIds.length}`],
    ['drain time (s)', (drainMs / 1000).toFixed(1)],
    ['uploads/s, whole drain (goal ≥ 30)', (completed / (drainMs / 1000)).toFixed(1)],
    ['uploads/s, 10 % → 90 % published', steady.toFixed(1)],
    ['first publish after worker ready (ms)', ms(marks.find(([, n]) => n > 0)?.[0])],
  ]));

  heading('CPU per upload during the drain (ms; the machine has 2 CPUs shared with everything else running)');
  const per = (v: number) => (Number.isFinite(v) ? (v / Math.max(1, completed)).toFixed(1) : '-');
  say(table(['process', 'cpu ms per upload'], [
    ['herald worker', per(cpuMs)],
    [temporalPid ? 'Temporal dev server (this bench\'s own)' : 'Temporal dev server (shared: not measured)', per(temporalMs)],
    ...SHARED_PROCESSES.map((n) => [`${n} (all processes of that name: includes other users' work)`, per(shared1.byName[n]! - shared0.byName[n]!)]),
    ['this bench (API-side simulators, polling)', per((benchCpu.user + benchCpu.system) / 1000)],
    ['whole machine (everything running, all CPUs)', per(shared1.machineMs - shared0.machineMs)],
  ]));

  const commandRows = (after: CommandCounts, before: CommandCounts) => {
    const rows = Object.entries(after).map(([name, c]) => {
      const n = c.n - (before[name]?.n ?? 0);
      const t = c.ms - (before[name]?.ms ?? 0);
      return [name, n, (n / Math.max(1, completed)).toFixed(2), n ? (t / n).toFixed(2) : '-'] as Array<string | number>;
    }).filter((r) => Number(r[1]) > 0).sort((a, b) => Number(b[1]) - Number(a[1]));
    const total = rows.reduce((a, r) => a + Number(r[1]), 0);
    rows.push(['all commands (goal ≤ 5 per upload)', total, (total / Math.max(1, completed)).toFixed(2), '']);
    return rows;
  };
  heading('database round trips per upload (worker, MongoDB command monitoring)');
  say(table(['command', 'count', 'per upload', 'mean ms'], commandRows(commands1, commands0)));
  say('');
  say(table(['command and collection', 'count', 'per upload', 'mean ms'], commandRows(targets1, targets0)));
  say('');
  say(table(['whose', 'per upload'], splitByWhose(targets1, targets0, completed)));

  if (SAMPLE) {
    heading(`Temporal tasks per upload (history of ${Math.min(SAMPLE, requestIds.length)} sampled uploads)`);
    say(await historyBreakdown(accountId, requestIds));
  }

  const bare = await bareDrain(b, requestIds.length, discordMessages(b));
  heading('beside a bare Temporal workflow of the same history shape (one local activity, the same simulator call, no database), same run');
  const heraldRate = steady;
  say(table(['figure', 'herald', 'bare', 'herald / bare'], [
    ['uploads/s, 10 % → 90 % published (goal ≥ 60 % of bare)', heraldRate.toFixed(1), bare.steady.toFixed(1), `${((100 * heraldRate) / bare.steady).toFixed(0)} %`],
    ['uploads/s, whole drain', (completed / (drainMs / 1000)).toFixed(1), bare.whole.toFixed(1), `${((100 * completed / (drainMs / 1000)) / bare.whole).toFixed(0)} %`],
    ['worker cpu ms per upload', per(cpuMs), bare.workerCpuPer.toFixed(1), ''],
    ['machine cpu ms per upload', per(shared1.machineMs - shared0.machineMs), bare.machineCpuPer.toFixed(1), ''],
  ]));

  heading('every upload published once');
  const messages = discord.messages().length - bare.published;
  say(table(['check', 'value'], [['uploads queued', requestIds.length], ['completed', completed], ['discord messages', messages]]));
  if (completed !== requestIds.length || messages !== requestIds.length) throw new Error('not every queued upload was published exactly once (see above)');
}

/**
 * The commands an upload itself sends (its status moves, the credentials read, the dispatch claim,
 * its target's result, its event, its list counts), apart from background work that does not grow
 * with the uploads drained (outbox polls, cleanup walks: a fresh database's first cleanup walks the
 * 7-day look-back once).
 */
const UPLOAD_OWN = new Set(['findAndModify uploads', 'find uploads', 'update uploads', 'find connected_accounts', 'insert dispatch_claims',
  'update upload_targets', 'insert upload_targets', 'insert events', 'update list_counters', 'find list_counters']);
function splitByWhose(after: CommandCounts, before: CommandCounts, completed: number): Array<[string, string]> {
  let own = 0;
  let background = 0;
  for (const [name, c] of Object.entries(after)) {
    const n = c.n - (before[name]?.n ?? 0);
    if (UPLOAD_OWN.has(name)) own += n;
    else background += n;
  }
  const per = (n: number) => (n / Math.max(1, completed)).toFixed(2);
  return [['the upload\'s own (' + [...UPLOAD_OWN].join(', ') + ')', per(own)], ['background (outbox polls and hand-over, cleanups, settings reads)', per(background)]];
}

const discordMessages = (b: BenchStack) => b.sandbox.simulators.discord.messages().length;

/**
 * The baseline, measured the way the drain is: `n` bare workflows started with no worker running,
 * then a worker process of their own (test/bench/drain-bare/worker.ts) drains them; the rate is
 * taken from the simulator's message count, as for Herald.
 */
async function bareDrain(b: BenchStack, n: number, before: number): Promise<{ steady: number; whole: number; published: number; workerCpuPer: number; machineCpuPer: number }> {
  const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233' });
  onCleanup(() => connection.close());
  const client = new Client({ connection, namespace: process.env.TEMPORAL_NAMESPACE ?? 'default' });
  const taskQueue = `herald-bench-bare-${process.pid}-${Date.now()}`;
  const webhookUrl = b.sandbox.env.SANDBOX_DISCORD_WEBHOOK_URL!;
  say(`[bare] starting ${n} bare workflows on task queue ${taskQueue}…`);
  const started = await boundedLoop(n, CONCURRENCY, DRAIN_TIMEOUT_MS, async (i) => {
    await client.workflow.start('bareUploadWorkflow', { taskQueue, workflowId: `${taskQueue}-${i}`, args: [{ webhookUrl, content: `drain bench bare #${i}` }] });
    return { ok: true, value: i };
  });
  const errors = errorCounts(started.outcomes);
  if (errors.length) throw new Error(`starting bare workflows failed: ${errors.slice(0, 3).map(([e, k]) => `${k}× ${e}`).join('; ')}`);
  const child = spawn(process.execPath, [path.join(__dirname, 'drain-bare', 'worker.js')], {
    env: { ...process.env, BARE_TASK_QUEUE: taskQueue }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stderr.on('data', (d: Buffer) => { output += d.toString(); });
  onCleanup(() => { if (child.exitCode === null) child.kill('SIGKILL'); });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (d: Buffer) => { if (d.toString().includes('ready')) resolve(); });
    child.once('exit', (code) => reject(new Error(`bare worker exited ${code}: ${output.slice(-2000)}`)));
  });
  const cpu0 = procCpuMs(child.pid!) ?? NaN;
  const machine0 = cpuByName(SHARED_PROCESSES).machineMs;
  const t0 = performance.now();
  const marks: Array<[number, number]> = [];
  const deadline = Date.now() + DRAIN_TIMEOUT_MS;
  for (;;) {
    const seen = discordMessages(b) - before;
    marks.push([performance.now() - t0, seen]);
    if (seen >= n || Date.now() > deadline) break;
    await sleep(100);
  }
  const published = discordMessages(b) - before;
  const wholeMs = performance.now() - t0;
  const workerCpu = (procCpuMs(child.pid!) ?? NaN) - cpu0;
  const machineCpu = cpuByName(SHARED_PROCESSES).machineMs - machine0;
  child.kill('SIGTERM');
  if (published < n) throw new Error(`the bare drain published ${published}/${n} in time: ${output.slice(-2000)}`);
  const at = (fraction: number) => marks.find(([, k]) => k >= fraction * n)?.[0] ?? NaN;
  return {
    steady: (0.8 * n) / ((at(0.9) - at(0.1)) / 1000), whole: n / (wholeMs / 1000), published,
    workerCpuPer: workerCpu / n, machineCpuPer: machineCpu / n,
  };
}

/** Per sampled upload: events of each kind in its workflow history, and queue and run times. */
async function historyBreakdown(accountId: string, requestIds: string[]): Promise<string> {
  const connection = await Connection.connect({ address: process.env.TEMPORAL_ADDRESS ?? '127.0.0.1:7233' });
  onCleanup(() => connection.close());
  const client = new Client({ connection, namespace: process.env.TEMPORAL_NAMESPACE ?? 'default' });
  const step = Math.max(1, Math.floor(requestIds.length / SAMPLE));
  const sample = requestIds.filter((_, i) => i % step === 0).slice(0, SAMPLE);
  const counts: Record<string, number> = {};
  const durations: Record<string, number[]> = {};
  const time = (t: unknown) => {
    const ts = t as { seconds?: unknown; nanos?: number } | null | undefined;
    return ts ? Number(ts.seconds ?? 0) * 1000 + (ts.nanos ?? 0) / 1e6 : NaN;
  };
  const note = (name: string, value: number) => (durations[name] ??= []).push(value);
  for (const requestId of sample) {
    const history = await client.workflow.getHandle(workflowIds.upload(accountId, requestId)).fetchHistory();
    const events = history.events ?? [];
    const at = new Map(events.map((e) => [Number(e.eventId), time(e.eventTime)]));
    note('workflow: started → completed', time(events[events.length - 1]?.eventTime) - time(events[0]?.eventTime));
    for (const e of events) {
      const kind = Object.keys(e).find((k) => k.endsWith('EventAttributes') && (e as Record<string, unknown>)[k]);
      if (!kind) continue;
      const label = kind.replace(/EventAttributes$/, '');
      counts[label] = (counts[label] ?? 0) + 1;
      const attrs = (e as Record<string, { scheduledEventId?: unknown; startedEventId?: unknown }>)[kind]!;
      const now = time(e.eventTime);
      if (label === 'workflowTaskStarted') note('workflow task: queued (scheduled → started)', now - at.get(Number(attrs.scheduledEventId))!);
      if (label === 'workflowTaskCompleted') note('workflow task: running (started → completed)', now - at.get(Number(attrs.startedEventId))!);
      if (label === 'activityTaskStarted') note('activity: queued (scheduled → started)', now - at.get(Number(attrs.scheduledEventId))!);
      if (label === 'activityTaskCompleted') note('activity: running (started → completed)', now - at.get(Number(attrs.startedEventId))!);
    }
  }
  const n = sample.length;
  const eventRows = Object.entries(counts).sort((a, b) => b[1] - a[1]).map(([k, v]) => [k, (v / n).toFixed(2)]);
  eventRows.push(['all history events', (Object.values(counts).reduce((a, v) => a + v, 0) / n).toFixed(2)]);
  const mean = (v: number[]) => v.reduce((a, x) => a + x, 0) / Math.max(1, v.length);
  const timeRows = Object.entries(durations).map(([k, v]) => [k, v.length, ms(mean(v)), ms(Math.max(...v))]);
  return `${table(['history event', 'per upload'], eventRows)}\n\n${table(['time', 'count', 'mean ms', 'max ms'], timeRows)}\n` +
    '(markerRecorded = a local activity, run inside a workflow task; activityTask* = an activity through the task queue)';
}

runMain('drain', main);
