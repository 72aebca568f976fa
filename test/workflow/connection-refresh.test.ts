import type { ConnectionRefreshInput, RefreshAheadOutcome } from '../../core/ports/connection-refreshes';
import { SIGNALS, WORKFLOW_TYPES, workflowIds, type SignalArgs } from '../../core/ports/workflow-names';
import type { ConnectionRefreshActivities } from '../../workflows/activities/connection-refresh';
import { activitiesIn, countOf, eventually, historyOf, inputOf, uniqueId, useWorkflowTier } from './harness';

jest.setTimeout(120_000);

describe('refresh-ahead workflow (dev server, fake activities)', () => {
  const tier = useWorkflowTier('publish');

  /** refreshAhead answering `answers` in turn (made when asked, then done); each call's time is logged. */
  const fakeRefresh = (answers: Array<() => RefreshAheadOutcome>, blocks = true) => {
    const refreshes: number[] = [];
    const blocked: string[] = [];
    const activities: ConnectionRefreshActivities = {
      async refreshAhead() {
        refreshes.push(Date.now());
        return answers.shift()?.() ?? { kind: 'done', reason: 'gone' };
      },
      async blockIfStillReauth({ generation }) {
        blocked.push(generation);
        return blocks;
      },
    };
    return { refreshes, blocked, activities };
  };
  const inMs = (ms: number) => new Date(Date.now() + ms).toISOString();
  const input = (connectionId: string, over: Partial<ConnectionRefreshInput> = {}): ConnectionRefreshInput => ({
    connectionId, marginMs: 60_000, minPeriodMs: 10, retryMs: 300, blockedAfterMs: 3600_000, ...over,
  });
  const start = (taskQueue: string, refreshInput: ConnectionRefreshInput) =>
    tier.client.workflow.start(WORKFLOW_TYPES.connectionRefresh, { taskQueue, workflowId: workflowIds.connectionRefresh(refreshInput.connectionId), args: [refreshInput] });

  it.concurrent('renews at each next time, tries a failed refresh again after the retry delay, and ends when nothing is left to keep alive', async () => {
    let nextAt = 0;
    const fakes = fakeRefresh([
      () => { nextAt = Date.now() + 500; return { kind: 'next', nextAt: new Date(nextAt).toISOString() }; },
      () => ({ kind: 'failed', failures: 1 }),
    ]);
    await tier.withWorker('publish', fakes.activities, async (taskQueue) => {
      const handle = await start(taskQueue, input(uniqueId('conn'), { retryMs: 300 }));
      await handle.result();
      expect(countOf(await historyOf(handle), 'TimerFired')).toBe(2);
    });
    const [, second, third] = fakes.refreshes;
    expect(fakes.refreshes).toHaveLength(3);
    expect(second).toBeGreaterThanOrEqual(nextAt);
    expect(third! - second!).toBeGreaterThanOrEqual(300);
  });

  it.concurrent('blocks an account still reauth_required when the wait for a reconnect runs out', async () => {
    const fakes = fakeRefresh([() => ({ kind: 'reauth_required', since: inMs(0), generation: 'g1' })]);
    await tier.withWorker('publish', fakes.activities, async (taskQueue) => {
      const handle = await start(taskQueue, input(uniqueId('conn'), { blockedAfterMs: 300 }));
      await handle.result();
      expect(activitiesIn(await historyOf(handle))).toEqual(['refreshAhead', 'blockIfStillReauth']);
    });
    expect(fakes.blocked).toEqual(['g1']);
  });

  it.concurrent('looks again at once when the account is reconnected during that wait', async () => {
    const fakes = fakeRefresh([() => ({ kind: 'reauth_required', since: inMs(0), generation: 'g1' })]);
    await tier.withWorker('publish', fakes.activities, async (taskQueue) => {
      const handle = await start(taskQueue, input(uniqueId('conn')));
      await eventually('waiting for a reconnect', async () => countOf(await historyOf(handle), 'TimerStarted') === 1);
      await handle.signal<SignalArgs['reconnected']>(SIGNALS.reconnected);
      await handle.result();
      expect(countOf(await historyOf(handle), 'TimerCanceled')).toBe(1);
    });
    expect(fakes.refreshes).toHaveLength(2);
    expect(fakes.blocked).toEqual([]);
  });

  it.concurrent('ends on the disconnected signal while it waits', async () => {
    const fakes = fakeRefresh([() => ({ kind: 'next', nextAt: inMs(3600_000) })]);
    await tier.withWorker('publish', fakes.activities, async (taskQueue) => {
      const handle = await start(taskQueue, input(uniqueId('conn')));
      await eventually('waiting for the next renewal', async () => countOf(await historyOf(handle), 'TimerStarted') === 1);
      await handle.signal<SignalArgs['disconnected']>(SIGNALS.disconnected);
      await handle.result();
    });
    expect(fakes.refreshes).toHaveLength(1);
  });

  it.concurrent('continues as new after its rounds per run, with the same input', async () => {
    const next = (): RefreshAheadOutcome => ({ kind: 'next', nextAt: inMs(0) });
    const fakes = fakeRefresh([next, next]);
    const refreshInput = input(uniqueId('conn'), { roundsPerRun: 2 });
    await tier.withWorker('publish', fakes.activities, async (taskQueue) => {
      const handle = await start(taskQueue, refreshInput);
      await handle.result();
      const first = await historyOf(handle, handle.firstExecutionRunId);
      expect(activitiesIn(first)).toEqual(['refreshAhead', 'refreshAhead']);
      expect(first[first.length - 1]!.type).toBe('WorkflowExecutionContinuedAsNew');
      expect(await inputOf(handle)).toEqual(refreshInput);
      expect(activitiesIn(await historyOf(handle))).toEqual(['refreshAhead']);
    });
    expect(fakes.refreshes).toHaveLength(3);
  });
});
