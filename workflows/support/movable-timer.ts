import { condition, sleep } from '@temporalio/workflow';

/**
 * Workflow time, in this one place: inside the workflow sandbox `Date.now()` is the time of the
 * current workflow task (replay-safe), not the machine's clock.
 */
// eslint-disable-next-line no-restricted-syntax
export const workflowNow = (): number => Date.now();

/**
 * A durable timer whose deadline can move while it runs (samples-typescript's updatable timer):
 * a signal handler calls `moveTo`, and a pending `untilDue` starts a new timer for the new deadline.
 * The commands it issues per wait (one timer, cancelled when a move or the interruption comes
 * first) are part of recorded histories: keep them as they are (see test/replay).
 */
export class MovableTimer {
  #deadline: number;
  #moves = 0;

  constructor(deadlineMs: number) {
    this.#deadline = deadlineMs;
  }

  get deadline(): number {
    return this.#deadline;
  }

  /** Whether the deadline has passed (at the current workflow task). */
  get due(): boolean {
    return this.#deadline <= workflowNow();
  }

  /** Moves the deadline; a pending wait restarts, even when the deadline stayed the same. */
  moveTo(deadlineMs: number): void {
    this.#deadline = deadlineMs;
    this.#moves += 1;
  }

  /**
   * Waits until the deadline passes, following every move; true then. False as soon as
   * `interrupted()` holds (checked whenever the workflow wakes, e.g. after a signal).
   */
  async untilDue(interrupted: () => boolean = () => false): Promise<boolean> {
    while (!interrupted() && !this.due) {
      const seen = this.#moves;
      await condition(() => interrupted() || this.#moves !== seen, this.#deadline - workflowNow());
    }
    return !interrupted();
  }
}

/** A durable timer until an instant (no timer at all when it has passed). */
export async function sleepUntil(deadlineMs: number): Promise<void> {
  const left = deadlineMs - workflowNow();
  if (left > 0) await sleep(left);
}
