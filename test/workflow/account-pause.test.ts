import type { AccountPauseInput } from '../../core/ports/account-pauses';
import { SIGNALS, WORKFLOW_TYPES, workflowIds, type SignalArgs } from '../../core/ports/workflow-names';
import type { AccountPauseActivities } from '../../workflows/activities/account-pause';
import { activitiesIn, countOf, eventually, historyOf, uniqueId, useWorkflowTier } from './harness';

jest.setTimeout(120_000);

describe('account pause workflow (dev server, fake activities)', () => {
  const tier = useWorkflowTier('publish');

  /** clearExpiredRestriction answering `answers` in turn (then true), with the time of each call. */
  const fakeClear = (answers: boolean[] = []) => {
    const calls: number[] = [];
    const activities: AccountPauseActivities = {
      async clearExpiredRestriction() {
        calls.push(Date.now());
        return answers.shift() ?? true;
      },
    };
    return { calls, activities };
  };

  /** As adapters/temporal/account-pauses starts it: signal-with-start, the verdict as the signal. */
  const pause = (taskQueue: string, connectionId: string, untilMs: number) => {
    const input: AccountPauseInput = { connectionId, until: new Date(untilMs).toISOString() };
    return tier.client.workflow.signalWithStart<(input: AccountPauseInput) => Promise<void>, SignalArgs['paused']>(WORKFLOW_TYPES.accountPause, {
      workflowId: workflowIds.accountPause(connectionId), taskQueue, args: [input], signal: SIGNALS.paused, signalArgs: [input.until],
    });
  };
  const timerRunning = async (handle: Parameters<typeof historyOf>[0], timers: number) =>
    eventually(`timer ${timers}`, async () => countOf(await historyOf(handle), 'TimerStarted') === timers);

  it.concurrent('lifts the pause when its timer fires, the timer moved later by a second verdict and not earlier by a third', async () => {
    // The stored restriction, as clearExpiredRestriction sees it: lifted only once it has expired.
    // As in production, the second verdict is stored before its signal is sent.
    const later = Date.now() + 4000;
    const lifts: Array<{ at: number; lifted: boolean }> = [];
    const activities: AccountPauseActivities = {
      async clearExpiredRestriction() {
        const at = Date.now();
        lifts.push({ at, lifted: at >= later });
        return at >= later;
      },
    };
    const connectionId = uniqueId('conn');
    await tier.withWorker('publish', activities, async (taskQueue) => {
      const handle = await pause(taskQueue, connectionId, Date.now() + 1000);
      await handle.signal<SignalArgs['paused']>(SIGNALS.paused, new Date(later).toISOString());
      // An earlier verdict never shortens the pause.
      await handle.signal<SignalArgs['paused']>(SIGNALS.paused, new Date(Date.now()).toISOString());
      await handle.result();
    });
    // Whether the first timer was moved before it fired or fired first (a slow machine: the lift
    // then finds the newer restriction and waits for its verdict), the pause is lifted once, after
    // the second verdict's end.
    expect(lifts.filter((l) => l.lifted)).toHaveLength(1);
    expect(lifts[lifts.length - 1]).toEqual({ at: expect.any(Number), lifted: true });
    expect(lifts[lifts.length - 1]!.at).toBeGreaterThanOrEqual(later);
  });

  it.concurrent('ends at once on pauseEnded (reconnected or disconnected), without lifting anything', async () => {
    const { calls, activities } = fakeClear();
    const connectionId = uniqueId('conn');
    await tier.withWorker('publish', activities, async (taskQueue) => {
      const handle = await pause(taskQueue, connectionId, Date.now() + 3600_000);
      await timerRunning(handle, 1);
      await handle.signal<SignalArgs['pauseEnded']>(SIGNALS.pauseEnded);
      await handle.result();
      const events = await historyOf(handle);
      expect(countOf(events, 'TimerCanceled')).toBe(1);
      // The run ended behind its patch marker.
      expect(events.filter((e) => e.type === 'MarkerRecorded')).toHaveLength(1);
      expect(activitiesIn(events)).toEqual([]);
    });
    expect(calls).toEqual([]);
  });

  it.concurrent('waits for the newer pause when the expired one was not lifted (a newer restriction is stored)', async () => {
    const { calls, activities } = fakeClear([false]);
    const connectionId = uniqueId('conn');
    await tier.withWorker('publish', activities, async (taskQueue) => {
      const handle = await pause(taskQueue, connectionId, Date.now() + 200);
      await eventually('the first lift', () => calls.length === 1);
      const newer = Date.now() + 1000;
      await handle.signal<SignalArgs['paused']>(SIGNALS.paused, new Date(newer).toISOString());
      await handle.result();
      expect(calls[1]).toBeGreaterThanOrEqual(newer);
      expect(activitiesIn(await historyOf(handle))).toEqual(['clearExpiredRestriction', 'clearExpiredRestriction']);
    });
    expect(calls).toHaveLength(2);
  });
});
