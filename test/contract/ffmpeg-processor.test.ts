import { execFileSync } from 'node:child_process';
import { createReadStream, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFfmpegProcessor } from '../../adapters/media/ffmpeg-processor';
import { createLocalMediaStore } from '../../adapters/media/local-store';
import { parseCommandTemplate } from '../../core/domain/ffmpeg-command';
import { MediaProcessError, type MediaProcessRequest } from '../../core/ports/media';

jest.setTimeout(120_000);

/**
 * The ffmpeg processor against real ffmpeg: output into the store with progress, and each way a
 * run is stopped (time limit, output size limit, the caller's signal), always leaving no scratch
 * directory behind. Slow runs read their input with `-re` (real time), so "still running" does
 * not depend on the machine's speed.
 */
describe('ffmpeg media processor', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-ffmpeg-processor-'));
  const scratch = path.join(dir, 'scratch');
  const store = createLocalMediaStore(path.join(dir, 'media'));
  const processor = createFfmpegProcessor({ store, pathOf: store.pathOf, scratchRoot: scratch });
  let inputId = '';

  beforeAll(async () => {
    const clip = path.join(dir, 'clip.mp4');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=160x120:rate=10:duration=30', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', clip]);
    inputId = (await store.put(createReadStream(clip), { contentType: 'video/mp4' })).id;
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const request = (template: string, overrides: Partial<MediaProcessRequest> = {}): MediaProcessRequest => ({
    jobId: 'mj_test', command: parseCommandTemplate(template, 1), inputIds: [inputId], outputExtension: 'mp4', outputContentType: 'video/mp4',
    timeLimitMs: 60_000, maxOutputBytes: 1e9, ...overrides,
  });
  const failure = (p: Promise<unknown>) => p.then(() => { throw new Error('the run succeeded'); }, (err: unknown) => err as MediaProcessError);

  it('probes an input, runs the command into the store and reports progress', async () => {
    expect(await processor.probeInput(inputId)).toEqual({ durationSeconds: 30, format: expect.stringContaining('mp4') });
    const progress: number[] = [];
    const stored = await processor.run(request('ffmpeg -i {input} -t 5 -c:v libx264 -preset ultrafast {output}'), { onProgress: (s) => progress.push(s) });
    expect(stored).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{64}$/), contentType: 'video/mp4' });
    expect(Math.max(...progress)).toBeGreaterThan(4);
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('kills a run past its wall-clock limit', async () => {
    const err = await failure(processor.run(request('ffmpeg -re -i {input} -c:v libx264 -preset ultrafast {output}', { timeLimitMs: 1500 }), {}));
    expect(err).toBeInstanceOf(MediaProcessError);
    expect(err.kind).toBe('time_limit');
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('kills a run whose output passes the size limit', async () => {
    const err = await failure(processor.run(request('ffmpeg -i {input} -c:v libx264 -preset ultrafast -crf 0 {output}', { maxOutputBytes: 20_000 }), {}));
    expect(err.kind).toBe('too_large');
    expect(readdirSync(scratch)).toEqual([]);
  });

  it('kills a run when the caller\'s signal aborts it', async () => {
    const abort = new AbortController();
    const run = processor.run(request('ffmpeg -re -i {input} -c:v libx264 -preset ultrafast {output}'), { signal: abort.signal, onProgress: (s) => { if (s > 1) abort.abort(); } });
    const err = await failure(run);
    expect(err.kind).toBe('cancelled');
    expect(readdirSync(scratch)).toEqual([]);
  });
});
