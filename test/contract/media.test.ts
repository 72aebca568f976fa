import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLocalMediaStore } from '../../adapters/media/local-store';
import { createFfprobe } from '../../adapters/media/ffprobe';
import { MediaTooLargeError } from '../../core/ports/media';

async function collect(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of source) parts.push(Buffer.from(chunk));
  return Buffer.concat(parts);
}

describe('local media store and ffprobe (real ffmpeg)', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-media-'));
  const video = path.join(dir, 'clip.mp4');
  const store = createLocalMediaStore(path.join(dir, 'store'));

  beforeAll(() => {
    execFileSync('ffmpeg', ['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=25:duration=2',
      '-f', 'lavfi', '-i', 'sine=frequency=440:duration=2', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', video]);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('stores by content address and reads back the same bytes, whole or by range', async () => {
    const bytes = readFileSync(video);
    const stored = await store.put(createReadStream(video), { contentType: 'video/mp4' });
    expect(stored).toEqual({ id: createHash('sha256').update(bytes).digest('hex'), size: bytes.length, contentType: 'video/mp4' });
    expect(await store.stat(stored.id)).toEqual(stored);
    expect((await collect(store.read(stored.id))).equals(bytes)).toBe(true);
    expect((await collect(store.read(stored.id, { start: 10, end: 110 }))).equals(bytes.subarray(10, 110))).toBe(true);
    const again = await store.put(createReadStream(video), { contentType: 'video/mp4' });
    expect(again.id).toBe(stored.id);
    await store.delete(stored.id);
    expect(await store.stat(stored.id)).toBeNull();
  });

  it('refuses past maxBytes and keeps nothing', async () => {
    const big = randomBytes(64 * 1024);
    await expect(store.put((async function* () { yield big; yield big; })(), { contentType: 'application/octet-stream', maxBytes: 100_000 }))
      .rejects.toBeInstanceOf(MediaTooLargeError);
    const id = createHash('sha256').update(Buffer.concat([big, big])).digest('hex');
    expect(await store.stat(id)).toBeNull();
  });

  it('probes duration, resolution, frame rate and codecs', async () => {
    const stored = await store.put(createReadStream(video), { contentType: 'video/mp4' });
    const info = await createFfprobe({ pathOf: store.pathOf }).probe(stored.id);
    expect(info).toMatchObject({ width: 320, height: 240, frameRate: 25, videoCodec: 'h264', audioCodec: 'aac' });
    expect(info.durationSeconds).toBeGreaterThan(1.9);
    expect(info.durationSeconds).toBeLessThan(2.2);
    expect(info.container).toContain('mp4');
  });

  it('says which media it could not read', async () => {
    const stored = await store.put((async function* () { yield Buffer.from('not a video'); })(), { contentType: 'video/mp4' });
    await expect(createFfprobe({ pathOf: store.pathOf }).probe(stored.id)).rejects.toThrow(stored.id);
  });
});

describe('signed media URLs', () => {
  const { createMediaUrlSigner } = jest.requireActual('../../adapters/media/signed-urls') as typeof import('../../adapters/media/signed-urls');
  let now = new Date('2026-05-01T00:00:00Z');
  const signer = createMediaUrlSigner({ key: 'k', publicBaseUrl: 'https://media.example/', ttlSeconds: 60, clock: { now: () => now } });
  const id = 'a'.repeat(64);

  it('signs a URL that verifies until it expires, and not after', () => {
    const url = new URL(signer.url(id));
    expect(url.origin + url.pathname).toBe(`https://media.example/media/${id}`);
    const exp = url.searchParams.get('exp')!;
    const sig = url.searchParams.get('sig')!;
    expect(signer.verify(id, exp, sig)).toBe(true);
    now = new Date(now.getTime() + 61_000);
    expect(signer.verify(id, exp, sig)).toBe(false);
  });

  it('refuses a tampered id, expiry or signature', () => {
    now = new Date('2026-05-01T00:00:00Z');
    const url = new URL(signer.url(id));
    const exp = url.searchParams.get('exp')!;
    const sig = url.searchParams.get('sig')!;
    expect(signer.verify('b'.repeat(64), exp, sig)).toBe(false);
    expect(signer.verify(id, String(Number(exp) + 1000), sig)).toBe(false);
    expect(signer.verify(id, exp, sig.slice(0, -2) + 'AA')).toBe(false);
    expect(signer.verify(id, undefined, sig)).toBe(false);
  });
});
