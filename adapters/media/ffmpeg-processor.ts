import { execFile, spawn } from 'node:child_process';
import { chown, constants, copyFile, mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { bindCommand } from '../../core/domain/ffmpeg-command';
import { checkCommandArguments } from '../../core/domain/ffmpeg-check';
import { availableParallelism } from 'node:os';
import { resolveSandbox, sandboxCommand, type ResolvedSandbox, type SandboxMode } from './sandbox';
import { probeIsoBmff } from './iso-bmff';
import { MediaProcessError, MediaTooLargeError, type MediaProcessor, type MediaStore } from '../../core/ports/media';

/** The sandbox settings of media jobs (HERALD_MEDIA_SANDBOX, HERALD_MEDIA_USER, HERALD_MEDIA_MEMORY_BYTES, HERALD_MEDIA_OPEN_FILES). */
export interface MediaSandboxConfig {
  mode: SandboxMode | 'auto';
  user: string;
  memoryBytes: number;
  openFiles: number;
}

export const DEFAULT_MEDIA_SANDBOX: MediaSandboxConfig = { mode: 'auto', user: 'herald-media', memoryBytes: 4 * 1024 ** 3, openFiles: 256 };

export interface FfmpegProcessorOptions {
  store: MediaStore;
  /** The file of a stored media id. */
  pathOf(id: string): string;
  /** Where each run gets its own scratch directory (the process's working directory). */
  scratchRoot: string;
  ffmpegPath?: string;
  ffprobePath?: string;
  /** How ffmpeg is confined (adapters/media/sandbox.ts); the process's limits are set from the request. */
  sandbox?: MediaSandboxConfig;
  /** Told once which sandbox the processor runs ffmpeg in (for the daemon's log). */
  onSandbox?(sandbox: ResolvedSandbox): void;
}

/** The last lines of ffmpeg's error output, with every path of the run replaced by what it stands for. */
function scrub(stderr: string, paths: Array<[string, string]>): string {
  let text = stderr;
  for (const [p, name] of paths) text = text.split(p).join(name);
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.slice(-6).join('\n').slice(-1500) || 'ffmpeg failed without saying why.';
}

/**
 * ffmpeg behind the media port, spawned without a shell and inside the sandbox (sandbox.ts): the
 * argument vector, checked again by allow-list, with the placeholders bound to copies of the
 * inputs and `output.<ext>`, all in a fresh directory of the job's own that is ffmpeg's working
 * directory and, under bwrap, the only directory it can write (owned by the unprivileged user).
 * Each input may be read only through the file protocol. Progress comes from `-progress pipe:1`;
 * the wall-clock and output size limits kill the process, as does the caller's signal.
 */
export function createFfmpegProcessor(opts: FfmpegProcessorOptions): MediaProcessor {
  const ffmpeg = opts.ffmpegPath ?? 'ffmpeg';
  const ffprobe = opts.ffprobePath ?? 'ffprobe';
  const settings = opts.sandbox ?? DEFAULT_MEDIA_SANDBOX;
  const limitsFor = (timeLimitMs: number, maxOutputBytes: number) => ({
    // CPU time runs on every core at once: the wall-clock limit times the cores, then killed.
    cpuSeconds: Math.ceil(timeLimitMs / 1000) * availableParallelism(),
    memoryBytes: settings.memoryBytes,
    fileBytes: maxOutputBytes + 1024 * 1024,
    openFiles: settings.openFiles,
  });
  let sandbox: Promise<ResolvedSandbox> | null = null;
  /** Resolved once, on first use; a failed resolution is tried again by the next job. */
  const sandboxOf = () => {
    sandbox ??= resolveSandbox(settings.mode, settings.user, ffmpeg, limitsFor(60_000, 1024 ** 2)).then((resolved) => {
      opts.onSandbox?.(resolved);
      return resolved;
    }, (err: unknown) => {
      sandbox = null;
      throw err;
    });
    return sandbox;
  };
  return {
    async probeInput(id) {
      // An MP4/MOV file says its duration in its own header (and cannot be a playlist): no ffprobe.
      const quick = await probeIsoBmff(opts.pathOf(id));
      if (quick) return quick;
      // ffprobe reads a tenant's file too: in the sandbox, with only that file to see (bwrap
      // shows it read-only as /input), no network, and as no user that can reach Herald's state.
      const confined = await sandboxOf();
      const file = opts.pathOf(id);
      const inside = confined.mode === 'bwrap' ? '/input' : file;
      const command = sandboxCommand({ mode: confined.mode, limits: limitsFor(60_000, 1024 ** 2), readOnly: [[file, inside]] }, ffprobe,
        ['-v', 'error', '-protocol_whitelist', 'file', '-show_entries', 'format=duration,format_name', '-of', 'json', inside], null);
      return new Promise((resolve) => {
        execFile(command.file, command.args, { timeout: 60_000, maxBuffer: 1024 * 1024, env: command.env, cwd: '/' }, (err, stdout) => {
          if (err) return resolve({ durationSeconds: null, format: null });
          try {
            const format = (JSON.parse(stdout) as { format?: { duration?: string; format_name?: string } }).format ?? {};
            const duration = Number(format.duration);
            resolve({ durationSeconds: Number.isFinite(duration) && duration > 0 ? duration : null, format: format.format_name ?? null });
          } catch {
            resolve({ durationSeconds: null, format: null });
          }
        });
      });
    },

    async run(request, { signal, onProgress, onPhase }) {
      await mkdir(opts.scratchRoot, { recursive: true });
      // A run restarted after its worker died: the dead run's scratch directory goes first.
      for (const stale of await readdir(opts.scratchRoot)) {
        if (stale.startsWith(`${request.jobId}-`)) await rm(path.join(opts.scratchRoot, stale), { recursive: true, force: true });
      }
      // A job stored before the allow-list (or written to the store by hand) is checked again here.
      checkCommandArguments(request.command.args, request.inputIds.length);
      const dir = await mkdtemp(path.join(opts.scratchRoot, `${request.jobId}-`));
      const confined = await sandboxOf();
      const ids = confined.mode === 'none' ? undefined : confined.ids;
      // The inputs are copied into the job's directory: the store is not the sandbox's to see.
      const inputs = request.inputIds.map((id, n) => `input${n}${path.extname(opts.pathOf(id)).replace(/[^.A-Za-z0-9]/g, '')}`);
      for (const [n, id] of request.inputIds.entries()) await copyFile(opts.pathOf(id), path.join(dir, inputs[n]!), constants.COPYFILE_FICLONE);
      if (ids) for (const name of ['', ...inputs]) await chown(path.join(dir, name), ids.uid, ids.gid);
      const outputName = `output.${request.outputExtension}`;
      const output = path.join(dir, outputName);
      const bound = bindCommand(request.command, inputs, outputName);
      const args = ['-nostdin', '-hide_banner', '-nostats', '-loglevel', 'error', '-y', '-progress', 'pipe:1'];
      for (let i = 0; i < bound.length; i += 1) {
        if (bound[i] === '-i') args.push('-protocol_whitelist', 'file');
        args.push(bound[i]!);
      }
      const command = sandboxCommand({ mode: confined.mode, ...(ids ? { ids } : {}), limits: limitsFor(request.timeLimitMs, request.maxOutputBytes) }, ffmpeg, args, dir);
      const scrubbed = (text: string) => scrub(text, [[outputName, '{output}'], [dir, '<scratch>'], ...inputs.map((p, n): [string, string] => [p, `{input${n}}`])]);
      try {
        await new Promise<void>((resolve, reject) => {
          if (signal?.aborted) return reject(new MediaProcessError('cancelled', 'Cancelled before ffmpeg started.'));
          const child = spawn(command.file, command.args, {
            cwd: dir, env: command.env, shell: false, stdio: ['ignore', 'pipe', 'pipe'],
          });
          onPhase?.('ffmpeg_started');
          let stopped: MediaProcessError | null = null;
          const stop = (why: MediaProcessError) => {
            if (stopped) return;
            stopped = why;
            child.kill('SIGKILL');
          };
          let stderr = '';
          child.stderr!.on('data', (b: Buffer) => { stderr = (stderr + b.toString()).slice(-16_384); });
          let pending = '';
          child.stdout!.on('data', (b: Buffer) => {
            pending += b.toString();
            const lines = pending.split('\n');
            pending = lines.pop() ?? '';
            for (const line of lines) {
              const [key, value] = line.split('=');
              if ((key === 'out_time_us' || key === 'out_time_ms') && value && /^\d+$/.test(value.trim())) onProgress?.(Number(value) / 1e6);
              if (key === 'total_size' && Number(value) > request.maxOutputBytes) {
                stop(new MediaProcessError('too_large', `The output passed the limit of ${request.maxOutputBytes} bytes.`));
              }
            }
          });
          const timer = setTimeout(() => stop(new MediaProcessError('time_limit', `The job passed its time limit of ${Math.round(request.timeLimitMs / 1000)} seconds.`)), request.timeLimitMs);
          const onAbort = () => stop(new MediaProcessError('cancelled', 'Cancelled.'));
          signal?.addEventListener('abort', onAbort, { once: true });
          child.on('error', (err) => {
            clearTimeout(timer);
            signal?.removeEventListener('abort', onAbort);
            reject(new MediaProcessError('failed', `ffmpeg could not be started: ${err.message}`));
          });
          child.on('close', (code, killedBy) => {
            onPhase?.('ffmpeg_ended');
            clearTimeout(timer);
            signal?.removeEventListener('abort', onAbort);
            if (stopped) reject(stopped);
            // The sandbox's own limits: the file size and the CPU time (prlimit).
            else if (killedBy === 'SIGXFSZ') reject(new MediaProcessError('too_large', `The output passed the limit of ${request.maxOutputBytes} bytes.`));
            else if (killedBy === 'SIGXCPU') reject(new MediaProcessError('time_limit', `The job passed its CPU time limit.`));
            else if (code === 0) resolve();
            else reject(new MediaProcessError('failed', scrubbed(stderr)));
          });
        });
        // The output becomes the worker's again before it joins the store (owner-only, the worker's).
        if (ids) await chown(output, process.getuid?.() ?? 0, process.getgid?.() ?? 0).catch(() => undefined);
        const size = await stat(output).then((s) => s.size, () => -1);
        if (size < 0) throw new MediaProcessError('failed', 'ffmpeg wrote no {output}.');
        if (size > request.maxOutputBytes) throw new MediaProcessError('too_large', `The output passed the limit of ${request.maxOutputBytes} bytes.`);
        try {
          // Moved into the store (renamed when the scratch and the store share a file system), not copied.
          return await opts.store.putFile(output, { contentType: request.outputContentType, maxBytes: request.maxOutputBytes });
        } catch (err) {
          if (err instanceof MediaTooLargeError) throw new MediaProcessError('too_large', err.message);
          throw err;
        }
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },
  };
}
