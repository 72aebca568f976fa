import { condition, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { AccountPauseInput } from '../core/ports/account-pauses';
import type { UploadActivities } from './activities';

export const pausedSignal = defineSignal<[string]>('paused');

// Workflow time: the Temporal sandbox makes Date.now() replay-safe (it is the workflow task's time).
// eslint-disable-next-line no-restricted-syntax
const workflowNow = (): number => Date.now();

/**
 * The account pause of one connected account (`account:<connection id>`): a timer until the
 * restriction ends, moved by every new verdict (signal), that lifts the pause when it fires.
 * Reconnecting clears the stored restriction directly, so the lift is then a no-op.
 */
export async function accountPauseWorkflow(input: AccountPauseInput): Promise<void> {
  const { clearExpiredRestriction } = proxyActivities<UploadActivities>({
    startToCloseTimeout: '1 minute',
    retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
  });
  let until = Date.parse(input.until);
  let moves = 0;
  setHandler(pausedSignal, (iso: string) => {
    until = Math.max(until, Date.parse(iso));
    moves += 1;
  });
  for (;;) {
    while (until > workflowNow()) {
      const seen = moves;
      await condition(() => moves !== seen, until - workflowNow());
    }
    if (await clearExpiredRestriction({ connectionId: input.connectionId })) return;
    // Not lifted: a newer pause is stored (its signal may still be on the way); wait for it.
    if (!(await condition(() => until > workflowNow(), 60_000))) return;
  }
}
