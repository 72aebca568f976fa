import { CancelledFailure, Context } from '@temporalio/activity';
import { MediaProcessError } from '../../core/ports/media';
import {
  expireMediaJob, finishMediaJob, publishMediaOutput, runMediaJob,
  type PublishMediaDeps, type RunMediaJobDeps,
} from '../../core/usecases/run-media-job';
import type { MediaJobOutput, MediaRunTimings } from '../../core/domain/media-job';
import type { MediaStore } from '../../core/ports/media';

export interface MediaJobActivityDeps extends RunMediaJobDeps {
  store: Pick<MediaStore, 'delete'>;
  publish: PublishMediaDeps;
  /** Heartbeats while ffmpeg is quiet (probing, a slow first frame), so a live worker is never taken for dead. */
  heartbeatEveryMs: number;
}

/** The activities of the media job workflow (their names are recorded in workflow histories). */
export function createMediaJobActivities(deps: MediaJobActivityDeps) {
  return {
    async runMediaJob(input: { jobId: string; timeLimitMs: number }) {
      const ctx = Context.current();
      let processed = 0;
      const beat = setInterval(() => ctx.heartbeat({ processedSeconds: processed }), deps.heartbeatEveryMs);
      try {
        return await runMediaJob(deps, input.jobId, {
          timeLimitMs: input.timeLimitMs,
          signal: ctx.cancellationSignal,
          scheduledMs: ctx.info.currentAttemptScheduledTimestampMs,
          heartbeat: (seconds) => {
            processed = seconds;
            ctx.heartbeat({ processedSeconds: seconds });
          },
        });
      } catch (err) {
        if (err instanceof MediaProcessError && err.kind === 'cancelled') throw new CancelledFailure('cancelled');
        throw err;
      } finally {
        clearInterval(beat);
      }
    },
    async finishMediaJob(input: { jobId: string; outcome: 'finished' | 'error' | 'cancelled'; output?: MediaJobOutput; reason?: string; outputTtlMs: number; timings?: MediaRunTimings }) {
      await finishMediaJob(deps, input);
    },
    async publishMediaOutput(input: { jobId: string }) {
      await publishMediaOutput(deps.publish, input.jobId);
    },
    async expireMediaJob(input: { jobId: string }) {
      await expireMediaJob(deps, input.jobId);
    },
  };
}

export type MediaJobActivities = ReturnType<typeof createMediaJobActivities>;
