import { Context } from '@temporalio/activity';
import {
  beginUpload, finishUpload, publishOnlyTarget, publishTarget, type OnlyTargetOutcome, type PublishTargetInput, type TargetOutcome,
} from '../../core/usecases/run-upload';
import { postponeIfCapped, type PostponeDeps } from '../../core/usecases/caps';
import { prepareMedia, type PrepareMediaDeps } from '../../core/usecases/prepare-media';

export type PublishTargetActivityInput = Omit<PublishTargetInput, 'attempt' | 'signal'> & {
  /** This call already ran once inside the workflow task (see `firstCallInline`): attempts count on from it. */
  afterInline?: boolean;
};

/** Runs `work` while heartbeating: Temporal then knows this worker is alive during long network I/O. */
async function heartbeating<T>(heartbeatTimeoutMs: number, work: (ctx: Context) => Promise<T>): Promise<T> {
  const ctx = Context.current();
  // A local activity runs inside the workflow task, which the SDK keeps alive itself.
  if (ctx.info.isLocal) return work(ctx);
  const beat = setInterval(() => ctx.heartbeat(), Math.max(200, Math.floor(heartbeatTimeoutMs / 3)));
  try {
    return await work(ctx);
  } finally {
    clearInterval(beat);
  }
}

/**
 * The activities of the upload workflow, over core ports. Their names (the keys) are recorded in
 * workflow histories: renaming one strands the runs in flight.
 */
export function createUploadActivities(deps: PrepareMediaDeps & PostponeDeps) {
  return {
    beginUpload: (input: { accountId: string; requestId: string }) => beginUpload(deps, input),
    finishUpload: (input: { accountId: string; requestId: string }) => finishUpload(deps, input),
    postponeIfCapped: (input: { accountId: string; requestId: string }) => postponeIfCapped(deps, input),

    /** Downloads URL media of an asynchronous request (heartbeating while the bytes come in). */
    prepareMedia: (input: { accountId: string; requestId: string; heartbeatTimeoutMs: number }): Promise<{ publishable: boolean }> =>
      heartbeating(input.heartbeatTimeoutMs, () => prepareMedia(deps, input)),

    publishTarget: ({ afterInline, ...input }: PublishTargetActivityInput): Promise<TargetOutcome> =>
      heartbeating(input.timing.heartbeatTimeoutMs, (ctx) => publishTarget(deps, {
        ...input,
        attempt: ctx.info.attempt + (afterInline ? 1 : 0),
        signal: AbortSignal.any([ctx.cancellationSignal, AbortSignal.timeout(input.timing.publishTimeoutMs)]),
      })),

    /** Begin + the only target's first call + finish, as one local activity (see `publishOnlyTarget`). */
    publishOnlyTarget: ({ afterInline, ...input }: PublishTargetActivityInput): Promise<OnlyTargetOutcome> =>
      heartbeating(input.timing.heartbeatTimeoutMs, (ctx) => publishOnlyTarget(deps, {
        ...input,
        attempt: ctx.info.attempt + (afterInline ? 1 : 0),
        signal: AbortSignal.any([ctx.cancellationSignal, AbortSignal.timeout(input.timing.publishTimeoutMs)]),
      })),
  };
}

export type UploadActivities = ReturnType<typeof createUploadActivities>;
