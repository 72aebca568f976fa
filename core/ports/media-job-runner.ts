/**
 * Starts and cancels the durable run of a media-processing job (a Temporal workflow per job on the
 * media task queue in production; in-process in unit tests).
 */
export interface MediaJobRunner {
  start(jobId: string): Promise<void>;
  /** Asks the run to stop: the ffmpeg process is killed and the unprocessed time given back. */
  cancel(jobId: string): Promise<void>;
}

/** Durations of a media job's run (workflow inputs, so tests run the real workflow with seconds). */
export interface MediaJobTiming {
  /** Wall-clock limit of one ffmpeg run. */
  timeLimitMs: number;
  /** A worker silent this long is taken for dead: the run restarts on another worker. */
  heartbeatTimeoutMs: number;
  /** How long outputs (and inputs) stay in the media store after the job ends. */
  outputTtlMs: number;
  /** Attempts of a run whose worker died (each restarts ffmpeg from the start). */
  maxAttempts: number;
}

export const DEFAULT_MEDIA_JOB_TIMING: MediaJobTiming = {
  timeLimitMs: 60 * 60_000,
  heartbeatTimeoutMs: 30_000,
  outputTtlMs: 24 * 3600_000,
  maxAttempts: 5,
};
