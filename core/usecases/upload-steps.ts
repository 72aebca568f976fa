/**
 * The calls one platform target of an upload makes, as pure transitions: given the call that was
 * made and the outcome `publishTarget` answered, the next call and what to wait for before it.
 * The upload workflow (workflows/upload.workflow.ts) and the in-memory runner
 * (adapters/memory/upload-runner.ts) both drive their loops from these, so they cannot drift.
 *
 * Bundled into the workflow sandbox (ops/dependency-cruiser.cjs allows exactly this core file
 * besides the workflow names): it imports nothing at run time and stays deterministic.
 */
import type { TargetOutcome } from './run-upload';

/** Where a target's call stands: the fields of `publishTarget`'s input that change between calls. */
export interface TargetCall {
  /** Which "come back later" round this is (0 first). */
  round: number;
  /** Which resume of a multi-step publish this is (0 = the first call). */
  step: number;
  /** The state of the previous `wait`, when resuming. */
  resume?: Record<string, unknown>;
  /** The caller waits out a pause the spec retries after (once per target). */
  waitOutPause: boolean;
}

/** What comes before the next call. */
export type TargetWait =
  /** Another execution of this very call is still running: the same call again after `ms`. */
  | { kind: 'busy'; ms: number }
  /** The network said later (a retry round) or is processing (the next step): wait `ms`. */
  | { kind: 'later'; ms: number }
  /** The account is paused until `atMs` (epoch ms): wait until then, then call once more. */
  | { kind: 'until'; atMs: number };

export type TargetStep =
  | { kind: 'stop' }
  | { kind: 'again'; wait: TargetWait; next: TargetCall };

/** A target's first call. `waitOutPause`: whether the caller can wait out a pause (see `TargetCall`). */
export function firstTargetCall(waitOutPause: boolean): TargetCall {
  return { round: 0, step: 0, waitOutPause };
}

/** The step after `call` answered `outcome`. */
export function nextTargetStep(call: TargetCall, outcome: TargetOutcome): TargetStep {
  switch (outcome.kind) {
    case 'done':
      return { kind: 'stop' };
    case 'busy':
      return { kind: 'again', wait: { kind: 'busy', ms: outcome.afterMs }, next: call };
    case 'paused':
      // One retry per pause: a second verdict on the call after it fails the target for good.
      return { kind: 'again', wait: { kind: 'until', atMs: Date.parse(outcome.untilIso) }, next: { round: call.round + 1, step: 0, waitOutPause: false } };
    case 'retry':
      return { kind: 'again', wait: { kind: 'later', ms: outcome.afterMs }, next: { round: call.round + 1, step: 0, waitOutPause: call.waitOutPause } };
    case 'wait':
      return {
        kind: 'again', wait: { kind: 'later', ms: outcome.afterMs }, next: { round: call.round, step: call.step + 1, resume: outcome.state, waitOutPause: call.waitOutPause },
      };
  }
}

/** A call's fields as `publishTarget`'s input carries them: `resume` and `waitOutPause` only when set. */
export interface TargetCallFields {
  round: number;
  step: number;
  resume?: Record<string, unknown>;
  waitOutPause?: true;
}

export function targetCallFields(call: TargetCall): TargetCallFields {
  return { round: call.round, step: call.step, ...(call.resume ? { resume: call.resume } : {}), ...(call.waitOutPause ? { waitOutPause: true as const } : {}) };
}
