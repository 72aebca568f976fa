/*
 * Durability rule: this workflow's command sequence (which activities and timers, in which order)
 * is part of every history recorded by earlier code. Any change to it goes under
 * `patched('<id>')` (old branch kept).
 */
import { ActivityCancellationType, CancellationScope, isCancellation, proxyActivities, sleep } from '@temporalio/workflow';
import type { MediaJobActivities } from './activities/media-job';

export interface MediaJobWorkflowInput {
  jobId: string;
  timeLimitMs: number;
  heartbeatTimeoutMs: number;
  outputTtlMs: number;
  maxAttempts: number;
}

/**
 * One media-processing job (`media:<job id>`, on the media task queue): runs its ffmpeg command in
 * a heartbeating activity (a worker that dies mid-run misses its heartbeats and the run restarts
 * on another worker), ends the job and settles its minutes, publishes the output when asked, then
 * keeps the output until it expires and deletes it. Cancelling the workflow kills the process
 * and settles only the time processed.
 */
export async function mediaJobWorkflow(input: MediaJobWorkflowInput): Promise<string> {
  const { runMediaJob } = proxyActivities<MediaJobActivities>({
    startToCloseTimeout: input.timeLimitMs + 5 * 60_000,
    heartbeatTimeout: input.heartbeatTimeoutMs,
    cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: input.maxAttempts },
  });
  const { finishMediaJob, publishMediaOutput, expireMediaJob } = proxyActivities<MediaJobActivities>({
    startToCloseTimeout: '5 minutes',
    retry: { initialInterval: '1 second', maximumInterval: '1 minute', maximumAttempts: 20 },
  });
  const { jobId, outputTtlMs } = input;
  let result: Awaited<ReturnType<MediaJobActivities['runMediaJob']>>;
  try {
    result = await runMediaJob({ jobId, timeLimitMs: input.timeLimitMs });
  } catch (err) {
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(() => finishMediaJob({ jobId, outcome: 'cancelled', outputTtlMs }));
      await CancellationScope.nonCancellable(() => expireAfter(outputTtlMs, () => expireMediaJob({ jobId })));
      return 'cancelled';
    }
    await finishMediaJob({ jobId, outcome: 'error', reason: 'The job could not be run (its worker failed on every attempt).', outputTtlMs });
    await expireAfter(outputTtlMs, () => expireMediaJob({ jobId }));
    return 'error';
  }
  if (result.outcome === 'gone') return 'gone';
  // The run's phases (absent from runs recorded before they were measured) are kept with the job.
  const timings = result.timings ? { timings: result.timings } : {};
  if (result.outcome === 'error') {
    await finishMediaJob({ jobId, outcome: 'error', reason: result.reason, outputTtlMs, ...timings });
  } else {
    await finishMediaJob({ jobId, outcome: 'finished', output: result.output, outputTtlMs, ...timings });
    await publishMediaOutput({ jobId });
  }
  // Ended jobs cannot be cancelled (the API answers 409): a cancellation now only ends the wait early.
  await CancellationScope.nonCancellable(() => expireAfter(outputTtlMs, () => expireMediaJob({ jobId })));
  return result.outcome;
}

async function expireAfter(ms: number, expire: () => Promise<void>): Promise<void> {
  await sleep(ms);
  await expire();
}
