/*
 * Durability rule: this workflow's command sequence (which activities, timers and markers, in
 * which order) is part of every history recorded by earlier code, and scheduled posts keep runs
 * in flight for up to a year. Any change to it goes under `patched('<id>')` (old branch kept),
 * and test/replay replays the committed histories to prove it; `deprecatePatch` and removing the
 * old branch wait until no run of the old code can be left.
 */
import { patched, proxyActivities, proxyLocalActivities, setHandler, sleep } from '@temporalio/workflow';
import type { Platform } from '../core/domain/platforms';
import type { UploadWorkflowInput } from '../core/ports/upload-runner';
import type { TargetOutcome } from '../core/usecases/run-upload';
import { firstTargetCall, nextTargetStep, targetCallFields } from '../core/usecases/upload-steps';
import type { UploadActivities } from './activities/upload';
import { cancelSignal, rescheduleSignal } from './support/signals';
import { MovableTimer, sleepUntil } from './support/movable-timer';

/** The patches of this workflow, oldest first. Their ids are recorded in histories: never rename or reuse one. */
const PATCHES = {
  /** A pause the spec retries after ("paused 2 hours, then retried") is waited out, then the target is published once more. */
  retryAfterPause: 'retry-after-pause',
  /** `firstCallInline`: a target's first call runs as a local activity inside the workflow task. */
  inlineFirstCall: 'inline-first-call',
  /** `firstCallInline` with one target: begin, its first call and finish are one local activity. */
  inlineOnlyTarget: 'inline-only-target',
} as const;

/**
 * One upload: mark it in progress, publish every platform target in parallel (one failure never
 * blocks another), then mark it completed. "Come back later" answers from a network are waited
 * out with durable timers here, never with sleeps inside activities.
 */
export async function uploadWorkflow(input: UploadWorkflowInput): Promise<void> {
  const { timing } = input;
  // Bookkeeping steps are short database writes: local activities run them inside the worker's
  // workflow task, which saves two task round trips through the Temporal server each.
  const bookkeeping = proxyLocalActivities<UploadActivities>({
    startToCloseTimeout: '1 minute',
    retry: { initialInterval: '1 second', maximumInterval: '30 seconds' },
  });
  // A publish attempt that dies with its worker is retried on another worker after the heartbeat
  // timeout; the activity itself notices the interrupted dispatch (see core/usecases/run-upload).
  const publishing = proxyActivities<UploadActivities>({
    startToCloseTimeout: timing.publishTimeoutMs + 30_000,
    heartbeatTimeout: timing.heartbeatTimeoutMs,
    retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10 },
  });

  // A short first call inside the workflow task: a failure of the call itself (not a network's
  // verdict, which comes back as an outcome) is not retried here but by the regular activity.
  const inline = proxyLocalActivities<UploadActivities>({
    startToCloseTimeout: timing.publishTimeoutMs + 30_000,
    retry: { maximumAttempts: 1 },
  });

  // URL media of an asynchronous request is downloaded first (also for scheduled posts, so a bad
  // URL is known at once); when no target is left to publish the post finishes without waiting.
  const ids = { accountId: input.accountId, requestId: input.requestId };
  const { publishable } = input.fetchMedia
    ? await publishing.prepareMedia({ ...ids, heartbeatTimeoutMs: timing.heartbeatTimeoutMs })
    : { publishable: true };

  if (input.notBefore && publishable) {
    // A scheduled post: a durable timer that a signal can move (edit) or end (cancel).
    const due = new MovableTimer(Date.parse(input.notBefore));
    let cancelled = false;
    setHandler(rescheduleSignal, (iso: string) => due.moveTo(Date.parse(iso)));
    setHandler(cancelSignal, () => {
      cancelled = true;
    });
    for (;;) {
      if (!(await due.untilDue(() => cancelled))) return;
      // Due: the daily caps are checked again; a capped post moves to the next day and waits again.
      const postponed = await bookkeeping.postponeIfCapped(ids);
      if (!postponed) break;
      due.moveTo(Date.parse(postponed.postponedTo));
    }
  }

  // One target whose first call may run inline: begin, that call and finish in one local activity.
  // The answer says whether the upload ran and how its call ended; anything but done goes on below.
  let first: { platform: Platform; outcome: TargetOutcome } | undefined;
  let inlineDone = false;
  const only = input.platforms.length === 1 ? input.platforms[0] : undefined;
  if (only && publishable && input.firstCallInline === true && patched(PATCHES.inlineOnlyTarget)) {
    inlineDone = true;
    const call = { ...ids, platform: only, ...targetCallFields(firstTargetCall(patched(PATCHES.retryAfterPause))), timing, busyAware: true };
    let ran: Awaited<ReturnType<UploadActivities['publishOnlyTarget']>> | undefined;
    try {
      ran = await inline.publishOnlyTarget(call);
    } catch {
      // Not known how far it got: every part is safe to repeat, and the regular activity sees the
      // dispatch the inline call recorded and warns that it was sent again.
      if (!(await bookkeeping.beginUpload(ids))) return;
      first = { platform: only, outcome: await publishing.publishTarget({ ...call, afterInline: true }) };
    }
    if (ran && !ran.begun) return;
    if (ran?.begun) {
      // Done: the activity also finished the upload.
      if (ran.outcome.kind === 'done') return;
      first = { platform: only, outcome: ran.outcome };
    }
  } else if (!(await bookkeeping.beginUpload(ids))) {
    // false: the upload was cancelled meanwhile (the stored status is the authority).
    return;
  }

  // Each target's calls follow core/usecases/upload-steps (the in-memory runner follows them too):
  // `retry` starts the call again in a new round, `wait` resumes a multi-step publish with its
  // state, `paused` waits until the account's pause ends and starts the call again once, `busy`
  // makes the same call again later.
  const publishOne = async (platform: Platform): Promise<void> => {
    // Runs recorded before this patch replay without asking (the activity then failed the target
    // on such a verdict, as it did when they ran).
    let target = firstTargetCall(patched(PATCHES.retryAfterPause));
    let inlineFirst = !inlineDone && input.firstCallInline === true && patched(PATCHES.inlineFirstCall);
    let given = first?.platform === platform ? first.outcome : undefined;
    for (;;) {
      const call = { ...ids, platform, ...targetCallFields(target), timing, busyAware: true };
      let outcome: TargetOutcome;
      if (given) {
        // The first call already ran in the single-target step above.
        outcome = given;
        given = undefined;
      } else if (inlineFirst) {
        inlineFirst = false;
        try {
          outcome = await inline.publishTarget(call);
        } catch {
          // The activity sees the dispatch the inline call recorded and warns that it was sent again.
          outcome = await publishing.publishTarget({ ...call, afterInline: true });
        }
      } else {
        outcome = await publishing.publishTarget(call);
      }
      const step = nextTargetStep(target, outcome);
      if (step.kind === 'stop') return;
      target = step.next;
      // Durable timers: `until` sets none when the pause has already ended.
      if (step.wait.kind === 'until') await sleepUntil(step.wait.atMs);
      else await sleep(step.wait.ms);
    }
  };
  if (publishable) await Promise.all(input.platforms.map(publishOne));

  await bookkeeping.finishUpload(ids);
}
