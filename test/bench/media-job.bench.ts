/**
 * Media job: the wall time of one transcode through the API (multipart POST of the input →
 * FINISHED, polled every 100 ms) against the same ffmpeg command run directly on the same file.
 * The goal is a ratio ≤ 1.1: the API, the workflow, the media store copy and the progress reports
 * together add at most a tenth.
 *
 * The input is made once in the OS temp dir (kept with BENCH_KEEP_MEDIA=1): ffmpeg's test pattern,
 * 1080p, 30 fps, H.264, BENCH_MEDIA_SECONDS long (60).
 *
 * Knobs: BENCH_MEDIA_SECONDS (60), BENCH_MEDIA_ARGS (the transcode's options, default
 * `-c:v libx264 -preset veryfast -crf 26 -pix_fmt yuv420p`), BENCH_ROUNDS (1: direct then API;
 * more rounds alternate and the medians are compared), BENCH_KEEP_MEDIA=1.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { describeEnvironment, envInt, heading, median, onCleanup, runMain, say, sleep, startBenchStack, table } from './support';

const SECONDS = envInt('BENCH_MEDIA_SECONDS', 60);
const ROUNDS = envInt('BENCH_ROUNDS', 1);
const ARGS = process.env.BENCH_MEDIA_ARGS ?? '-c:v libx264 -preset veryfast -crf 26 -pix_fmt yuv420p';
const KEEP = process.env.BENCH_KEEP_MEDIA === '1';

function runFfmpeg(args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (b: Buffer) => { err = (err + b.toString()).slice(-2000); });
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exited ${code}: ${err}`))));
  });
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

  const b = await startBenchStack({ name: 'media', worker: true, env: {} });
  const scratchOut = path.join(b.tmpDir, 'direct.mp4');
  const bytes = readFileSync(input);

  const direct = async (): Promise<number> => {
    const t = performance.now();
    await runFfmpeg(['-nostdin', '-hide_banner', '-loglevel', 'error', '-y', '-i', input, ...ARGS.split(' '), scratchOut]);
    return performance.now() - t;
  };
  const viaApi = async (): Promise<number> => {
    const t = performance.now();
    const form = new FormData();
    form.append('full_command', `ffmpeg -i {input} ${ARGS} {output}`);
    form.append('output_extension', 'mp4');
    form.append('file', new Blob([bytes]), 'input.mp4');
    const res = await fetch(`${b.stack.apiUrl}/api/herald/ffmpeg/jobs/upload`, { method: 'POST', headers: { Authorization: b.auth }, body: form });
    const body = await res.json() as { job_id?: string };
    if (res.status !== 202 || !body.job_id) throw new Error(`submit answered ${res.status}: ${JSON.stringify(body)}`);
    for (;;) {
      const job = await b.api.get(`/api/herald/ffmpeg/jobs/${body.job_id}`);
      if (job.body.status === 'FINISHED') return performance.now() - t;
      if (job.body.status === 'ERROR') throw new Error(`job failed: ${JSON.stringify(job.body)}`);
      await sleep(100);
    }
  };

  const rows: Array<[string, number, number]> = [];
  for (let round = 1; round <= ROUNDS; round += 1) {
    // Alternate the order so neither side always runs on a warmer (or busier) machine.
    const [first, second] = round % 2 ? [direct, viaApi] : [viaApi, direct];
    const a = await first();
    const c = await second();
    const [d, api] = round % 2 ? [a, c] : [c, a];
    rows.push([`round ${round}`, d, api]);
    say(`round ${round}: direct ${(d / 1000).toFixed(2)} s, API ${(api / 1000).toFixed(2)} s, ratio ${(api / d).toFixed(3)}`);
  }
  const d = median(rows.map((r) => r[1]));
  const api = median(rows.map((r) => r[2]));
  say(table(['', 'direct ffmpeg (s)', 'through the API (s)', 'ratio'], [
    ...rows.map(([name, x, y]) => [name, (x / 1000).toFixed(2), (y / 1000).toFixed(2), (y / x).toFixed(3)]),
    ['median', (d / 1000).toFixed(2), (api / 1000).toFixed(2), (api / d).toFixed(3)],
  ]));
  say(`ratio API / direct: ${(api / d).toFixed(3)}× (goal ≤ 1.1×) ${api / d <= 1.1 ? 'met' : 'NOT met'}`);
}

runMain('media-job', main);
