import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:http';
import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/**
 * A large, real video and a streamed multipart upload of it, shared by the 1 GiB end-to-end test
 * and the large-upload bench.
 *
 * The video is a valid MP4: H.264 lossless (`-crf 0 -preset ultrafast`) of ffmpeg's test pattern
 * with full-frame temporal noise on top. Plain testsrc compresses to ~0.25 MB/s even lossless;
 * the noise makes every frame incompressible (~50 MB/s at 1280x720), so ~21 s of video is ~1 GiB
 * and encodes in seconds. A 2-second sample calibrates the duration for the size.
 */
export interface VideoFile { size: number; seconds: number; codec: string; width: number; height: number; generatedMs?: number }

const MB = 1e6;

export function probeVideo(file: string): Omit<VideoFile, 'size' | 'generatedMs'> | undefined {
  try {
    const out = JSON.parse(execFileSync('ffprobe', ['-v', 'error', '-select_streams', 'v:0', '-show_entries', 'stream=codec_name,width,height:format=duration', '-of', 'json', file], { encoding: 'utf8' })) as {
      streams?: Array<{ codec_name: string; width: number; height: number }>; format?: { duration?: string };
    };
    const s = out.streams?.[0];
    return s && out.format?.duration ? { codec: s.codec_name, width: s.width, height: s.height, seconds: Number(out.format.duration) } : undefined;
  } catch {
    return undefined;
  }
}

const ffmpegArgs = (seconds: number, out: string) => [
  '-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=1280x720:rate=30', '-vf', 'noise=alls=100:allf=t+u',
  '-t', seconds.toFixed(3), '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '0', '-pix_fmt', 'yuv420p', out,
];

/** Makes (or reuses, when it is there with about the right size) a video of about `targetBytes`. */
export function makeVideo(file: string, targetBytes: number, say: (line: string) => void = () => undefined): VideoFile {
  if (existsSync(file)) {
    const info = probeVideo(file);
    const size = statSync(file).size;
    if (info && Math.abs(size - targetBytes) < targetBytes * 0.05) return { ...info, size };
    rmSync(file, { force: true });
  }
  const started = performance.now();
  const sampleFile = `${file}.calibrate.mp4`;
  execFileSync('ffmpeg', ffmpegArgs(2, sampleFile));
  const bytesPerSecond = statSync(sampleFile).size / 2;
  rmSync(sampleFile, { force: true });
  const seconds = targetBytes / bytesPerSecond;
  say(`[large] generating ${seconds.toFixed(1)} s of lossless H.264 noise (${(bytesPerSecond / MB).toFixed(1)} MB per second of video)…`);
  execFileSync('ffmpeg', ffmpegArgs(seconds, file), { stdio: ['ignore', 'inherit', 'inherit'] });
  const info = probeVideo(file);
  if (!info) throw new Error(`ffprobe cannot read the generated ${file}`);
  return { ...info, size: statSync(file).size, generatedMs: performance.now() - started };
}

/**
 * `POST /api/upload` with a hand-built multipart body streamed from the file with back-pressure
 * (node:http, known Content-Length), hashing the bytes on the way out, `async_upload=true`.
 * `bodyMs` is when the last byte was written to the socket, `totalMs` when the answer arrived.
 */
export async function streamUpload(
  apiUrl: string, auth: string, file: string, size: number, post: { user: string; platform: string; title: string },
): Promise<{ status: number; text: string; bodyMs: number; totalMs: number; sha256: string }> {
  const boundary = `----herald-large-${Date.now().toString(16)}`;
  const field = (name: string, value: string) => `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const head = Buffer.from(
    field('user', post.user) + field('platform[]', post.platform) + field('title', post.title) + field('async_upload', 'true') +
    `--${boundary}\r\nContent-Disposition: form-data; name="video"; filename="large.mp4"\r\nContent-Type: video/mp4\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const hash = createHash('sha256');
  async function* body() {
    yield head;
    for await (const chunk of createReadStream(file, { highWaterMark: 1024 * 1024 })) {
      hash.update(chunk as Buffer);
      yield chunk as Buffer;
    }
    yield tail;
  }
  const url = new URL('/api/upload', apiUrl);
  const t0 = performance.now();
  let bodyMs = NaN;
  const req = request(url, {
    method: 'POST',
    headers: { Authorization: auth, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(head.length + size + tail.length) },
  });
  const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
    req.once('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.once('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.once('error', reject);
    });
    req.once('error', reject);
  });
  // An early answer (a refusal before the whole body) ends the write side; the answer still counts.
  const sent = pipeline(Readable.from(body()), req).then(() => { bodyMs = performance.now() - t0; }, () => undefined);
  const { status, text } = await answer;
  const totalMs = performance.now() - t0;
  await Promise.race([sent, new Promise((r) => setTimeout(r, 1000))]);
  return { status, text, bodyMs: Number.isNaN(bodyMs) ? totalMs : bodyMs, totalMs, sha256: hash.digest('hex') };
}
