/**
 * Large upload: one ~1 GiB video through `POST /api/upload` (multipart, streamed from disk) to
 * YouTube (sandbox) with `async_upload=true`, while the API's resident memory is sampled every
 * 100 ms (/proc/<pid>/status VmRSS). Prints the upload time (request → 202), MB/s, and the API's
 * RSS baseline, peak and delta; also the publish to the YouTube simulator (worker) and the
 * worker's and this process's RSS (this process hosts the simulators).
 *
 * The video is a real, valid MP4 made once in the OS temp dir and deleted after: H.264 lossless
 * (`-crf 0 -preset ultrafast`) of ffmpeg's test pattern with full-frame temporal noise on top.
 * Plain testsrc compresses to ~0.25 MB/s even lossless (an hour of video for 1 GiB); the noise
 * makes every frame incompressible (~50 MB/s of video at 1280x720), so ~21 s of video is ~1 GiB
 * and encodes in well under a minute. A 2-second sample calibrates the duration for the size.
 *
 * Disk: needs about 4 × the file size free in the temp dir (the source file, the API's temporary
 * upload file, the media store's copy) plus 1 GiB; checked with `df` first.
 *
 * Knobs: BENCH_UPLOAD_MB (1024 = 1 GiB), BENCH_PUBLISH_TIMEOUT_S (900), BENCH_KEEP_MEDIA=1 (keep the
 * generated file for the next run), BENCH_MEDIA_MAX_BYTES (passed as HERALD_MEDIA_MAX_BYTES).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, statfsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { makeVideo, streamUpload } from '../support/large-video';
import {
  connectNetworks, describeEnvironment, envInt, heading, median, mib, onCleanup, procStatusBytes, runMain, say, sleep,
  startBenchStack, table,
} from './support';

const TARGET_BYTES = envInt('BENCH_UPLOAD_MB', 1024) * 1024 * 1024;
const PUBLISH_TIMEOUT_MS = envInt('BENCH_PUBLISH_TIMEOUT_S', 900) * 1000;
const KEEP = process.env.BENCH_KEEP_MEDIA === '1';
const PROFILE = 'big';
const MB = 1e6;

interface Sample { t: number; api?: number; worker?: number; bench: number }

async function main(): Promise<void> {
  heading(`large-upload: ${mib(TARGET_BYTES)} MiB video → POST /api/upload (multipart, async) → youtube`);
  say(describeEnvironment());

  // ---- disk room first
  const tmp = os.tmpdir();
  const fs = statfsSync(tmp);
  const free = fs.bavail * fs.bsize;
  const file = path.join(tmp, `herald-bench-large-${TARGET_BYTES}.mp4`);
  const reusable = existsSync(file) ? statSync(file).size : 0;
  const needed = 3 * TARGET_BYTES + (reusable ? 0 : TARGET_BYTES) + 1024 ** 3;
  say(execFileSync('df', ['-h', tmp], { encoding: 'utf8' }).trimEnd());
  say(`free in ${tmp}: ${(free / 1024 ** 3).toFixed(1)} GiB; needed: ${(needed / 1024 ** 3).toFixed(1)} GiB (source file + API temp file + media store copy + 1 GiB)`);
  if (free < needed) throw new Error(`not enough disk in ${tmp}: ${(free / 1024 ** 3).toFixed(1)} GiB free, ${(needed / 1024 ** 3).toFixed(1)} GiB needed`);

  // ---- the video, once
  if (!KEEP) onCleanup(() => rmSync(file, { force: true }));
  const video = makeVideo(file, TARGET_BYTES, say);
  say(`video: ${file}: ${video.size} bytes (${mib(video.size)} MiB), ${video.seconds.toFixed(2)} s ${video.codec} ${video.width}x${video.height}` +
    `${video.generatedMs !== undefined ? `, generated in ${(video.generatedMs / 1000).toFixed(1)} s` : ' (reused from an earlier run)'}`);

  // ---- stack: API, worker, youtube connected
  const b = await startBenchStack({
    name: 'large', processingMs: 200, profile: PROFILE,
    env: process.env.BENCH_MEDIA_MAX_BYTES ? { HERALD_MEDIA_MAX_BYTES: process.env.BENCH_MEDIA_MAX_BYTES } : {},
  });
  await connectNetworks(b, PROFILE, ['youtube']);
  const apiPid = b.stack.api.child.pid!;
  const workerPid = b.stack.worker!.child.pid!;

  // ---- memory sampling every 100 ms
  const samples: Sample[] = [];
  const t0 = performance.now();
  const sample = () => samples.push({ t: performance.now() - t0, api: procStatusBytes(apiPid), worker: procStatusBytes(workerPid), bench: process.memoryUsage().rss });
  const timer = setInterval(sample, 100);
  onCleanup(() => clearInterval(timer));
  sample();
  await sleep(2000);
  const baselineEnd = performance.now() - t0;
  const hwmBefore = procStatusBytes(apiPid, 'VmHWM');
  const tmpFilesBefore = new Set(readdirSync(tmp));

  // ---- the upload
  say(`[large] uploading ${mib(video.size)} MiB…`);
  const up = await streamUpload(b.stack.apiUrl, b.auth, file, video.size, { user: PROFILE, platform: 'youtube', title: `Large upload bench ${new Date().toISOString()}` });
  const acceptedAt = performance.now() - t0;
  say(`[large] HTTP ${up.status} after ${(up.totalMs / 1000).toFixed(1)} s (body sent in ${(up.bodyMs / 1000).toFixed(1)} s)`);
  if (up.status !== 202) {
    say(`[large] the upload was refused: HTTP ${up.status} ${up.text.slice(0, 600)}`);
    throw new Error(`upload answered ${up.status}, not 202: ${up.text.slice(0, 300)}`);
  }
  const requestId = (JSON.parse(up.text) as { request_id: string }).request_id;
  const leftovers = readdirSync(tmp).filter((f) => !tmpFilesBefore.has(f)).map((f) => path.join(tmp, f))
    .filter((p) => { try { return statSync(p).isFile() && statSync(p).size > video.size / 2; } catch { return false; } });

  // ---- the publish (worker → youtube simulator)
  const publishStart = performance.now();
  let status: { status?: string; all_succeeded?: boolean | null; results?: Record<string, { success: boolean; error?: string; post_id?: string }> } = {};
  while (performance.now() - publishStart < PUBLISH_TIMEOUT_MS) {
    status = (await b.api.get(`/api/herald/status?request_id=${encodeURIComponent(requestId)}`)).body;
    if (status.status === 'completed') break;
    await sleep(500);
  }
  const publishMs = performance.now() - publishStart;
  const doneAt = performance.now() - t0;
  await sleep(1000);
  clearInterval(timer);
  const hwmAfter = procStatusBytes(apiPid, 'VmHWM');
  const yt = b.sandbox.simulators.youtube.videos();
  const received = yt[yt.length - 1];

  // ---- figures
  const phase = (from: number, to: number) => samples.filter((s) => s.t >= from && s.t <= to);
  const base = phase(0, baselineEnd);
  const during = phase(baselineEnd, acceptedAt);
  const publishing = phase(acceptedAt, doneAt);
  const col = (list: Sample[], k: 'api' | 'worker' | 'bench') => list.map((s) => s[k]).filter((v): v is number => v !== undefined);
  const peak = (list: Sample[], k: 'api' | 'worker' | 'bench') => Math.max(...col(list, k));
  const baseOf = (k: 'api' | 'worker' | 'bench') => median(col(base, k));

  heading(`upload of ${mib(video.size)} MiB (${(video.size / MB).toFixed(0)} MB) to youtube, async_upload=true`);
  say(table(['step', 'seconds', 'MB/s'], [
    ['request → 202 accepted (total upload time)', (up.totalMs / 1000).toFixed(2), (video.size / MB / (up.totalMs / 1000)).toFixed(1)],
    ['  body streamed to the API (multipart → temp file)', (up.bodyMs / 1000).toFixed(2), (video.size / MB / (up.bodyMs / 1000)).toFixed(1)],
    ['  after the last byte: store copy + sha256, ffprobe, upload stored, workflow started', ((up.totalMs - up.bodyMs) / 1000).toFixed(2), '-'],
    ['202 → completed on youtube (worker: 8 MiB resumable chunks)', (publishMs / 1000).toFixed(2), (video.size / MB / (publishMs / 1000)).toFixed(1)],
  ]));
  say(`samples: ${samples.length} (every 100 ms): ${base.length} baseline, ${during.length} during the upload request, ${publishing.length} while publishing`);

  heading('resident memory (VmRSS, MiB)');
  say(table(['process', 'baseline', 'peak during upload', 'delta', 'peak while publishing', 'delta'], [
    ['API (koa, formidable, media store)', mib(baseOf('api')), mib(peak(during, 'api')), mib(peak(during, 'api') - baseOf('api')), mib(peak(publishing, 'api')), mib(peak(publishing, 'api') - baseOf('api'))],
    ['worker (youtube activity)', mib(baseOf('worker')), mib(peak(during, 'worker')), mib(peak(during, 'worker') - baseOf('worker')), mib(peak(publishing, 'worker')), mib(peak(publishing, 'worker') - baseOf('worker'))],
    ['bench process (hosts the youtube simulator)', mib(baseOf('bench')), mib(peak(during, 'bench')), mib(peak(during, 'bench') - baseOf('bench')), mib(peak(publishing, 'bench')), mib(peak(publishing, 'bench') - baseOf('bench'))],
  ]));
  say(`API VmHWM (kernel's own peak RSS since start): ${hwmBefore !== undefined ? mib(hwmBefore) : '?'} MiB before the upload, ${hwmAfter !== undefined ? mib(hwmAfter) : '?'} MiB after`);

  heading('API RSS over time (MiB; max per 1 s bucket)');
  const buckets = new Map<number, Sample[]>();
  for (const s of samples) buckets.set(Math.floor(s.t / 1000), [...(buckets.get(Math.floor(s.t / 1000)) ?? []), s]);
  const keys = [...buckets.keys()].sort((a, c) => a - c);
  const stride = Math.max(1, Math.ceil(keys.length / 40));
  say(table(['t (s)', 'phase', 'api', 'worker', 'bench'], keys.filter((_, i) => i % stride === 0 || i === keys.length - 1).map((k) => {
    const list = buckets.get(k)!;
    const has = (from: number, to: number) => list.some((s) => s.t >= from && s.t < to);
    const label = has(baselineEnd, acceptedAt) ? 'uploading' : has(acceptedAt, doneAt) ? 'publishing' : has(0, baselineEnd) ? 'baseline' : 'done';
    return [String(k), label, mib(peak(list, 'api')), mib(peak(list, 'worker')), mib(peak(list, 'bench'))];
  })));

  heading('result');
  const yr = status.results?.youtube;
  say(table(['check', 'value'], [
    ['upload status', `${status.status ?? '?'}${status.all_succeeded ? ' (all succeeded)' : ''}`],
    ['youtube result', yr ? (yr.success ? `success, post_id ${yr.post_id}` : `FAILED: ${yr.error}`) : 'none'],
    ['bytes the youtube simulator received', received ? `${received.size}${received.size === video.size ? ' (= file size)' : ` (file: ${video.size})`}` : 'none'],
    ['sha256 end to end', received ? (received.sha256 === up.sha256 ? 'identical' : `DIFFERENT (${received.sha256} vs ${up.sha256})`) : '-'],
    ['new large files left in the temp dir after the 202', leftovers.length ? leftovers.join(', ') : 'none'],
  ]));
  if (status.status !== 'completed' || !yr?.success) throw new Error(`the publish did not complete within ${PUBLISH_TIMEOUT_MS / 1000} s`);
}

runMain('large-upload', main);
