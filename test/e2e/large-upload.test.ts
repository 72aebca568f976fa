import { readFileSync, statfsSync } from 'node:fs';
import os from 'node:os';
import { streamUpload } from '../support/large-video';
import { media, useHerald } from '../support/e2e';

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
  beforeAll(() => {
    const fs = statfsSync(os.tmpdir());
    const free = fs.bavail * fs.bsize;
    if (free < 5 * GIB) throw new Error(`the 1 GiB upload test needs 5 GiB free in ${os.tmpdir()}; ${(free / GIB).toFixed(1)} GiB free`);
  });
  const herald = useHerald({ sandbox: true, account: { email: 'large@herald.dev' }, profiles: ['lars'] });
  const { stack, sandbox } = herald;

  it('is streamed, not buffered: accepted with flat API memory and published byte for byte', async () => {
    await herald.connect('youtube', { profile: 'lars' });

    const video = media.large(GIB);
    const file = video.file;
    expect(video.size).toBeGreaterThan(0.95 * GIB);

    const apiPid = stack.api.child.pid!;
    const baseline = rss(apiPid);
    let peak = baseline;
    const sampler = setInterval(() => { peak = Math.max(peak, rss(apiPid)); }, 100);
    let up;
    try {
      up = await streamUpload(stack.apiUrl, `Apikey ${herald.key}`, file, video.size, { user: 'lars', platform: 'youtube', title: 'One gibibyte' });
    } finally {
      clearInterval(sampler);
    }
    process.stdout.write(`[large-upload e2e] ${mib(video.size)} MiB accepted in ${(up.totalMs / 1000).toFixed(1)} s; ` +
      `API RSS baseline ${mib(baseline)} MiB, peak ${mib(peak)} MiB (+${mib(peak - baseline)} MiB)\n`);
    expect(up.status).toBe(202);
    // Holding the file (or a good part of it) in memory would show here: 1024 MiB went through.
    expect(peak - baseline).toBeLessThan(256 * 1024 ** 2);

    const requestId = JSON.parse(up.text).request_id as string;
    const done = await herald.waitForCompletion(requestId, { timeoutMs: 600_000 });
    expect(done.body.results.youtube).toMatchObject({ success: true, post_id: expect.any(String) });
    const received = sandbox.simulators.youtube.videos().at(-1)!;
    expect({ size: received.size, sha256: received.sha256 }).toEqual({ size: video.size, sha256: up.sha256 });
  });
});
