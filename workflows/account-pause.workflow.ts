/*
 * Durability rule: this workflow's command sequence (which activities, timers and markers, in
 * which order) is part of every history recorded by earlier code. Any change to it goes under
 * `patched('<id>')` (old branch kept), and test/replay replays the committed histories to prove it.
 */
import { condition, proxyActivities, setHandler } from '@temporalio/workflow';
import type { AccountPauseInput } from '../core/ports/account-pauses';
import type { AccountPauseActivities } from './activities/account-pause';
import { pausedSignal } from './support/signals';
import { MovableTimer } from './support/movable-timer';

/**
 * The account pause of one connected account (`account:<connection id>`): a timer until the
 * restriction ends, moved by every new verdict (signal), that lifts the pause when it fires.
 * Reconnecting clears the stored restriction directly, so the lift is then a no-op.
 */
export async function accountPauseWorkflow(input: AccountPauseInput): Promise<void> {
  const { clearExpiredRestriction } = proxyActivities<AccountPauseActivities>({
    startToCloseTimeout: '1 minute',
    retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
  });
  const pause = new MovableTimer(Date.parse(input.until));
  // A verdict never shortens a pause; an earlier one still wakes the timer (it restarts as it was).
  setHandler(pausedSignal, (iso: string) => pause.moveTo(Math.max(pause.deadline, Date.parse(iso))));
  for (;;) {
    await pause.untilDue();
    if (await clearExpiredRestriction({ connectionId: input.connectionId })) return;
    // Not lifted: a newer pause is stored (its signal may still be on the way); wait for it.
    if (!(await condition(() => !pause.due, 60_000))) return;
  }
}
