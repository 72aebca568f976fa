import { readFileSync, rmSync, statfsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { approveAuthorization, startSandbox, type Sandbox } from '../../apps/sandbox/main';
import { makeVideo, streamUpload } from '../support/large-video';
import { apiClient, eventually, freePort, startStack, type Stack } from '../support/stack';

jest.setTimeout(900_000);

const GIB = 1024 ** 3;

/** Resident memory of a process (Linux /proc), in bytes. */
function rss(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').split('\n').find((l) => l.startsWith('VmRSS:'));
  return Number(line?.replace(/\D+/g, '') ?? 0) * 1024;
}
const mib = (bytes: number) => (bytes / 1024 ** 2).toFixed(1);

/**
 * A 1 GiB video through POST /api/upload (multipart, streamed) to YouTube on the real stack: the
 * API's memory stays flat (the file is streamed to disk, never held whole), the bytes YouTube
 * receives are the bytes sent. The API's peak resident memory is printed; the bench
 * (test/bench/large-upload.bench.ts) has the detailed figures.
 */
describe('a 1 GiB video upload', () => {
  let sandbox: Sandbox;
  let stack: Stack;
  const file = path.join(os.tmpdir(), `herald-e2e-large-${process.pid}.mp4`);

  beforeAll(async () => {
    const fs = statfsSync(os.tmpdir());
    const free = fs.bavail * fs.bsize;
    if (free < 5 * GIB) throw new Error(`the 1 GiB upload test needs 5 GiB free in ${os.tmpdir()}; ${(free / GIB).toFixed(1)} GiB free`);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    sandbox = await startSandbox({ ports: 'random', heraldPublicBaseUrl: base, processingMs: 50 });
    stack = await startStack({ ...sandbox.env, HERALD_API_PORT: String(port), HERALD_PUBLIC_BASE_URL: base });
    await stack.startWorker();
  });

  afterAll(async () => {
    rmSync(file, { force: true });
    await stack?.stop();
    await sandbox?.close();
  });

  it('is streamed, not buffered: accepted with flat API memory and published byte for byte', async () => {
    const key = await stack.newApiKey('large@herald.dev');
    const api = apiClient(stack.apiUrl, key);
    expect((await api.post('/api/herald/users', { username: 'lars' })).status).toBe(201);
    const start = await api.post('/api/herald/oauth/youtube/start', { profile_username: 'lars', redirect_url: 'https://integrator.example/connected' });
    const back = await fetch(await approveAuthorization(start.body.authorize_url), { redirect: 'manual' });
    expect(new URL(back.headers.get('location')!).searchParams.get('connect_status')).toBe('success');

    const video = makeVideo(file, GIB);
    expect(video.size).toBeGreaterThan(0.95 * GIB);

    const apiPid = stack.api.child.pid!;
    const baseline = rss(apiPid);
    let peak = baseline;
    const sampler = setInterval(() => { peak = Math.max(peak, rss(apiPid)); }, 100);
    let up;
    try {
      up = await streamUpload(stack.apiUrl, `Apikey ${key}`, file, video.size, { user: 'lars', platform: 'youtube', title: 'One gibibyte' });
    } finally {
      clearInterval(sampler);
    }
    process.stdout.write(`[large-upload e2e] ${mib(video.size)} MiB accepted in ${(up.totalMs / 1000).toFixed(1)} s; ` +
      `API RSS baseline ${mib(baseline)} MiB, peak ${mib(peak)} MiB (+${mib(peak - baseline)} MiB)\n`);
    expect(up.status).toBe(202);
    // Holding the file (or a good part of it) in memory would show here: 1024 MiB went through.
    expect(peak - baseline).toBeLessThan(256 * 1024 ** 2);

    const requestId = JSON.parse(up.text).request_id as string;
    const done = await eventually(() => api.get(`/api/herald/status?request_id=${requestId}`), (r) => r.body.status === 'completed', 600_000, 1000);
    expect(done.body.results.youtube).toMatchObject({ success: true, post_id: expect.any(String) });
    const received = sandbox.simulators.youtube.videos().at(-1)!;
    expect({ size: received.size, sha256: received.sha256 }).toEqual({ size: video.size, sha256: up.sha256 });
  });
});
