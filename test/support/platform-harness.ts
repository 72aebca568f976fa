import { execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createLocalMediaStore } from '../../adapters/media/local-store';
import { createFfprobe } from '../../adapters/media/ffprobe';
import { createRenditions } from '../../adapters/media/renditions';
import type { MediaAccess, MediaRef, PlatformAdapter, PublishContext, PublishOutcome, PublishPost } from '../../core/ports/platform';
import type { MediaKind } from '../../core/domain/platforms';
import { resolveSettings } from '../../core/domain/settings';

/**
 * Support for the per-network contract tests: real media files (made with ffmpeg) in a real
 * media store, served at public URLs for networks that pull media, and a driver that runs a
 * publish through its wait/resume steps the way the workflow does.
 */
export interface MediaFixtures {
  access: MediaAccess;
  /** 3 s, 720x1280 (vertical), 30 fps, H.264 + AAC, MP4. */
  video: MediaRef;
  /** 2 s, 1280x720, 25 fps, H.264, MP4. */
  landscapeVideo: MediaRef;
  /** JPEG images, 1080x1350 (4:5), each with different pixels. */
  images: MediaRef[];
  png: MediaRef;
  /** Base URL of the public media server (http://127.0.0.1:PORT). */
  publicBase: string;
  close(): Promise<void>;
}

/**
 * How long a suite's media setup may take: ffmpeg makes the files once per machine, but a loaded
 * 2-core CI machine can still be slow to probe and serve them.
 */
export const FIXTURE_TIMEOUT_MS = 180_000;

/** The source files, made with ffmpeg once and shared by every suite (and run) on this machine. */
const SOURCES = path.join(os.tmpdir(), 'herald-fixture-sources-v1');

function fixtureSources(): { v1: string; v2: string; jpgs: string[]; png: string } {
  const files = {
    v1: path.join(SOURCES, 'vertical.mp4'),
    v2: path.join(SOURCES, 'landscape.mp4'),
    jpgs: Array.from({ length: 6 }, (_, i) => path.join(SOURCES, `photo-${i}.jpg`)),
    png: path.join(SOURCES, 'photo.png'),
  };
  if (existsSync(path.join(SOURCES, 'complete'))) return files;
  // Made in a private folder and renamed into place whole, so a concurrent suite never reads half a file.
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-fixture-sources-'));
  const ffmpeg = (...args: string[]) => execFileSync('ffmpeg', ['-v', 'error', '-y', ...args]);
  const at = (file: string) => path.join(dir, path.basename(file));
  ffmpeg('-f', 'lavfi', '-i', 'testsrc=size=720x1280:rate=30:duration=3', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=3',
    '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', at(files.v1));
  ffmpeg('-f', 'lavfi', '-i', 'testsrc2=size=1280x720:rate=25:duration=2', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', at(files.v2));
  files.jpgs.forEach((jpg, i) => ffmpeg('-f', 'lavfi', '-i', `color=c=0x${(0x203040 + i * 0x101010).toString(16)}:size=1080x1350`, '-frames:v', '1', at(jpg)));
  ffmpeg('-f', 'lavfi', '-i', 'testsrc=size=800x800', '-frames:v', '1', at(files.png));
  writeFileSync(path.join(dir, 'complete'), '');
  try {
    renameSync(dir, SOURCES);
  } catch {
    rmSync(dir, { recursive: true, force: true }); // another suite put its copy in place first
  }
  return files;
}

export async function mediaFixtures(): Promise<MediaFixtures> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-fixtures-'));
  const store = createLocalMediaStore(path.join(dir, 'store'));
  const probe = createFfprobe({ pathOf: store.pathOf });

  const add = async (file: string, kind: 'image' | 'video', contentType: string): Promise<MediaRef> => {
    const stored = await store.put(createReadStream(file), { contentType });
    const info = await probe.probe(stored.id);
    return { id: stored.id, kind, contentType, size: stored.size, filename: path.basename(file), info };
  };

  const { v1, v2, jpgs, png } = fixtureSources();

  const video = await add(v1, 'video', 'video/mp4');
  const landscapeVideo = await add(v2, 'video', 'video/mp4');
  const images = await Promise.all(jpgs.map((f) => add(f, 'image', 'image/jpeg')));
  const pngRef = await add(png, 'image', 'image/png');

  // Everything in the store is served, renditions made during a test included.
  const server: Server = createServer((req, res) => {
    const id = /^\/media\/([0-9a-f]{64})/.exec(req.url ?? '')?.[1];
    void (id ? store.stat(id) : Promise.resolve(null)).then((stored) => {
      if (!stored) {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { 'content-type': stored.contentType });
      createReadStream(store.pathOf(stored.id)).pipe(res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const publicBase = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  return {
    access: {
      read: (id, range) => store.read(id, range),
      publicUrl: (id) => `${publicBase}/media/${id}?sig=test`,
      rendition: createRenditions({ store, pathOf: store.pathOf, probe }),
    },
    video,
    landscapeVideo,
    images,
    png: pngRef,
    publicBase,
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Runs a publish to the end like the upload workflow: `wait` steps are honoured (their delay
 * capped by `maxWaitMs`, so simulators' processing delays stay short) and resumed with their state.
 */
export async function drivePublish(
  adapter: PlatformAdapter,
  ctx: PublishContext,
  post: PublishPost,
  opts: { maxSteps?: number; maxWaitMs?: number } = {},
): Promise<{ outcome: PublishOutcome; steps: number }> {
  const publisher = adapter.publisher;
  if (!publisher) throw new Error(`${adapter.descriptor.id} has no publisher`);
  let step = await publisher.publish(ctx, post);
  let steps = 1;
  while (step.kind === 'wait') {
    if (steps >= (opts.maxSteps ?? 50)) throw new Error(`${adapter.descriptor.id} still waiting after ${steps} steps`);
    // The state crosses a workflow boundary in production: it must survive JSON.
    const state = JSON.parse(JSON.stringify(step.state)) as Record<string, unknown>;
    await new Promise((r) => setTimeout(r, Math.min(step.kind === 'wait' ? step.afterMs : 0, opts.maxWaitMs ?? 100)));
    if (!publisher.resume) throw new Error(`${adapter.descriptor.id} asked to wait but has no resume`);
    step = await publisher.resume(ctx, post, state);
    steps += 1;
  }
  return { outcome: step.outcome, steps };
}

export function textPost(title: string, settings: Record<string, unknown> = {}): PublishPost {
  return { kind: 'text', title, media: [], settings };
}

/** A post whose fields went through the network's settings schema as intake does (a violation throws). */
export function resolvedPost(adapter: PlatformAdapter, kind: MediaKind, title: string, media: MediaRef[], fields: Record<string, unknown> = {}, description?: string): PublishPost {
  const r = resolveSettings(adapter.descriptor.id, adapter.descriptor.settings, fields, { endpoint: kind, mediaCount: media.length });
  if (r.violations.length) throw new Error(JSON.stringify(r.violations));
  return { kind, title, media, settings: r.values, ...(description ? { description } : {}) };
}

/** Publishes with a network that answers in one step (nothing to wait for): its outcome. */
export async function publishInOneStep(adapter: PlatformAdapter, ctx: PublishContext, post: PublishPost): Promise<PublishOutcome> {
  const step = await adapter.publisher!.publish(ctx, post);
  if (step.kind !== 'done') throw new Error(`${adapter.descriptor.id} publishes in one step`);
  return step.outcome;
}
