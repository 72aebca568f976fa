/**
 * Media job: the wall time of one transcode through the API (multipart POST of the input →
 * FINISHED seen by the client) against the same ffmpeg command run directly on the same file.
 * The goal is a ratio ≤ 1.1: the upload, the API, the workflow, the media store and the progress
 * reports together add at most a tenth.
 *
 * Then where the API's extra time went, phase by phase, from the POST's Server-Timing header (the
 * API runs with HERALD_DEBUG_TIMING=true: a few microseconds of bookkeeping on one request) and
 * the job's `run_timings` (the worker's clock: run scheduled, run started, ffmpeg spawned and
 * exited, output stored), with the CPU each process used during each run and the ffmpeg process
 * of each side as /proc shows it (argument vector, nice value, threads).
 *
 * The client streams the input from disk (1 MiB reads, as curl -F does) and polls the job: every 100 ms whenever
 * the end may be near, less often while ffmpeg is far from done (never later than the estimated
 * end minus 3 s, at most 1 s), so polling adds at most about 100 ms plus one GET to the wall time
 * without loading the 2 cores the transcode needs with 10 reads a second for its whole length (the
 * bench prints what one GET costs the machine).
 *
 * The input is made once in the OS temp dir (kept with BENCH_KEEP_MEDIA=1): ffmpeg's test pattern,
 * 1080p, 30 fps, H.264, BENCH_MEDIA_SECONDS long (60).
 *
 * Knobs: BENCH_MEDIA_SECONDS (60; 5-10 for a quick check of the breakdown), BENCH_MEDIA_ARGS (the
 * transcode's options, default `-c:v libx264 -preset veryfast -crf 26 -pix_fmt yuv420p`),
 * BENCH_ROUNDS (1: direct then API; more rounds alternate and the medians are compared),
 * BENCH_KEEP_MEDIA=1.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createReadStream, existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { describeEnvironment, envInt, heading, median, onCleanup, procCpuMs, runMain, say, sleep, startBenchStack, table } from './support';

const SECONDS = envInt('BENCH_MEDIA_SECONDS', 60);
const ROUNDS = envInt('BENCH_ROUNDS', 1);
const ARGS = process.env.BENCH_MEDIA_ARGS ?? '-c:v libx264 -preset veryfast -crf 26 -pix_fmt yuv420p';
const KEEP = process.env.BENCH_KEEP_MEDIA === '1';

/** Epoch milliseconds with sub-millisecond precision (comparable with the daemons' Date.now()). */
const now = () => performance.timeOrigin + performance.now();

// ------------------------------------------------------------------------------------ /proc

/** Fields of /proc/<pid>/stat after the command name: index 0 is field 3 (state). */
function statFields(pid: number | 'self'): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}
const TICK_MS = 10;
/** CPU of a process's children it has waited for (cutime + cstime): an ended ffmpeg or ffprobe. */
const childrenCpuMs = (pid: number | 'self') => {
  const f = statFields(pid);
  return f ? (Number(f[13]) + Number(f[14])) * TICK_MS : 0;
};
/** Busy CPU time of the whole machine (all cores), from /proc/stat. */
function machineBusyMs(): number {
  const [, ...v] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/);
  const n = v.map(Number);
  const total = n.slice(0, 8).reduce((a, b) => a + b, 0);
  return (total - n[3]! - n[4]!) * TICK_MS;
}

/** What /proc says of one ffmpeg process: its argument vector, nice value and most threads seen. */
interface FfmpegSeen { argv: string[]; nice: number; threads: number }

/**
 * Watches for the ffmpeg child of `parent` (the bench for the direct run, the worker daemon for
 * the API's) and samples it every 250 ms until stopped.
 */
function watchFfmpeg(parent: number): { stop(): FfmpegSeen | undefined } {
  let pid: number | undefined;
  let seen: FfmpegSeen | undefined;
  const sample = () => {
    if (pid === undefined) {
      for (const entry of readdirProc()) {
        const f = statFields(entry);
        if (f && Number(f[1]) === parent && commOf(entry) === 'ffmpeg') pid = entry;
      }
      if (pid === undefined) return;
    }
    const f = statFields(pid);
    if (!f) return;
    if (!seen) {
      try {
        seen = { argv: readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean), nice: Number(f[16]), threads: 0 };
      } catch {
        return;
      }
    }
    seen.threads = Math.max(seen.threads, Number(f[17]));
  };
  const timer = setInterval(sample, 250);
  return { stop: () => { clearInterval(timer); return seen; } };
}
function commOf(pid: number): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return undefined;
  }
}
function readdirProc(): number[] {
  try {
    return readdirSync('/proc').filter((e) => /^\d+$/.test(e)).map(Number);
  } catch {
    return [];
  }
}

/** CPU used during one run, per process (ms). */
interface CpuUse { ffmpeg: number; api: number; worker: number; machine: number }
function cpuMeter(pids: { api: number; worker: number }, ffmpegParent: number | 'self') {
  const read = () => ({
    api: (procCpuMs(pids.api) ?? 0) + childrenCpuMs(pids.api), worker: procCpuMs(pids.worker) ?? 0,
    ffmpeg: childrenCpuMs(ffmpegParent), machine: machineBusyMs(),
  });
  const before = read();
  return (): CpuUse => {
    const after = read();
    // The worker's ffmpeg is its child: counted once, as ffmpeg.
    return { ffmpeg: after.ffmpeg - before.ffmpeg, api: after.api - before.api, worker: after.worker - before.worker, machine: after.machine - before.machine };
  };
}

// ------------------------------------------------------------------------------------ runs

function runFfmpeg(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (b: Buffer) => { err = (err + b.toString()).slice(-2000); });
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited ${code}: ${err}`))));
  });
}

/**
 * A multipart POST as an upload client sends one (curl -F): text fields, then the file streamed
 * from disk in 1 MiB reads. (fetch with a FormData Blob costs the client about twice the CPU per
 * byte, which the API run would pay on the 2 cores it shares with everything else.)
 */
function postMultipart(url: string, authorization: string, fields: Record<string, string>, file: { field: string; path: string; type: string }) {
  const boundary = `----herald-bench-${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from([
    ...Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`),
    `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${path.basename(file.path)}"\r\nContent-Type: ${file.type}\r\n\r\n`,
  ].join(''));
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + statSync(file.path).size + tail.length;
  return new Promise<{ status: number; serverTiming: string | null; body: string }>((resolve, reject) => {
    const req = httpRequest(url, {
      method: 'POST', headers: { Authorization: authorization, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(length) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, serverTiming: (res.headers['server-timing'] as string | undefined) ?? null, body: Buffer.concat(chunks).toString() }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.write(head);
    const bytes = createReadStream(file.path, { highWaterMark: 1 << 20 });
    bytes.on('error', reject);
    bytes.pipe(req, { end: false });
    bytes.on('end', () => req.end(tail));
  });
}

/** Server-Timing `name;dur=ms;desc="n"` entries as name → ms. */
function serverTiming(header: string | null): Map<string, number> {
  const spans = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name, ...params] = part.trim().split(';');
    const dur = Number(/dur=([\d.]+)/.exec(params.join(';'))?.[1] ?? NaN);
    if (name && Number.isFinite(dur)) spans.set(name, (spans.get(name) ?? 0) + dur);
  }
  return spans;
}

interface JobView {
  status: string;
  output_size?: number;
  started_at: string | null;
  finished_at: string | null;
  processed_seconds: number;
  duration_seconds: number | null;
  run_timings?: { scheduled_at: string | null; started_at: string | null; ffmpeg_started_at: string | null; ffmpeg_ended_at: string | null; output_stored_at: string | null };
}

interface ApiRun {
  wallMs: number;
  /** Phase name → ms, in timeline order; they add up to wallMs. */
  phases: Array<[string, number]>;
  ffmpegMs: number;
  polls: number;
  /** Between the last two polls' starts: what polling may have added to the wall time. */
  pollGap: number;
  outputBytes: number;
  jobId: string;
  cpu: CpuUse;
  ffmpeg?: FfmpegSeen;
}

async function main(): Promise<void> {
  heading(`media-job: ${SECONDS} s 1080p transcode (${ARGS}) through POST /api/herald/ffmpeg/jobs/upload vs ffmpeg directly`);
  say(describeEnvironment());
  const input = path.join(os.tmpdir(), `herald-bench-media-${SECONDS}s-1080p.mp4`);
  if (!existsSync(input)) {
    const t = performance.now();
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=1920x1080:rate=30:duration=${SECONDS}`, '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '23', `${input}.part.mp4`]);
    execFileSync('mv', [`${input}.part.mp4`, input]);
    say(`input generated in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  }
  if (!KEEP) onCleanup(() => rmSync(input, { force: true }));
  say(`input: ${input} (${(statSync(input).size / 1e6).toFixed(1)} MB)`);

  const b = await startBenchStack({ name: 'media', worker: true, env: { HERALD_DEBUG_TIMING: 'true' } });
  const pids = { api: b.stack.api.child.pid!, worker: b.stack.worker!.child.pid! };
  const scratchOut = path.join(b.tmpDir, 'direct.mp4');
  let directSeen: FfmpegSeen | undefined;
  const directCpu: CpuUse[] = [];

  const direct = async (): Promise<number> => {
    const cpu = cpuMeter(pids, 'self');
    const watch = watchFfmpeg(process.pid);
    const t = performance.now();
    await runFfmpeg(['-nostdin', '-hide_banner', '-nostats', '-loglevel', 'error', '-y', '-i', input, ...ARGS.split(' '), scratchOut]);
    const ms = performance.now() - t;
    directSeen = watch.stop() ?? directSeen;
    directCpu.push(cpu());
    return ms;
  };

  const submit = async (file: string) => {
    const res = await postMultipart(`${b.stack.apiUrl}/api/herald/ffmpeg/jobs/upload`, b.auth,
      { full_command: `ffmpeg -i {input} ${ARGS} {output}`, output_extension: 'mp4' }, { field: 'file', path: file, type: 'video/mp4' });
    const body = JSON.parse(res.body) as { job_id?: string };
    if (res.status !== 202 || !body.job_id) throw new Error(`submit answered ${res.status}: ${res.body}`);
    return { jobId: body.job_id, serverTiming: res.serverTiming };
  };

  // A warm-up job on a 2-second clip, untimed: the daemons' first requests, workflow task and
  // activity (module loading, JIT, the workflow bundle's first activation) are behind them, as on
  // a server that has been running.
  const warmClip = path.join(b.tmpDir, 'warm-up.mp4');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc2=size=320x240:rate=30:duration=2', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', warmClip]);
  const warm = await submit(warmClip);
  for (let i = 0; ; i += 1) {
    const got = await b.api.get(`/api/herald/ffmpeg/jobs/${warm.jobId}`);
    if (got.body.status === 'FINISHED') break;
    if (got.body.status === 'ERROR' || i > 1200) throw new Error(`warm-up job did not finish: ${JSON.stringify(got.body)}`);
    await sleep(100);
  }

  const viaApi = async (): Promise<ApiRun> => {
    const cpu = cpuMeter(pids, pids.worker);
    const watch = watchFfmpeg(pids.worker);
    const t0 = now();
    const submitted = await submit(input);
    const jobId = submitted.jobId;
    const t1 = now();
    const spans = serverTiming(submitted.serverTiming);
    let polls = 0;
    let job: JobView;
    let lastPollAt = 0;
    let pollGap = 0;
    for (;;) {
      polls += 1;
      pollGap = now() - lastPollAt;
      lastPollAt = now();
      const got = await b.api.get(`/api/herald/ffmpeg/jobs/${jobId}`);
      job = got.body as JobView;
      if (job.status === 'FINISHED') break;
      if (job.status === 'ERROR') throw new Error(`job failed: ${JSON.stringify(job)}`);
      await sleep(pollDelay(job));
    }
    const t8 = now();
    const ffmpeg = watch.stop();
    const rt = job.run_timings;
    if (!rt?.scheduled_at || !rt.started_at || !rt.ffmpeg_started_at || !rt.ffmpeg_ended_at || !rt.output_stored_at || !job.finished_at) {
      throw new Error(`the job has no run_timings (an older worker?): ${JSON.stringify(job)}`);
    }
    const at = (iso: string) => new Date(iso).getTime();
    const [t2, t3, t4, t5, t6, t7] = [rt.scheduled_at, rt.started_at, rt.ffmpeg_started_at, rt.ffmpeg_ended_at, rt.output_stored_at, job.finished_at].map(at) as [number, number, number, number, number, number];
    const span = (prefix: string) => [...spans].filter(([k]) => k.startsWith(prefix)).reduce((a, [, v]) => a + v, 0);
    const store = span('media.store');
    const probe = span('media.ffprobe');
    const records = span('db.mediaUsage') + span('db.mediaJobs');
    const start = span('temporal.mediaJob');
    const known = ['media.store', 'media.ffprobe', 'db.mediaUsage', 'db.mediaJobs', 'temporal.mediaJob', 'mongo.commands', 'total'];
    const other = [...spans].filter(([k]) => !known.some((p) => k.startsWith(p))).reduce((a, [, v]) => a + v, 0);
    const intake = store + probe + records + start + other;
    return {
      wallMs: t8 - t0,
      phases: [
        ['upload: body sent, received, parsed (client + API)', t1 - t0 - intake],
        ['input into the media store', store],
        ['ffprobe of the input', probe],
        ['minute ledger + job record (database)', records],
        ['workflow start (Temporal)', start],
        ['auth, rate limit, other API calls', other],
        ['202 answered → run scheduled (workflow task)', t2 - t1],
        ['run scheduled → run started (activity dispatch)', t3 - t2],
        ['run started → ffmpeg spawned (job read, PROCESSING)', t4 - t3],
        ['ffmpeg', t5 - t4],
        ['ffmpeg exited → output in the media store', t6 - t5],
        ['output stored → finish begins (activity, workflow task)', t7 - t6],
        ['finish begins → client sees FINISHED (writes, poll)', t8 - t7],
      ],
      ffmpegMs: t5 - t4,
      polls,
      pollGap,
      outputBytes: job.output_size ?? 0,
      jobId,
      cpu: cpu(),
      ...(ffmpeg ? { ffmpeg } : {}),
    };
  };

  const directMs: number[] = [];
  const apiRuns: ApiRun[] = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    // Alternate the order so neither side always runs on a warmer (or busier) machine.
    if (round % 2) {
      directMs.push(await direct());
      apiRuns.push(await viaApi());
    } else {
      apiRuns.push(await viaApi());
      directMs.push(await direct());
    }
    const [d, api] = [directMs[round - 1]!, apiRuns[round - 1]!.wallMs];
    say(`round ${round}: direct ${(d / 1000).toFixed(2)} s, API ${(api / 1000).toFixed(2)} s, ratio ${(api / d).toFixed(3)}`);
  }
  const d = median(directMs);
  const api = median(apiRuns.map((r) => r.wallMs));
  say(table(['', 'direct ffmpeg (s)', 'through the API (s)', 'ratio'], [
    ...directMs.map((x, i) => [`round ${i + 1}`, (x / 1000).toFixed(2), (apiRuns[i]!.wallMs / 1000).toFixed(2), (apiRuns[i]!.wallMs / x).toFixed(3)]),
    ['median', (d / 1000).toFixed(2), (api / 1000).toFixed(2), (api / d).toFixed(3)],
  ]));
  say(`ratio API / direct: ${(api / d).toFixed(3)}× (goal ≤ 1.1×) ${api / d <= 1.1 ? 'met' : 'NOT met'}`);

  heading('where the API run\'s time went (ms; the phases add up to its wall time)');
  const cols = apiRuns.map((_, i) => `round ${i + 1}`);
  const withMedian = (values: number[]) => [...values.map((v) => v.toFixed(0)), ...(values.length > 1 ? [median(values).toFixed(0)] : [])];
  const headers = ['phase', ...cols, ...(apiRuns.length > 1 ? ['median'] : [])];
  say(table(headers, [
    ...apiRuns[0]!.phases.map(([name], p) => [name, ...withMedian(apiRuns.map((r) => r.phases[p]![1]))]),
    ['= API wall time', ...withMedian(apiRuns.map((r) => r.wallMs))],
    ['direct ffmpeg (same round)', ...withMedian(directMs)],
    ['overhead = API wall − direct', ...withMedian(apiRuns.map((r, i) => r.wallMs - directMs[i]!))],
    ['  of which ffmpeg slower in the worker than direct', ...withMedian(apiRuns.map((r, i) => r.ffmpegMs - directMs[i]!))],
    ['  of which outside ffmpeg', ...withMedian(apiRuns.map((r) => r.wallMs - r.ffmpegMs))],
    ['job polls (GET) by the client', ...withMedian(apiRuns.map((r) => r.polls))],
    ['  gap between the last two polls', ...withMedian(apiRuns.map((r) => r.pollGap))],
    ['output size (MB, hashed into the store)', ...apiRuns.map((r) => (r.outputBytes / 1e6).toFixed(1)), ...(apiRuns.length > 1 ? [''] : [])],
  ]));

  // What one poll costs the machine (the transcode's CPU): 50 GETs of the job, nothing else running.
  const gets = 50;
  const idle = cpuMeter(pids, pids.worker);
  const tg = performance.now();
  for (let i = 0; i < gets; i += 1) await b.api.get(`/api/herald/ffmpeg/jobs/${apiRuns[0]!.jobId}`);
  const wallPerGet = (performance.now() - tg) / gets;
  const used = idle();
  say(`one job GET: ${wallPerGet.toFixed(1)} ms wall, API daemon ${(used.api / gets).toFixed(1)} ms CPU, rest of the machine ${((used.machine - used.api - used.worker - used.ffmpeg) / gets).toFixed(1)} ms CPU (database, Redis, the client; 10 ms ticks, other users' work included)`);

  heading('CPU used during each run (ms, all cores; "rest" is the database, Temporal, Redis, the bench client and anything else on the machine)');
  const cpuRows = (label: string, uses: CpuUse[]) => [
    [`${label}: ffmpeg`, ...withMedian(uses.map((u) => u.ffmpeg))],
    [`${label}: API daemon (+ ffprobe)`, ...withMedian(uses.map((u) => u.api))],
    [`${label}: worker daemon (without ffmpeg)`, ...withMedian(uses.map((u) => u.worker))],
    [`${label}: rest of the machine`, ...withMedian(uses.map((u) => u.machine - u.ffmpeg - u.api - u.worker))],
  ];
  say(table(headers, [...cpuRows('direct', directCpu), ...cpuRows('API', apiRuns.map((r) => r.cpu))]));

  heading('the ffmpeg process of each side (/proc)');
  const apiSeen = apiRuns.find((r) => r.ffmpeg)?.ffmpeg;
  for (const [label, seen] of [['direct', directSeen], ['API   ', apiSeen]] as const) {
    say(seen ? `${label}: nice ${seen.nice}, up to ${seen.threads} threads: ${seen.argv.map((a) => (a.includes('/') ? `<${path.basename(a)}>` : a)).join(' ')}` : `${label}: not seen`);
  }
}

/**
 * How long to wait before the next poll: 100 ms whenever the end may be near; while ffmpeg is far
 * from done, until 3 s before its estimated end, at most 1 s. The estimate can only run late (the
 * progress read was written up to HERALD_MEDIA_JOB_PROGRESS_WRITE_MS plus ffmpeg's 0.5 s report
 * period earlier, about 1.5 s: near the end that puts the estimate at most that much past the true
 * end), and FINISHED comes after ffmpeg's end, so the 100 ms polls always start before it.
 */
function pollDelay(job: JobView): number {
  if (job.status !== 'PROCESSING' || !job.started_at || !job.duration_seconds || job.processed_seconds <= 0) return 100;
  const elapsed = Date.now() - new Date(job.started_at).getTime();
  const remainingMs = ((job.duration_seconds - job.processed_seconds) * elapsed) / job.processed_seconds;
  return Math.max(100, Math.min(1000, remainingMs - 3000));
}

runMain('media-job', main);
