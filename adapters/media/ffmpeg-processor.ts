import { execFile, spawn } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { bindCommand } from '../../core/domain/ffmpeg-command';
import { probeIsoBmff } from './iso-bmff';
import { MediaProcessError, MediaTooLargeError, type MediaProcessor, type MediaStore } from '../../core/ports/media';

export interface FfmpegProcessorOptions {
  store: MediaStore;
  /** The file of a stored media id. */
  pathOf(id: string): string;
  /** Where each run gets its own scratch directory (the process's working directory). */
  scratchRoot: string;
  ffmpegPath?: string;
  ffprobePath?: string;
}

/** The last lines of ffmpeg's error output, with every path of the run replaced by what it stands for. */
function scrub(stderr: string, paths: Array<[string, string]>): string {
  let text = stderr;
  for (const [p, name] of paths) text = text.split(p).join(name);
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  return lines.slice(-6).join('\n').slice(-1500) || 'ffmpeg failed without saying why.';
}

/**
 * ffmpeg behind the media port, spawned without a shell: the parsed argument vector with the
 * placeholders bound to the inputs' store files and `output.<ext>` in a fresh scratch directory
 * (also the working directory, so anything relative lands there). Each input may be read only
 * through the file protocol. Progress comes from `-progress pipe:1`; the wall-clock and output size
 * limits kill the process, as does the caller's signal.
 */
export function createFfmpegProcessor(opts: FfmpegProcessorOptions): MediaProcessor {
  const ffmpeg = opts.ffmpegPath ?? 'ffmpeg';
  const ffprobe = opts.ffprobePath ?? 'ffprobe';
  return {
    async probeInput(id) {
      // An MP4/MOV file says its duration in its own header (and cannot be a playlist): no ffprobe.
      const quick = await probeIsoBmff(opts.pathOf(id));
      if (quick) return quick;
      return new Promise((resolve) => {
        execFile(ffprobe, ['-v', 'error', '-protocol_whitelist', 'file', '-show_entries', 'format=duration,format_name', '-of', 'json', opts.pathOf(id)],
          { timeout: 60_000, maxBuffer: 1024 * 1024 }, (err, stdout) => {
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
      const dir = await mkdtemp(path.join(opts.scratchRoot, `${request.jobId}-`));
      const output = path.join(dir, `output.${request.outputExtension}`);
      const inputs = request.inputIds.map((id) => opts.pathOf(id));
      const bound = bindCommand(request.command, inputs, output);
      const args = ['-nostdin', '-hide_banner', '-nostats', '-loglevel', 'error', '-y', '-progress', 'pipe:1'];
      for (let i = 0; i < bound.length; i += 1) {
        if (bound[i] === '-i') args.push('-protocol_whitelist', 'file');
        args.push(bound[i]!);
      }
      const scrubbed = (text: string) => scrub(text, [[output, '{output}'], [dir, '<scratch>'], ...inputs.map((p, n): [string, string] => [p, `{input${n}}`])]);
      try {
        await new Promise<void>((resolve, reject) => {
          if (signal?.aborted) return reject(new MediaProcessError('cancelled', 'Cancelled before ffmpeg started.'));
          const child = spawn(ffmpeg, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'], shell: false });
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
          child.on('close', (code) => {
            onPhase?.('ffmpeg_ended');
            clearTimeout(timer);
            signal?.removeEventListener('abort', onAbort);
            if (stopped) reject(stopped);
            else if (code === 0) resolve();
            else reject(new MediaProcessError('failed', scrubbed(stderr)));
          });
        });
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
