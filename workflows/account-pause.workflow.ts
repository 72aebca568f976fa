/*
 * Durability rule: this workflow's command sequence (which activities, timers and markers, in
 * which order) is part of every history recorded by earlier code. Any change to it goes under
 * `patched('<id>')` (old branch kept), and test/replay replays the committed histories to prove it.
 */
import { condition, patched, proxyActivities, setHandler } from '@temporalio/workflow';
import type { AccountPauseInput } from '../core/ports/account-pauses';
import type { AccountPauseActivities } from './activities/account-pause';
import { pauseEndedSignal, pausedSignal } from './support/signals';
import { MovableTimer } from './support/movable-timer';

/** The patches of this workflow, oldest first. Their ids are recorded in histories: never rename or reuse one. */
const PATCHES = {
  /** A reconnect or a disconnect (signal pauseEnded) ends the workflow at once instead of at `until`. */
  endedByReconnect: 'pause-ended-by-reconnect',
} as const;

/**
 * The account pause of one connected account (`account:<connection id>`): a timer until the
 * restriction ends, moved by every new verdict (signal), that lifts the pause when it fires.
 * Reconnecting clears the stored restriction directly and signals `pauseEnded`: the workflow ends.
 */
export async function accountPauseWorkflow(input: AccountPauseInput): Promise<void> {
  const { clearExpiredRestriction } = proxyActivities<AccountPauseActivities>({
    startToCloseTimeout: '1 minute',
    retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
  });
  const pause = new MovableTimer(Date.parse(input.until));
  // A verdict never shortens a pause; an earlier one still wakes the timer (it restarts as it was).
  setHandler(pausedSignal, (iso: string) => pause.moveTo(Math.max(pause.deadline, Date.parse(iso))));
  // Histories recorded before the signal existed never carry it: `ended` stays false there and the
  // commands are those of the old code. A run that gets it ends behind the patch marker.
  let ended = false;
  setHandler(pauseEndedSignal, () => {
    ended = true;
  });
  const endedNow = () => ended && patched(PATCHES.endedByReconnect);
  for (;;) {
    await pause.untilDue(() => ended);
    if (endedNow()) return;
    if (await clearExpiredRestriction({ connectionId: input.connectionId })) return;
    // Not lifted: a newer pause is stored (its signal may still be on the way); wait for it.
    if (!(await condition(() => ended || !pause.due, 60_000))) return;
    if (endedNow()) return;
  }
}
