import { Context } from '@temporalio/activity';
import {
  beginUpload, clearExpiredRestriction, finishUpload, publishTarget, type PublishTargetInput, type TargetOutcome,
} from '../core/usecases/run-upload';
import { postponeIfCapped } from '../core/usecases/caps';
import { prepareMedia, type PrepareMediaDeps } from '../core/usecases/prepare-media';
import { probeCheckpoint } from '../core/usecases/checkpoint-probe';

export type PublishTargetActivityInput = Omit<PublishTargetInput, 'attempt' | 'signal'>;

/** The activities of the upload workflow, built over core ports (dependency injection). */
export function createUploadActivities(deps: PrepareMediaDeps) {
  return {
    beginUpload: (input: { accountId: string; requestId: string }) => beginUpload(deps, input),
    finishUpload: (input: { accountId: string; requestId: string }) => finishUpload(deps, input),
    clearExpiredRestriction: (input: { connectionId: string }) => clearExpiredRestriction(deps, input),
    probeCheckpoint: (input: { connectionId: string }) => probeCheckpoint(deps, input),
    postponeIfCapped: (input: { accountId: string; requestId: string }) => postponeIfCapped(deps, input),

    /** Downloads URL media of an asynchronous request (heartbeating while the bytes come in). */
    async prepareMedia(input: { accountId: string; requestId: string; heartbeatTimeoutMs: number }): Promise<{ publishable: boolean }> {
      const ctx = Context.current();
      const beat = setInterval(() => ctx.heartbeat(), Math.max(200, Math.floor(input.heartbeatTimeoutMs / 3)));
      try {
        return await prepareMedia(deps, input);
      } finally {
        clearInterval(beat);
      }
    },

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
