import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createReadStream } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ffmpeg from 'fluent-ffmpeg';
import type { MediaRef } from '../../core/domain/media';
import type { MediaProbe, MediaStore } from '../../core/ports/media';
import type { RenditionType } from '../../core/ports/platform';
import { STORE_FILE_MODE } from './local-store';

export interface RenditionOptions {
  store: MediaStore;
  /** Where the local store keeps a file: ffmpeg reads it there, and the rendition's index sits beside it. */
  pathOf(id: string): string;
  probe: MediaProbe;
  ffmpegPath?: string;
}

const EXTENSION: Record<RenditionType, string> = { 'image/jpeg': 'jpeg' };

const even = (n: number) => n + (n % 2);

/** Runs ffmpeg; its error names the media rather than the temporary paths. */
function toJpeg(source: string, size: { width: number; height: number }, out: string): Promise<void> {
  return new Promise((resolve, reject) => {
    ffmpeg()
      // JPEG has no alpha: transparent pixels would come out as whatever colour they hide (often
      // black), so the image is laid over white first, as image viewers show it. The colour source
      // only makes even sizes: it is made a pixel larger where needed and cropped back.
      .input(`color=c=white:size=${even(size.width)}x${even(size.height)}`).inputFormat('lavfi')
      .input(source)
      .complexFilter(`[0:v][1:v]overlay=shortest=1:format=rgb,crop=${size.width}:${size.height}:0:0,format=yuvj444p`)
      .outputOptions(['-frames:v', '1', '-update', '1', '-q:v', '2', '-c:v', 'mjpeg', '-f', 'image2'])
      .output(out)
      .on('end', () => resolve())
      .on('error', (err: Error) => reject(err))
      .run();
  });
}

/**
 * Converted copies of stored media for networks that refuse the original's format (Instagram
 * publishes JPEG only). A rendition is stored like any upload (content-addressed), and a small
 * index beside the original (`<original>.<format>.json`) names it, so each file is converted once;
 * concurrent asks in one process share the conversion.
 */
export function createRenditions(opts: RenditionOptions): (id: string, as: RenditionType) => Promise<MediaRef> {
  if (opts.ffmpegPath) ffmpeg.setFfmpegPath(opts.ffmpegPath);
  const inFlight = new Map<string, Promise<MediaRef>>();

  const describe = async (id: string, contentType: string, size: number): Promise<MediaRef> =>
    ({ id, kind: 'image', contentType, size, info: await opts.probe.probe(id) });

  async function indexed(indexFile: string): Promise<MediaRef | undefined> {
    try {
      const ref = JSON.parse(await readFile(indexFile, 'utf8')) as MediaRef;
      // The rendition may have been deleted since: convert again then.
      return (await opts.store.stat(ref.id)) ? ref : undefined;
    } catch {
      return undefined;
    }
  }

  async function convert(id: string, as: RenditionType): Promise<MediaRef> {
    const original = await opts.store.stat(id);
    if (!original) throw new Error(`media ${id} is not in the store: no ${as} rendition`);
    if (original.contentType === as) return describe(id, original.contentType, original.size);
    const indexFile = `${opts.pathOf(id)}.${EXTENSION[as]}.json`;
    const known = await indexed(indexFile);
    if (known) return known;

    const info = await opts.probe.probe(id).catch(() => undefined);
    if (!info?.width || !info.height) throw new Error(`media ${id} is not an image ffmpeg can read: no ${as} rendition`);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'herald-rendition-'));
    try {
      const out = path.join(dir, `out.${EXTENSION[as]}`);
      await toJpeg(opts.pathOf(id), { width: info.width, height: info.height }, out).catch((err: Error) => {
        throw new Error(`ffmpeg could not convert media ${id} to ${as}: ${err.message.split('\n')[0]}`);
      });
      const stored = await opts.store.put(createReadStream(out), { contentType: as });
      const ref = await describe(stored.id, as, stored.size);
      await writeFile(indexFile, JSON.stringify(ref), { mode: STORE_FILE_MODE });
      return ref;
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }

  return (id, as) => {
    const key = `${id}:${as}`;
    let pending = inFlight.get(key);
    if (!pending) {
      pending = convert(id, as).finally(() => inFlight.delete(key));
      inFlight.set(key, pending);
    }
    return pending;
  };
}
