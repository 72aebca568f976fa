import { execFile, execFileSync } from 'node:child_process';
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import os from 'node:os';
import path from 'node:path';
import { createFfmpegProcessor } from '../../adapters/media/ffmpeg-processor';
import { createLocalMediaStore } from '../../adapters/media/local-store';
import { resolveSandbox, sandboxCommand, type ResolvedSandbox } from '../../adapters/media/sandbox';
import { COMMON_FILTER_OPTIONS, FILTERS } from '../../core/domain/ffmpeg-allow-list';
import { parseCommandTemplate } from '../../core/domain/ffmpeg-command';
import { HeraldError } from '../../core/domain/errors';
import { filtergraphFuzz } from '../support/ffmpeg-fuzz';

jest.setTimeout(240_000);

const limits = { cpuSeconds: 60, memoryBytes: 4 * 1024 ** 3, fileBytes: 64 * 1024 ** 2, openFiles: 256 };

/** Runs `ffmpeg args` in the sandbox with `dir` as the job's directory: exit status and stderr. */
function sandboxed(sandbox: ResolvedSandbox, dir: string, args: string[], program = 'ffmpeg'): Promise<{ ok: boolean; stdout: string; stderr: string }> {
  const command = sandboxCommand({ mode: sandbox.mode, ...(sandbox.ids ? { ids: sandbox.ids } : {}), limits }, program, args, dir);
  return new Promise((resolve) => {
    execFile(command.file, command.args, { cwd: dir, env: command.env, timeout: 60_000, maxBuffer: 16 * 1024 ** 2 }, (err, stdout, stderr) => resolve({ ok: !err, stdout, stderr }));
  });
}

/**
 * The sandbox media jobs run ffmpeg in, on this machine's real ffmpeg: the second line of defence
 * behind the argument check. Hostile arguments are given to it directly here (no check in front),
 * and each must fail to read a planted secret, to reach a listening local server, or to write
 * outside the job's directory. Then the runner's own re-check, and a differential fuzz: for every
 * generated graph the check accepts, the filters and options real ffmpeg sets are allowed ones.
 */
describe('the media-job sandbox', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'herald-sandbox-'));
  // Herald's state: an owner-only directory with a secret in it, as ops lays .herald/ out.
  const state = path.join(root, 'state');
  const secretText = `HERALD-SECRET-${process.pid}-${Date.now()}`;
  const secret = path.join(state, 'secret.key');
  const job = path.join(root, 'job');
  const outside = path.join(os.tmpdir(), `herald-outside-${process.pid}.png`);
  let sandbox: ResolvedSandbox;
  let server: Server;
  let hits = 0;
  let port = 0;

  beforeAll(async () => {
    sandbox = await resolveSandbox('auto', 'herald-media', 'ffmpeg', limits);
    mkdirSync(state, { mode: 0o700 });
    writeFileSync(secret, secretText, { mode: 0o600 });
    mkdirSync(job);
    if (sandbox.ids) execFileSync('chown', [`${sandbox.ids.uid}:${sandbox.ids.gid}`, job]);
    server = createServer((_req, res) => { hits += 1; res.end(secretText); });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { force: true });
  });

  it('is a confining one on this machine, and ffmpeg in it is not root', async () => {
    // ops/install.sh installs bubblewrap: where it is, it is the mode chosen.
    const bwrap = (() => { try { execFileSync('bwrap', ['--version']); return true; } catch { return false; } })();
    expect(sandbox.mode).toBe(bwrap ? 'bwrap' : expect.stringMatching(/^(unshare|userns)$/));
    const uid = await sandboxed(sandbox, job, ['-u'], 'id');
    expect(uid.ok).toBe(true);
    if (os.userInfo().uid === 0) expect(uid.stdout.trim()).toBe(String(sandbox.ids!.uid));
    expect(sandbox.ids?.uid).not.toBe(0);
  });

  it('cannot read Herald\'s state: a movie source of the planted secret fails', async () => {
    const run = await sandboxed(sandbox, job, ['-v', 'error', '-f', 'lavfi', '-i', `movie=${secret}:f=tty`, '-frames:v', '1', '-y', 'out.png']);
    expect(run.ok).toBe(false);
    expect(run.stderr).not.toContain(secretText);
    expect(existsSync(path.join(job, 'out.png'))).toBe(false);
    // The secret is readable by the test itself: the failure is the sandbox's doing.
    expect(readFileSync(secret, 'utf8')).toBe(secretText);
  });

  it('cannot reach a listening server on the loopback', async () => {
    const run = await sandboxed(sandbox, job, ['-v', 'error', '-i', `http://127.0.0.1:${port}/metrics`, '-y', 'out.mp4']);
    expect(run.ok).toBe(false);
    expect(hits).toBe(0);
    // The server answers from outside the sandbox.
    const res = await fetch(`http://127.0.0.1:${port}/`);
    expect(await res.text()).toBe(secretText);
    hits = 0;
  });

  it('cannot write outside the job\'s directory', async () => {
    // Only bwrap hides the rest of the file system (the fallbacks rely on file permissions).
    if (sandbox.mode === 'bwrap') {
      await sandboxed(sandbox, job, ['-v', 'error', '-f', 'lavfi', '-i', 'color=s=16x16:d=0.1', '-frames:v', '1', '-y', outside]);
      expect(existsSync(outside)).toBe(false);
    }
    const inside = await sandboxed(sandbox, job, ['-v', 'error', '-f', 'lavfi', '-i', 'color=s=16x16:d=0.1', '-frames:v', '1', '-y', 'inside.png']);
    expect(inside).toMatchObject({ ok: true });
    expect(existsSync(path.join(job, 'inside.png'))).toBe(true);
  });

  describe('through the processor', () => {
    const store = createLocalMediaStore(path.join(root, 'media'));
    const processor = createFfmpegProcessor({ store, pathOf: store.pathOf, scratchRoot: path.join(root, 'scratch') });
    let inputId = '';
    beforeAll(async () => {
      const clip = path.join(root, 'clip.mp4');
      execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=5:duration=2', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', clip]);
      inputId = (await store.put(createReadStream(clip), { contentType: 'video/mp4' })).id;
    });
    const request = (command: { args: string[]; inputCount: number }) => ({
      jobId: 'mj_sandbox', command, inputIds: [inputId], outputExtension: 'mp4', outputContentType: 'video/mp4', timeLimitMs: 60_000, maxOutputBytes: 1e8,
    });

    it('an allowed command that names the secret\'s path writes nothing of its content', async () => {
      const template = `ffmpeg -i {input} -vf "drawtext=text='${secret}':fontsize=8" -metadata title=${secret} -c:v libx264 -preset ultrafast {output}`;
      const stored = await processor.run(request(parseCommandTemplate(template, 1)), {});
      const bytes = readFileSync(store.pathOf(stored.id));
      expect(bytes.length).toBeGreaterThan(1000);
      expect(bytes.includes(secretText)).toBe(false);
      expect(bytes.includes(secret)).toBe(true); // the path itself is the title: text, never opened
    });

    it('ffprobe of an uploaded playlist cannot open the files it names', async () => {
      // A clip of Herald's own, in the owner-only state directory, named by an uploaded playlist.
      const hidden = path.join(state, 'hidden.ts');
      execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=32x24:rate=5:duration=7', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-preset', 'ultrafast', '-f', 'mpegts', hidden]);
      const playlist = `#EXTM3U\n#EXT-X-TARGETDURATION:7\n#EXTINF:7.0,\n${hidden}\n#EXT-X-ENDLIST\n`;
      const stored = await store.put(Readable.from([Buffer.from(playlist)]), { contentType: 'application/vnd.apple.mpegurl' });
      const probed = await processor.probeInput(stored.id);
      // Outside the sandbox ffprobe reads the segment and answers its 7 s (checked here).
      const open = execFileSync('ffprobe', ['-v', 'error', '-protocol_whitelist', 'file', '-show_entries', 'format=duration', '-of', 'csv=p=0', store.pathOf(stored.id)]).toString();
      expect(Number(open)).toBeGreaterThan(6);
      expect(probed.durationSeconds).toBeNull();
    });

    it('a stored command that would open a file is refused by the runner before ffmpeg starts', async () => {
      const hostile = { args: ['-i', '{input0}', '-vf', String.raw`mo\vie=${secret}`, '{output}'], inputCount: 1 };
      const err = await processor.run(request(hostile), {}).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(HeraldError);
      expect((err as HeraldError).errorCode).toBe('unsafe_command');
    });
  });

  it('differential fuzz: every filter and option real ffmpeg sets for an accepted graph is an allowed one', async () => {
    const accepted = filtergraphFuzz(3000, 8).filter((graph) => {
      try {
        parseCommandTemplate(`ffmpeg -i {input} -vf "${graph.replace(/["\\]/g, '\\$&')}" {output}`, 1);
        return true;
      } catch {
        return false;
      }
    }).slice(0, 120);
    expect(accepted.length).toBe(120);
    let settings = 0;
    for (const graph of accepted) {
      const run = await sandboxed(sandbox, job, ['-hide_banner', '-v', 'debug', '-f', 'lavfi', '-i', 'color=s=32x32:d=0.04', '-vf', graph, '-f', 'null', '-']);
      for (const [, name, key] of run.stderr.matchAll(/\[Parsed_(.+?)_\d+ @ [^\]]+\] Setting '([^']*)' to value/g)) {
        settings += 1;
        expect({ graph, name, allowed: Object.hasOwn(FILTERS, name!) }).toEqual({ graph, name, allowed: true });
        const options = [...FILTERS[name!]!.options, ...COMMON_FILTER_OPTIONS];
        expect({ graph, name, key, allowed: options.includes(key!) }).toEqual({ graph, name, key, allowed: true });
      }
    }
    expect(settings).toBeGreaterThan(50);
  });
});
