import { HeraldError } from '../domain/errors';
import { OUTPUT_TYPES, secondsToSettle, type MediaJob, type MediaJobOutput, type MediaRunTimings } from '../domain/media-job';
import { isPlatform, PLATFORM_ALIASES, type Platform } from '../domain/platforms';
import type { MediaInfo } from '../domain/media';
import { MediaProcessError, type MediaProbe, type MediaProcessor, type MediaStore } from '../ports/media';
import type { MediaJobRepository } from '../ports/storage/media-jobs';
import type { MediaUsageRepository } from '../ports/storage/media-usage';
import type { OperatorAccountRepository } from '../ports/storage';
import type { Clock } from '../ports/system';
import { submitUpload, type SubmitDeps } from './submit-upload';

export interface RunMediaJobDeps {
  mediaJobs: MediaJobRepository;
  mediaUsage: MediaUsageRepository;
  processor: MediaProcessor;
  clock: Clock;
  /** Largest output of one job. */
  maxOutputBytes: number;
  /** How often progress is written to the job (it is reported to Temporal at every step). */
  progressWriteMs: number;
}

export type MediaRunResult =
  | { outcome: 'finished'; output: MediaJobOutput; timings?: MediaRunTimings }
  | { outcome: 'error'; reason: string; timings?: MediaRunTimings }
  | { outcome: 'gone' };

/**
 * One run of a job's ffmpeg command (the heartbeating activity). A run restarted after its worker
 * died starts ffmpeg again from the beginning in a fresh scratch directory. Failures of the command
 * or of a limit are the job's result (`error`), not the activity's: they are not retried.
 * `signal` is Temporal's cancellation: the process is killed and MediaProcessError('cancelled') thrown.
 */
export async function runMediaJob(
  deps: RunMediaJobDeps, jobId: string,
  opts: { timeLimitMs: number; signal?: AbortSignal; heartbeat?: (processedSeconds: number) => void; scheduledMs?: number },
): Promise<MediaRunResult> {
  const timings: MediaRunTimings = { ...(opts.scheduledMs ? { scheduledMs: opts.scheduledMs } : {}), startedMs: deps.clock.now().getTime() };
  const job = await deps.mediaJobs.get(jobId);
  if (!job || job.status === 'FINISHED' || job.status === 'ERROR') return { outcome: 'gone' };
  // PROCESSING is written while ffmpeg starts, not before it (a database round trip less ahead of
  // the run: the job's end is written by finishMediaJob whatever happens to this display state).
  // Progress writes queue behind it, one after the other (a document has one writer at a time), at
  // most every progressWriteMs.
  let writes: Promise<void> = deps.mediaJobs.update(jobId, { status: 'PROCESSING', startedAt: job.startedAt ?? deps.clock.now(), progressPercent: 0, processedSeconds: 0 })
    .catch(() => undefined);
  let lastWrite = 0;
  const expected = job.inputDurationSeconds;
  const onProgress = (processedSeconds: number) => {
    opts.heartbeat?.(processedSeconds);
    const now = deps.clock.now().getTime();
    if (now - lastWrite < deps.progressWriteMs) return;
    lastWrite = now;
    const progressPercent = expected ? Math.min(99, Math.floor((processedSeconds / expected) * 100)) : 0;
    writes = writes.then(() => deps.mediaJobs.update(jobId, { progressPercent, processedSeconds })).catch(() => undefined);
  };
  try {
    const stored = await deps.processor.run({
      jobId, command: job.command, inputIds: job.inputs.map((i) => i.id), outputExtension: job.outputExtension,
      outputContentType: OUTPUT_TYPES[job.outputExtension]?.contentType ?? 'application/octet-stream',
      timeLimitMs: opts.timeLimitMs, maxOutputBytes: deps.maxOutputBytes,
    }, {
      ...(opts.signal ? { signal: opts.signal } : {}), onProgress,
      onPhase: (phase) => { timings[phase === 'ffmpeg_started' ? 'ffmpegStartedMs' : 'ffmpegEndedMs'] = deps.clock.now().getTime(); },
    });
    timings.outputStoredMs = deps.clock.now().getTime();
    await writes;
    return { outcome: 'finished', output: { id: stored.id, size: stored.size, contentType: stored.contentType }, timings };
  } catch (err) {
    await writes;
    if (err instanceof MediaProcessError && err.kind !== 'cancelled') return { outcome: 'error', reason: err.message, timings };
    throw err;
  }
}

/** Ends a job: its state, and the settlement of its minutes (all on finish, the processed part otherwise). */
export async function finishMediaJob(
  deps: Pick<RunMediaJobDeps, 'mediaJobs' | 'mediaUsage' | 'clock'>,
  input: { jobId: string; outcome: 'finished' | 'error' | 'cancelled'; output?: MediaJobOutput; reason?: string; outputTtlMs: number; timings?: MediaRunTimings },
): Promise<void> {
  const job = await deps.mediaJobs.get(input.jobId);
  if (!job || job.status === 'FINISHED' || job.status === 'ERROR') return;
  const now = deps.clock.now();
  const settled = secondsToSettle(job, input.outcome === 'finished' ? 'finished' : 'stopped');
  await deps.mediaUsage.settle(job.id, settled);
  const expiresAt = new Date(now.getTime() + input.outputTtlMs);
  const runTimings = input.timings ? { runTimings: input.timings } : {};
  if (input.outcome === 'finished' && input.output) {
    await deps.mediaJobs.update(job.id, { status: 'FINISHED', output: input.output, progressPercent: 100, processedSeconds: job.inputDurationSeconds ?? job.processedSeconds, settledSeconds: settled, finishedAt: now, expiresAt, ...runTimings });
  } else {
    await deps.mediaJobs.update(job.id, {
      status: 'ERROR', settledSeconds: settled, finishedAt: now, expiresAt, ...runTimings,
      error: input.outcome === 'cancelled' ? 'Cancelled by the caller.' : (input.reason ?? 'The job failed.'),
      ...(input.outcome === 'cancelled' ? { cancelled: true } : {}),
    });
  }
}

/** Deletes an ended job's output and inputs from the media store (the output expiry). */
export async function expireMediaJob(deps: { mediaJobs: MediaJobRepository; store: Pick<MediaStore, 'delete'> }, jobId: string): Promise<void> {
  const job = await deps.mediaJobs.get(jobId);
  if (!job || job.expired) return;
  // A published output is the upload's media now: the upload keeps it.
  if (job.output && !job.publishRequestId) await deps.store.delete(job.output.id);
  for (const input of job.inputs) await deps.store.delete(input.id);
  await deps.mediaJobs.update(jobId, { expired: true });
}

export interface PublishMediaDeps extends SubmitDeps {
  mediaJobs: MediaJobRepository;
  operators: Pick<OperatorAccountRepository, 'findById'>;
  probe: MediaProbe;
}

const textOf = (v: unknown): string | undefined => (Array.isArray(v) ? textOf(v[v.length - 1]) : typeof v === 'string' ? v : undefined);

function platformsOf(publish: Record<string, unknown>): Platform[] {
  const raw = publish['platform[]'] ?? publish.platforms ?? publish.platform;
  const values = (Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : []).map((v) => String(v).trim().toLowerCase()).filter(Boolean);
  const platforms = values.map((v) => PLATFORM_ALIASES[v] ?? v);
  const unknown = platforms.filter((p) => !isPlatform(p));
  if (unknown.length) throw new HeraldError('invalid_input', `publish: unknown platform ${unknown.join(', ')}.`, 'platform_not_supported');
  return platforms as Platform[];
}

/**
 * `publish`: the finished output goes through the normal upload path as an asynchronous upload
 * whose request id is `ffmpeg-<job id>` (a repeated activity finds it instead of publishing twice).
 * What the upload path refuses is recorded on the job, not retried.
 */
export async function publishMediaOutput(deps: PublishMediaDeps, jobId: string): Promise<void> {
  const job = await deps.mediaJobs.get(jobId);
  if (!job?.publish || !job.output || job.publishRequestId || job.publishError) return;
  const requestId = `ffmpeg-${job.id}`;
  try {
    const account = await deps.operators.findById(job.accountId);
    if (!account) throw new HeraldError('not_found', 'The job\'s account no longer exists.');
    const type = OUTPUT_TYPES[job.outputExtension];
    if (!type || type.kind === 'audio') throw new HeraldError('invalid_input', `publish: a .${job.outputExtension} output cannot be posted; publish video or image outputs.`);
    const { user, profile_username: profileUsername, title, description, platform, platforms, 'platform[]': list, ...fields } = job.publish;
    void platform; void platforms; void list;
    const profile = textOf(user) ?? textOf(profileUsername);
    if (!profile) throw new HeraldError('invalid_input', 'publish.user is required: the profile to post as.');
    const info: MediaInfo | undefined = await deps.probe.probe(job.output.id).catch(() => undefined);
    const { upload } = await submitUpload(deps, account, {
      kind: type.kind,
      profileUsername: profile,
      platforms: platformsOf(job.publish),
      title: textOf(title) ?? '',
      ...(textOf(description) !== undefined ? { description: textOf(description)! } : {}),
      media: [{ id: job.output.id, kind: type.kind === 'video' ? 'video' : 'image', contentType: job.output.contentType, size: job.output.size, filename: `output.${job.outputExtension}`, ...(info ? { info } : {}) }],
      fields,
      requestId,
      async: true,
      warnings: [],
      syncTimeoutMs: 0,
    });
    await deps.mediaJobs.update(job.id, { publishRequestId: upload.requestId });
  } catch (err) {
    if (!(err instanceof HeraldError)) throw err;
    await deps.mediaJobs.update(job.id, { publishError: `${err.errorCode ? `${err.errorCode}: ` : ''}${err.message}` });
  }
}

/** The job as the worker last wrote it (tests and the workflow's activities). */
export type { MediaJob };
