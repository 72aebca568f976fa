/*
 * Durability rule: this workflow's command sequence (which activities, timers and markers, in
 * which order) is part of every history recorded by earlier code. Any change to it goes under
 * `patched('<id>')` (old branch kept), and test/replay replays the committed histories to prove it.
 */
import { continueAsNew, proxyActivities, setHandler } from '@temporalio/workflow';
import type { ConnectionRefreshInput } from '../core/ports/connection-refreshes';
import type { ConnectionRefreshActivities } from './activities/connection-refresh';
import { disconnectedSignal, reconnectedSignal } from './support/signals';
import { MovableTimer, workflowNow } from './support/movable-timer';

/** Rounds per run before the history is handed to a fresh run (each round is one activity and one timer), unless the input says. */
const ROUNDS_PER_RUN = 200;

/**
 * Refresh-ahead of one connected OAuth account (`refresh:<connection id>`): sleeps until its token
 * is `marginMs` from expiring (never less than `minPeriodMs` between rounds), renews it through the
 * connection session (serialized with publishes), and goes on for as long as the account is
 * connected, whether it posts or not. A failed refresh is retried after `retryMs` (the lifecycle
 * counts it toward reauth_required). Once the account is reauth_required it waits for a reconnect
 * (signal `reconnected`) until `blockedAfterMs` after the account became reauth_required, then
 * disconnects it (account_blocked). Signal `disconnected`, or a connection that is gone, ends it.
 */
export async function connectionRefreshWorkflow(input: ConnectionRefreshInput): Promise<void> {
  const { refreshAhead, blockIfStillReauth } = proxyActivities<ConnectionRefreshActivities>({
    startToCloseTimeout: '2 minutes',
    retry: { initialInterval: '5 seconds', maximumInterval: '1 minute' },
  });
  let ended = false;
  let reconnected = false;
  const timer = new MovableTimer(workflowNow());
  setHandler(reconnectedSignal, () => {
    reconnected = true;
    timer.moveTo(workflowNow());
  });
  setHandler(disconnectedSignal, () => {
    ended = true;
  });

  for (let round = 0; round < (input.roundsPerRun ?? ROUNDS_PER_RUN); round += 1) {
    if (ended) return;
    reconnected = false;
    const outcome = await refreshAhead({ connectionId: input.connectionId, marginMs: input.marginMs });
    if (ended) return;
    switch (outcome.kind) {
      case 'done':
        return;
      case 'next':
        if (!reconnected) timer.moveTo(Math.max(Date.parse(outcome.nextAt), workflowNow() + input.minPeriodMs));
        if (!(await timer.untilDue(() => ended))) return;
        break;
      case 'failed':
        if (!reconnected) timer.moveTo(workflowNow() + input.retryMs);
        if (!(await timer.untilDue(() => ended))) return;
        break;
      case 'reauth_required': {
        if (reconnected) break;
        timer.moveTo(Date.parse(outcome.since) + input.blockedAfterMs);
        if (!(await timer.untilDue(() => ended || reconnected))) {
          if (ended) return;
          break;
        }
        // Still reauth_required in that generation: disconnected (account_blocked). A reconnect
        // that raced the timer makes it a no-op, and the next round looks at the new connection.
        if (await blockIfStillReauth({ connectionId: input.connectionId, generation: outcome.generation })) return;
        break;
      }
    }
  }
  return continueAsNew<typeof connectionRefreshWorkflow>(input);
}
