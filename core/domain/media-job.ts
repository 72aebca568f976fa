import type { CommandTemplate } from './ffmpeg-command';
import { PLANS, type PlanName } from './plans';

/** Spec states of a media-processing job. A cancelled job ends in ERROR with `cancelled`. */
export type MediaJobStatus = 'PENDING' | 'PROCESSING' | 'FINISHED' | 'ERROR';

export interface MediaJobInput {
  /** Media store id. */
  id: string;
  size: number;
  contentType: string;
  filename?: string;
}

export interface MediaJobOutput {
  id: string;
  size: number;
  contentType: string;
}

/**
 * The finished output published through the normal upload path: the fields of an upload request
 * (`user`, `platform[]`, `title`, network fields…) as sent.
 */
export type MediaJobPublish = Record<string, unknown>;

/**
 * Where the wall time of a job's last run went (epoch milliseconds of the worker's clock, kept with
 * the job when it ends): Temporal scheduled the run, the run began, ffmpeg was spawned and exited,
 * the output was in the media store.
 */
export interface MediaRunTimings {
  scheduledMs?: number;
  startedMs: number;
  ffmpegStartedMs?: number;
  ffmpegEndedMs?: number;
  outputStoredMs?: number;
}

export interface MediaJob {
  id: string;
  accountId: string;
  status: MediaJobStatus;
  command: CommandTemplate;
  inputs: MediaJobInput[];
  outputExtension: string;
  /** Probed duration of the first input (what the minutes are counted on); null when unknown. */
  inputDurationSeconds: number | null;
  /** Seconds reserved against the monthly quota at submission (60 when the duration is unknown). */
  reservedSeconds: number;
  /** The month the reservation counts in (YYYY-MM, UTC). */
  month: string;
  progressPercent: number;
  /** Seconds of input processed so far (ffmpeg's out_time). */
  processedSeconds: number;
  /** Seconds charged when the job ended (the reservation was settled to this). */
  settledSeconds?: number;
  output?: MediaJobOutput;
  /** A readable reason on ERROR: the last lines of ffmpeg's error output, paths scrubbed. */
  error?: string;
  cancelled?: boolean;
  publish?: MediaJobPublish;
  /** The upload made from the output (its request_id), or why it could not be made. */
  publishRequestId?: string;
  publishError?: string;
  createdAt: Date;
  startedAt?: Date;
  finishedAt?: Date;
  /** When the output (and inputs) are deleted from the media store. */
  expiresAt?: Date;
  expired?: boolean;
  /** The phases of the run that ended the job. */
  runTimings?: MediaRunTimings;
}

/** Where each extension's bytes are described: Content-Type of the download, kind for `publish`. */
export const OUTPUT_TYPES: Record<string, { contentType: string; kind: 'video' | 'photo' | 'audio' }> = {
  mp4: { contentType: 'video/mp4', kind: 'video' },
  m4v: { contentType: 'video/mp4', kind: 'video' },
  mov: { contentType: 'video/quicktime', kind: 'video' },
  webm: { contentType: 'video/webm', kind: 'video' },
  mkv: { contentType: 'video/x-matroska', kind: 'video' },
  avi: { contentType: 'video/x-msvideo', kind: 'video' },
  ts: { contentType: 'video/mp2t', kind: 'video' },
  gif: { contentType: 'image/gif', kind: 'photo' },
  jpg: { contentType: 'image/jpeg', kind: 'photo' },
  jpeg: { contentType: 'image/jpeg', kind: 'photo' },
  png: { contentType: 'image/png', kind: 'photo' },
  webp: { contentType: 'image/webp', kind: 'photo' },
  mp3: { contentType: 'audio/mpeg', kind: 'audio' },
  wav: { contentType: 'audio/wav', kind: 'audio' },
  m4a: { contentType: 'audio/mp4', kind: 'audio' },
  aac: { contentType: 'audio/aac', kind: 'audio' },
  ogg: { contentType: 'audio/ogg', kind: 'audio' },
  opus: { contentType: 'audio/opus', kind: 'audio' },
  flac: { contentType: 'audio/flac', kind: 'audio' },
};

export const isOutputExtension = (ext: string): boolean => Object.hasOwn(OUTPUT_TYPES, ext);

/** Seconds counted when ffprobe cannot tell an input's duration (spec). */
export const UNKNOWN_DURATION_SECONDS = 60;

/** Seconds a job reserves: the probed duration rounded up to a whole second, 60 when unknown. */
export function secondsToReserve(durationSeconds: number | null): number {
  if (durationSeconds === null || !Number.isFinite(durationSeconds) || durationSeconds <= 0) return UNKNOWN_DURATION_SECONDS;
  return Math.ceil(durationSeconds);
}

/** The quota month of an instant: `YYYY-MM` in UTC (the quota resets on the 1st at 00:00 UTC). */
export function quotaMonth(at: Date): string {
  return `${at.getUTCFullYear()}-${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
}

/** The next reset after `at`: the 1st of the next month, 00:00 UTC. */
export function nextQuotaReset(at: Date): Date {
  return new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
}

/** One job's minutes in a month: reserved while it runs, settled when it ends. */
export interface MediaUsageEntry {
  jobId: string;
  accountId: string;
  month: string;
  seconds: number;
  settled: boolean;
  /** `ffmpeg_job`. */
  type: string;
  createdAt: Date;
}

/**
 * Seconds charged when a job ends: all it reserved when it finished; when it failed or was
 * cancelled, the input time ffmpeg had processed (the rest is given back), never more than reserved.
 */
export function secondsToSettle(job: Pick<MediaJob, 'reservedSeconds' | 'processedSeconds'>, outcome: 'finished' | 'stopped'): number {
  if (outcome === 'finished') return job.reservedSeconds;
  return Math.min(job.reservedSeconds, Math.max(0, Math.ceil(job.processedSeconds)));
}

const round2 = (n: number): number => Math.round(n * 100) / 100;

/** An account's month of media minutes: the seconds it counts and its number of entries. */
export interface MediaMonthUsage {
  seconds: number;
  requests: number;
}

/** The history's view of one ledger entry. */
export function usageEntryView(e: MediaUsageEntry) {
  return {
    job_id: e.jobId,
    duration_seconds: e.seconds,
    duration_minutes: round2(e.seconds / 60),
    timestamp: e.createdAt.toISOString(),
    month: e.month,
    type: e.type,
    settled: e.settled,
  };
}

/**
 * The spec's consumption record of one account in the month of `now`: the totals of the month
 * (`usage`, from the counters) and one page of its entries, newest first (`history`).
 */
export function consumptionRecord(plan: PlanName, usage: MediaMonthUsage, history: MediaUsageEntry[], now: Date) {
  const quotaMinutes = PLANS[plan].mediaMinutesPerMonth;
  const month = quotaMonth(now);
  const usedSeconds = Math.max(0, usage.seconds);
  const usedMinutes = round2(usedSeconds / 60);
  return {
    consumption: {
      used_minutes: usedMinutes,
      remaining_minutes: round2(Math.max(0, quotaMinutes - usedSeconds / 60)),
      quota_minutes: quotaMinutes,
      usage_percentage: quotaMinutes ? round2((usedSeconds / 60 / quotaMinutes) * 100) : 0,
      total_requests: Math.max(0, usage.requests),
      current_month: month,
      plan,
    },
    history: history.filter((e) => e.month === month).map(usageEntryView),
    quota_info: {
      plan,
      quota_minutes: quotaMinutes,
      reset_day: 1,
      next_reset: nextQuotaReset(now).toISOString().slice(0, 10),
    },
  };
}

/** Whether `seconds` more fit in the plan's month next to what is used already. */
export function fitsQuota(plan: PlanName, usedSeconds: number, seconds: number): boolean {
  return usedSeconds + seconds <= PLANS[plan].mediaMinutesPerMonth * 60;
}

/** The spec's job view (GET /ffmpeg/jobs/{id}) plus progress, timings, reason and the published upload. */
/**
 * The job as the API answers it. `download_url`: a FINISHED job's output by a signed, expiring
 * link (`outputLink`), usable without the API key; null before, once expired, and without links.
 */
export function toMediaJobView(job: MediaJob, outputLink?: (jobId: string, notAfter?: Date) => string) {
  return {
    job_id: job.id,
    status: job.status,
    download_url: job.status === 'FINISHED' && job.output && !job.expired && outputLink ? outputLink(job.id, job.expiresAt) : null,
    duration_seconds: job.inputDurationSeconds === null ? null : Math.round(job.inputDurationSeconds),
    output_extension: job.outputExtension,
    progress_percent: job.status === 'FINISHED' ? 100 : job.progressPercent,
    processed_seconds: Math.round(job.processedSeconds * 100) / 100,
    billed_minutes: round2((job.settledSeconds ?? job.reservedSeconds) / 60),
    created_at: job.createdAt.toISOString(),
    started_at: job.startedAt?.toISOString() ?? null,
    finished_at: job.finishedAt?.toISOString() ?? null,
    ...(job.output ? { output_size: job.output.size } : {}),
    ...(job.expiresAt ? { expires_at: job.expiresAt.toISOString() } : {}),
    ...(job.expired ? { expired: true } : {}),
    ...(job.error ? { error: job.error } : {}),
    ...(job.cancelled ? { cancelled: true } : {}),
    ...(job.publish ? { publish: { request_id: job.publishRequestId ?? null, ...(job.publishError ? { error: job.publishError } : {}) } } : {}),
    ...(job.runTimings ? { run_timings: runTimingsView(job.runTimings) } : {}),
  };
}

const iso = (ms: number | undefined) => (ms === undefined ? null : new Date(ms).toISOString());

/** The run's phases as instants: where the time between `created_at` and `finished_at` went. */
function runTimingsView(t: MediaRunTimings) {
  return {
    scheduled_at: iso(t.scheduledMs),
    started_at: iso(t.startedMs),
    ffmpeg_started_at: iso(t.ffmpegStartedMs),
    ffmpeg_ended_at: iso(t.ffmpegEndedMs),
    output_stored_at: iso(t.outputStoredMs),
  };
}
