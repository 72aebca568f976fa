import { Context } from '@temporalio/activity';
import {
  beginUpload, clearExpiredRestriction, finishUpload, publishTarget, type PublishTargetInput, type RunUploadDeps, type TargetOutcome,
} from '../core/usecases/run-upload';
import { postponeIfCapped } from '../core/usecases/caps';

export type PublishTargetActivityInput = Omit<PublishTargetInput, 'attempt' | 'signal'>;

/** The activities of the upload workflow, built over core ports (dependency injection). */
export function createUploadActivities(deps: RunUploadDeps) {
  return {
    beginUpload: (input: { accountId: string; requestId: string }) => beginUpload(deps, input),
    finishUpload: (input: { accountId: string; requestId: string }) => finishUpload(deps, input),
    clearExpiredRestriction: (input: { connectionId: string }) => clearExpiredRestriction(deps, input),
    postponeIfCapped: (input: { accountId: string; requestId: string }) => postponeIfCapped(deps, input),

    async publishTarget(input: PublishTargetActivityInput): Promise<TargetOutcome> {
      const ctx = Context.current();
      // Heartbeats tell Temporal this worker is alive while the network call is in flight.
      const every = Math.max(200, Math.floor(input.timing.heartbeatTimeoutMs / 3));
      const beat = setInterval(() => ctx.heartbeat(), every);
      try {
        return await publishTarget(deps, {
          ...input,
          attempt: ctx.info.attempt,
          signal: AbortSignal.any([ctx.cancellationSignal, AbortSignal.timeout(input.timing.publishTimeoutMs)]),
        });
      } finally {
        clearInterval(beat);
      }
    },
  };
}

export type UploadActivities = ReturnType<typeof createUploadActivities>;
