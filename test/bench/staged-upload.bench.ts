/**
 * Staged upload: one file (default 1 GiB) PUT with `curl -T` to a staged upload's signed URL
 * (POST /media-uploads, PUT, POST …/complete), beside `curl -T` of the same file to a bare
 * node:http sink (its own process) that streams the body to disk, in the same run, alternating.
 * The API's resident memory is sampled every 100 ms (/proc/<pid>/status VmRSS).
 * Goals (issue 29): API RSS growth ≤ 64 MiB; staged time ≤ 1.2 × the sink's.
 *
 * The file is an MP4 header (`ftyp isom`, what the sniffer reads) followed by random bytes: the
 * staged path never decodes the video, so a real encode would only cost time. Staged time is the
 * PUT (streamed to the staging file, SHA-256 and sniffing as it goes, fsync) plus the complete
 * (checks, rename into the media store); the sink's is its PUT (write, fsync).
 *
 * Disk: about 3 × the file size free in the temp dir (the file, the sink's copy, the staged copy).
 * Knobs: BENCH_UPLOAD_MB (1024), BENCH_ROUNDS (4; each round one of each, the first of the pair alternating), BENCH_KEEP_MEDIA=1.
 * Small run: BENCH_UPLOAD_MB=64 node dist/test/bench/run.js staged-upload
 */
import { execFile, spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, rmSync, statSync, statfsSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  describeEnvironment, envInt, heading, median, mib, onCleanup, procStatusBytes, runMain, say, sleep, startBenchStack, table,
} from './support';

const TARGET_BYTES = envInt('BENCH_UPLOAD_MB', 1024) * 1024 * 1024;
const ROUNDS = envInt('BENCH_ROUNDS', 4);
const KEEP = process.env.BENCH_KEEP_MEDIA === '1';
const RSS_GOAL_MIB = 64;
const TIME_GOAL = 1.2;

/** The file: an ISO BMFF header, then random bytes (incompressible, never sparse); its SHA-256 computed while written. */
function makeFile(file: string, size: number): string {
  const hash = createHash('sha256');
  const fd = openSync(file, 'w');
  try {
    const header = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypisom'), Buffer.alloc(12)]);
    writeSync(fd, header);
    hash.update(header);
    for (let written = header.length; written < size;) {
      const block = randomBytes(Math.min(8 << 20, size - written));
      writeSync(fd, block);
      hash.update(block);
      written += block.length;
    }
  } finally {
    closeSync(fd);
  }
  return hash.digest('hex');
}

/** The bare sink: node:http, the body piped to a file, fsync'd, 200. Its own process, like the API. */
const SINK = `
const http = require('node:http'); const fs = require('node:fs'); const { pipeline } = require('node:stream/promises');
const file = process.argv[1];
http.createServer(async (req, res) => {
  const out = fs.createWriteStream(file);
  await pipeline(req, out);
  const fd = fs.openSync(file, 'r+'); fs.fsyncSync(fd); fs.closeSync(fd);
  res.end(JSON.stringify({ received: fs.statSync(file).size }));
}).listen(0, '127.0.0.1', function () { process.stdout.write(String(this.address().port) + '\\n'); });
`;

async function startSink(file: string): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ['-e', SINK, file], { stdio: ['ignore', 'pipe', 'inherit'] });
  const stop = () => { child.kill(); };
  onCleanup(stop);
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (b: Buffer) => resolve(b.toString().trim()));
    child.once('exit', (code) => reject(new Error(`the sink exited (${code})`)));
  });
  return { url: `http://127.0.0.1:${port}/sink`, stop };
}

/** `curl -T file url`: seconds and the answer. Not execFileSync: the RSS sampler must keep running meanwhile. */
async function curlPut(file: string, url: string): Promise<{ seconds: number; answer: string }> {
  const start = performance.now();
  const answer = await new Promise<string>((resolve, reject) => {
    execFile('curl', ['-sS', '--fail-with-body', '-T', file, url], { encoding: 'utf8', maxBuffer: 1 << 20 }, (err, stdout) => (err ? reject(new Error(`${err.message}: ${stdout}`)) : resolve(stdout)));
  });
  return { seconds: (performance.now() - start) / 1000, answer };
}

async function main(): Promise<void> {
  heading(`staged-upload: ${mib(TARGET_BYTES)} MiB, curl -T to a staged upload URL beside curl -T to a bare node:http sink`);
  say(describeEnvironment());
  const tmp = os.tmpdir();
  const fsStat = statfsSync(tmp);
  const needed = 3 * TARGET_BYTES + 512 * 1024 ** 2;
  say(`free in ${tmp}: ${(fsStat.bavail * fsStat.bsize / 1024 ** 3).toFixed(1)} GiB; needed: ${(needed / 1024 ** 3).toFixed(1)} GiB`);
  if (fsStat.bavail * fsStat.bsize < needed) throw new Error('not enough disk in the temp dir');

  const file = path.join(tmp, `herald-bench-staged-${TARGET_BYTES}.mp4`);
  if (!KEEP) onCleanup(() => rmSync(file, { force: true }));
  const madeAt = performance.now();
  const sha256 = existsSync(file) && statSync(file).size === TARGET_BYTES && KEEP ? undefined : makeFile(file, TARGET_BYTES);
  say(`file: ${file}, ${TARGET_BYTES} bytes${sha256 ? `, written in ${((performance.now() - madeAt) / 1000).toFixed(1)} s` : ' (reused)'}`);

  const b = await startBenchStack({ name: 'staged', worker: false, env: { HERALD_MEDIA_MAX_BYTES: String(Math.max(TARGET_BYTES, 10 * 1024 ** 3)) } });
  const apiPid = b.stack.api.child.pid!;
  const sinkFile = path.join(b.tmpDir, 'sink.bin');
  const sink = await startSink(sinkFile);

  const samples: Array<{ t: number; rss: number }> = [];
  const t0 = performance.now();
  const timer = setInterval(() => {
    const rss = procStatusBytes(apiPid);
    if (rss !== undefined) samples.push({ t: performance.now() - t0, rss });
  }, 100);
  onCleanup(() => clearInterval(timer));
  await sleep(2000);
  const baseline = median(samples.map((s) => s.rss));

  const sinkSeconds: number[] = [];
  const staged: Array<{ put: number; complete: number; peak: number; sha: string }> = [];
  const viaSink = async (round: number) => {
    const s = await curlPut(file, sink.url);
    sinkSeconds.push(s.seconds);
    rmSync(sinkFile, { force: true });
    say(`[round ${round}] sink: ${s.seconds.toFixed(2)} s (${s.answer})`);
  };
  const viaStaged = async (round: number) => {
    const made = await b.api.post('/api/herald/media-uploads', { filename: 'big.mp4', content_type: 'video/mp4', content_length: TARGET_BYTES, media_type: 'video' });
    if (made.status !== 201) throw new Error(`create answered ${made.status}: ${JSON.stringify(made.body)}`);
    const from = performance.now() - t0;
    const put = await curlPut(file, made.body.upload_url);
    const completeStart = performance.now();
    const done = await b.api.post(`/api/herald/media-uploads/${made.body.upload_id}/complete`, {});
    const complete = (performance.now() - completeStart) / 1000;
    if (done.status !== 200) throw new Error(`complete answered ${done.status}: ${JSON.stringify(done.body)}`);
    await sleep(300);
    const during = samples.filter((x) => x.t >= from);
    const peak = Math.max(...during.map((x) => x.rss));
    staged.push({ put: put.seconds, complete, peak, sha: done.body.sha256 });
    say(`[round ${round}] staged: PUT ${put.seconds.toFixed(2)} s, complete ${complete.toFixed(3)} s, API peak RSS ${mib(peak)} MiB (${during.length} samples)`);
    // The stored copy goes (no post uses it): the next round starts from the same disk.
    await b.api.delete(`/api/herald/media-uploads/${made.body.upload_id}`);
  };
  // Alternating which goes first, so neither always meets the other's disk writeback.
  for (let round = 1; round <= ROUNDS; round += 1) {
    if (round % 2 === 1) await viaSink(round);
    else await viaStaged(round);
    await sleep(1000);
    if (round % 2 === 1) await viaStaged(round);
    else await viaSink(round);
    await sleep(1000);
  }
  clearInterval(timer);
  sink.stop();

  const sinkMedian = median(sinkSeconds);
  const stagedMedian = median(staged.map((s) => s.put + s.complete));
  const growth = Math.max(...staged.map((s) => s.peak)) - baseline;
  const ratio = stagedMedian / sinkMedian;
  heading(`${mib(TARGET_BYTES)} MiB, ${ROUNDS} round(s), medians`);
  say(table(['path', 'seconds', 'MB/s'], [
    ['curl -T → bare node:http sink (write + fsync)', sinkMedian.toFixed(2), (TARGET_BYTES / 1e6 / sinkMedian).toFixed(0)],
    ['curl -T → staged upload URL, + complete', stagedMedian.toFixed(2), (TARGET_BYTES / 1e6 / stagedMedian).toFixed(0)],
    ['  of which complete (checks, rename into the store)', median(staged.map((s) => s.complete)).toFixed(3), '-'],
  ]));
  heading('result');
  say(table(['check', 'value', 'goal', 'met'], [
    ['API RSS growth (peak during the staged uploads − baseline)', `${mib(growth)} MiB (baseline ${mib(baseline)})`, `≤ ${RSS_GOAL_MIB} MiB`, growth <= RSS_GOAL_MIB * 1024 ** 2 ? 'yes' : 'NO'],
    ['time, staged / sink', ratio.toFixed(2), `≤ ${TIME_GOAL}`, ratio <= TIME_GOAL ? 'yes' : 'NO'],
    ['SHA-256 Herald recorded', sha256 ? (staged.every((s) => s.sha === sha256) ? 'the file\'s' : 'DIFFERENT') : '(file reused: not recomputed)', '= the file\'s', sha256 ? (staged.every((s) => s.sha === sha256) ? 'yes' : 'NO') : '-'],
  ]));
  if (sha256 && !staged.every((s) => s.sha === sha256)) throw new Error('the recorded SHA-256 is not the file\'s');
}

runMain('staged-upload', main);
