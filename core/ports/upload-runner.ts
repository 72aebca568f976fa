import type { Platform } from '../domain/platforms';
import type { UploadRequest } from '../domain/upload';

/**
 * Durations that shape how an upload runs. Workflow inputs with production defaults, so
 * tests run the real workflow in seconds.
 */
export interface UploadTiming {
  /** Longest a single publish call may take before its outcome is "unknown". */
  publishTimeoutMs: number;
  /** A worker that stops heartbeating for this long is presumed dead; another one takes over. */
  heartbeatTimeoutMs: number;
  /** Rounds of "network said later" (rate limit, transient failure) before giving up. */
  maxPlatformRetries: number;
  /** Wait before retrying a transient failure (doubles each round); rate limits use the network's own delay. */
  transientBackoffMs: number;
  /** Longest rate-limit wait honoured before failing the target instead. */
  maxRetryAfterMs: number;
}

export const DEFAULT_UPLOAD_TIMING: UploadTiming = {
  publishTimeoutMs: 5 * 60_000,
  heartbeatTimeoutMs: 20_000,
  maxPlatformRetries: 3,
  transientBackoffMs: 5_000,
  maxRetryAfterMs: 15 * 60_000,
};

/** The input of the upload workflow: the contract between the runner and the workflow. */
export interface UploadWorkflowInput {
  accountId: string;
  requestId: string;
  platforms: Platform[];
  timing: UploadTiming;
  /** Scheduled posts: the workflow waits (durable, movable timer) until this instant (ISO). */
  notBefore?: string;
  /** URL media accepted without downloading (asynchronous request): the workflow fetches it first. */
  fetchMedia?: boolean;
  /**
   * Each target's first call runs inside the workflow task (a local activity) instead of as an
   * activity task of its own: one task round trip through Temporal per upload instead of three.
   * For calls that are short by nature (text posts); anything that asks to wait or retry, or fails
   * unexpectedly, continues through the regular, heartbeating activity.
   */
  firstCallInline?: boolean;
}

/** Starts and watches the durable execution of uploads (Temporal in production). */
export interface UploadRunner {
  /** Starts the upload's workflow; starting one that already exists is a no-op. */
  start(upload: UploadRequest): Promise<void>;
  /** Resolves true when the upload finished within `timeoutMs`, false when it is still running. */
  waitForCompletion(upload: UploadRequest, timeoutMs: number): Promise<boolean>;
  /** Moves the timer of a scheduled upload to its (stored) new `scheduledFor`. */
  reschedule(upload: UploadRequest): Promise<void>;
  /** Ends a scheduled upload's wait without publishing. */
  cancel(upload: UploadRequest): Promise<void>;
}
