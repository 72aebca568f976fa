import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
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

  it('takes a whole file by moving it in: the same id as put, with or without a known digest', async () => {
    const bytes = readFileSync(video);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    for (const known of [true, false]) {
      const file = path.join(store.stagingDir, `upload-${known}.mp4`);
      mkdirSync(store.stagingDir, { recursive: true });
      copyFileSync(video, file);
      const stored = await store.putFile(file, { contentType: 'video/mp4', ...(known ? { sha256 } : {}) });
      expect(stored).toEqual({ id: sha256, size: bytes.length, contentType: 'video/mp4' });
      expect(existsSync(file)).toBe(false);
      expect(await store.stat(sha256)).toEqual(stored);
      expect((await collect(store.read(sha256))).equals(bytes)).toBe(true);
    }
    const big = path.join(dir, 'big.bin');
    copyFileSync(video, big);
    await expect(store.putFile(big, { contentType: 'video/mp4', maxBytes: 10 })).rejects.toBeInstanceOf(MediaTooLargeError);
    await store.delete(sha256);
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

describe('signed links to media job outputs', () => {
  const { createMediaJobOutputLinks, createMediaUrlSigner } = jest.requireActual('../../adapters/media/signed-urls') as typeof import('../../adapters/media/signed-urls');
  let now = new Date('2026-05-01T00:00:00Z');
  const clock = { now: () => now };
  const links = createMediaJobOutputLinks({ key: 'k', publicBaseUrl: 'https://herald.example/', ttlSeconds: 60, clock, pathOf: (id) => `/api/herald/ffmpeg/jobs/${id}/download` });
  const parts = (link: string) => {
    const url = new URL(link);
    return { url, exp: url.searchParams.get('exp')!, sig: url.searchParams.get('sig')! };
  };

  it('links the download route, verifying until the TTL or the output expiry, whichever is first', () => {
    now = new Date('2026-05-01T00:00:00Z');
    const { url, exp, sig } = parts(links.url('mj_1'));
    expect(url.origin + url.pathname).toBe('https://herald.example/api/herald/ffmpeg/jobs/mj_1/download');
    expect(links.verify('mj_1', exp, sig)).toBe(true);
    const soon = parts(links.url('mj_1', new Date(now.getTime() + 10_000)));
    expect(Number(soon.exp)).toBe(now.getTime() / 1000 + 10);
    now = new Date(now.getTime() + 11_000);
    expect([links.verify('mj_1', soon.exp, soon.sig), links.verify('mj_1', exp, sig)]).toEqual([false, true]);
    now = new Date(now.getTime() + 50_000);
    expect(links.verify('mj_1', exp, sig)).toBe(false);
  });

  it('refuses another job, an altered expiry or signature, and a media URL\'s signature', () => {
    now = new Date('2026-05-01T00:00:00Z');
    const { exp, sig } = parts(links.url('mj_1'));
    expect(links.verify('mj_2', exp, sig)).toBe(false);
    expect(links.verify('mj_1', String(Number(exp) + 1000), sig)).toBe(false);
    expect(links.verify('mj_1', exp, sig.slice(0, -2) + (sig.endsWith('AA') ? 'BB' : 'AA'))).toBe(false);
    expect(links.verify('mj_1', exp, undefined)).toBe(false);
    // Same key, same subject: a /media signature is worth nothing as a download link.
    const media = parts(createMediaUrlSigner({ key: 'k', publicBaseUrl: 'https://herald.example', ttlSeconds: 60, clock }).url('mj_1'));
    expect(links.verify('mj_1', media.exp, media.sig)).toBe(false);
  });
});

describe('renditions (real ffmpeg)', () => {
  const { createRenditions } = jest.requireActual('../../adapters/media/renditions') as typeof import('../../adapters/media/renditions');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-renditions-'));
  const inner = createLocalMediaStore(path.join(dir, 'store'));
  let puts = 0;
  const store = { ...inner, put: (...args: Parameters<typeof inner.put>) => { puts += 1; return inner.put(...args); } };
  const probe = createFfprobe({ pathOf: inner.pathOf });
  const rendition = createRenditions({ store, pathOf: inner.pathOf, probe });
  const isJpeg = (b: Buffer) => b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
  const file = (name: string, ...args: string[]) => {
    const out = path.join(dir, name);
    execFileSync('ffmpeg', ['-v', 'error', '-y', ...args, '-frames:v', '1', out]);
    return out;
  };

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('converts a PNG to a JPEG of the same size, stored as media of its own', async () => {
    const png = await inner.put(createReadStream(file('card.png', '-f', 'lavfi', '-i', 'testsrc=size=641x481')), { contentType: 'image/png' });
    const jpeg = await rendition(png.id, 'image/jpeg');
    expect(jpeg).toMatchObject({ kind: 'image', contentType: 'image/jpeg', info: { width: 641, height: 481 } });
    expect(jpeg.id).not.toBe(png.id);
    const bytes = await collect(inner.read(jpeg.id));
    expect(isJpeg(bytes)).toBe(true);
    expect(jpeg.size).toBe(bytes.length);
    expect(jpeg.id).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect(await inner.stat(jpeg.id)).toEqual({ id: jpeg.id, size: bytes.length, contentType: 'image/jpeg' });
  });

  it('converts once: later and concurrent asks get the stored rendition', async () => {
    const png = await inner.put(createReadStream(file('once.png', '-f', 'lavfi', '-i', 'testsrc2=size=320x200')), { contentType: 'image/png' });
    puts = 0;
    const [a, b] = await Promise.all([rendition(png.id, 'image/jpeg'), rendition(png.id, 'image/jpeg')]);
    const c = await createRenditions({ store, pathOf: inner.pathOf, probe })(png.id, 'image/jpeg');
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(puts).toBe(1);
  });

  it('flattens transparency onto white (JPEG has no alpha)', async () => {
    const clear = file('clear.png', '-f', 'lavfi', '-i', 'color=c=black@0.0:size=16x16,format=rgba');
    const png = await inner.put(createReadStream(clear), { contentType: 'image/png' });
    const jpeg = await rendition(png.id, 'image/jpeg');
    const rgb = execFileSync('ffmpeg', ['-v', 'error', '-i', inner.pathOf(jpeg.id), '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-']);
    expect(Math.min(...rgb)).toBeGreaterThan(240);
  });

  it('a JPEG is its own rendition', async () => {
    const jpg = await inner.put(createReadStream(file('photo.jpg', '-f', 'lavfi', '-i', 'color=c=red:size=64x48')), { contentType: 'image/jpeg' });
    puts = 0;
    expect(await rendition(jpg.id, 'image/jpeg')).toMatchObject({ id: jpg.id, kind: 'image', contentType: 'image/jpeg', size: jpg.size, info: { width: 64, height: 48 } });
    expect(puts).toBe(0);
  });

  it('says which media it could not convert', async () => {
    const junk = await inner.put((async function* () { yield Buffer.from('not an image'); })(), { contentType: 'image/png' });
    await expect(rendition(junk.id, 'image/jpeg')).rejects.toThrow(junk.id);
    await expect(rendition('f'.repeat(64), 'image/jpeg')).rejects.toThrow('f'.repeat(64));
  });
});
