import type { WorkflowHandle } from '@temporalio/client';
import { QUERIES, SIGNALS, WORKFLOW_TYPES, workflowIds, type SignalArgs } from '../../core/ports/workflow-names';
import type { DeliveryOutcome } from '../../core/ports/storage/notification-delivery-log';
import type { NotificationActivities } from '../../workflows/activities/notifications';
import type { NotificationChannelInput } from '../../workflows/notification-channel.workflow';
import { countOf, eventually, historyOf, inputOf, uniqueId, useWorkflowTier } from './harness';

jest.setTimeout(120_000);

interface BreakerView { state: 'closed' | 'open' | 'half_open'; consecutive_failures: number; paused_until: string | null; queued: number }

describe('notification channel workflow: the delivery breaker (dev server, fake activities)', () => {
  const tier = useWorkflowTier('notify');

  /** A receiver answering `answers` in turn (true = 2xx), then true; every attempt and skip is logged. */
  const fakeReceiver = (answers: boolean[]) => {
    const attempts: Array<{ id: string; ok: boolean }> = [];
    const skipped: Array<{ id: string; pausedUntil: string }> = [];
    const activities: NotificationActivities = {
      async deliverNotifications({ deliveries }) {
        // As the real activity: in order, stopping at the first failure.
        const outcomes: DeliveryOutcome[] = [];
        for (const d of deliveries) {
          const ok = answers.shift() ?? true;
          attempts.push({ id: d.deliveryId, ok });
          outcomes.push(ok ? 'delivered' : 'failed');
          if (!ok) break;
        }
        return outcomes;
      },
      async recordSkippedNotifications({ deliveries, pausedUntil }) {
        for (const d of deliveries) skipped.push({ id: d.deliveryId, pausedUntil });
      },
    };
    return { attempts, skipped, activities };
  };

  const channelInput = (channelId: string, taskQueue: string, breaker: NotificationChannelInput['breaker'], idleMs = 60_000): NotificationChannelInput => ({
    channelId, breaker, attemptTimeoutMs: 30_000, heartbeatTimeoutMs: 30_000, idleMs, batch: 20, taskQueue,
  });
  const deliveries = (...ids: string[]) => ids.map((deliveryId) => ({ deliveryId, eventKey: `upload.completed:${deliveryId}` }));

  /** As adapters/temporal/notification-channels hands deliveries over: signal-with-start. */
  const deliver = (input: NotificationChannelInput, ...ids: string[]) =>
    tier.client.workflow.signalWithStart<(input: NotificationChannelInput) => Promise<void>, SignalArgs['deliver']>(WORKFLOW_TYPES.notificationChannel, {
      workflowId: workflowIds.notificationChannel(input.channelId), taskQueue: input.taskQueue!, args: [input],
      signal: SIGNALS.deliver, signalArgs: [deliveries(...ids), { taskQueue: input.taskQueue! }],
    });
  const breakerOf = (handle: WorkflowHandle) => handle.query<BreakerView>(QUERIES.breaker);
  const breakerIs = (handle: WorkflowHandle, want: Partial<BreakerView>) => eventually(`breaker ${JSON.stringify(want)}`, async () => {
    const view = await breakerOf(handle);
    return Object.entries(want).every(([k, v]) => view[k as keyof BreakerView] === v);
  });

  it.concurrent('opens after the threshold of failures, skips what comes during the pause, and closes after a resume and one success', async () => {
    const receiver = fakeReceiver([false, false]);
    const channelId = uniqueId('acct:webhook');
    await tier.withWorker('notify', receiver.activities, async (taskQueue) => {
      const input = channelInput(channelId, taskQueue, { failureThreshold: 2, pauseMs: 3600_000 });
      const handle = await deliver(input, 'd1', 'd2');
      // d1 fails and stops its batch; d2, sent again alone, fails too: the breaker opens.
      await breakerIs(handle, { state: 'open', consecutive_failures: 2, queued: 0 });
      await deliver(input, 'd3');
      await eventually('d3 skipped', () => receiver.skipped.length === 1);
      expect(receiver.skipped[0]!.id).toBe('d3');
      expect(receiver.skipped[0]!.pausedUntil).toBe((await breakerOf(handle)).paused_until);

      // The address changed: the pause ends now; the next delivery probes the receiver and closes it.
      await handle.signal<SignalArgs['resume']>(SIGNALS.resume);
      await deliver(input, 'd4');
      await breakerIs(handle, { state: 'closed', consecutive_failures: 0, paused_until: null });
      // A delivery handed twice (a dispatcher retry) is dropped.
      await deliver(input, 'd4', 'd5');
      await eventually('d5 delivered', () => receiver.attempts.some((a) => a.id === 'd5'));
      await handle.terminate('test over');
    });
    expect(receiver.attempts).toEqual([
      { id: 'd1', ok: false }, { id: 'd2', ok: false }, { id: 'd4', ok: true }, { id: 'd5', ok: true },
    ]);
  });

  it.concurrent('half-opens when the pause timer fires: a failed probe pauses again at once, a successful one closes', async () => {
    const receiver = fakeReceiver([false, false, false]);
    const channelId = uniqueId('acct:webhook');
    await tier.withWorker('notify', receiver.activities, async (taskQueue) => {
      const input = channelInput(channelId, taskQueue, { failureThreshold: 2, pauseMs: 500 });
      const handle = await deliver(input, 'd1', 'd2');
      // (The phase a query reports follows the clock: with a short pause, the stored fields are what is stable.)
      const opened = async () => {
        let view: BreakerView | undefined;
        await eventually('breaker paused', async () => (view = await breakerOf(handle)).paused_until !== null);
        return view!;
      };
      const firstPause = await opened();
      expect(firstPause.consecutive_failures).toBe(2);
      // The pause's timer is the only one that fires (the idle waits are cancelled by work).
      await eventually('the pause ended', async () => countOf(await historyOf(handle), 'TimerFired') === 1);
      await deliver(input, 'd3');
      await eventually('d3 tried', () => receiver.attempts.length === 3);
      await eventually('paused again', async () => (await breakerOf(handle)).paused_until !== firstPause.paused_until);
      const again = await breakerOf(handle);
      expect(again.consecutive_failures).toBe(3);
      expect(Date.parse(again.paused_until!)).toBeGreaterThan(Date.parse(firstPause.paused_until!));
      await eventually('the second pause ended', async () => countOf(await historyOf(handle), 'TimerFired') === 2);
      await deliver(input, 'd4');
      await breakerIs(handle, { state: 'closed', consecutive_failures: 0 });
      await handle.terminate('test over');
    });
    expect(receiver.attempts.map((a) => a.id)).toEqual(['d1', 'd2', 'd3', 'd4']);
    expect(receiver.skipped).toEqual([]);
  });

  it.concurrent('ends an idle closed run, and carries a count of failures below the threshold over continue-as-new', async () => {
    const receiver = fakeReceiver([false]);
    const channelId = uniqueId('acct:webhook');
    await tier.withWorker('notify', receiver.activities, async (taskQueue) => {
      const input = channelInput(channelId, taskQueue, { failureThreshold: 3, pauseMs: 3600_000 }, 300);
      const handle = await deliver(input, 'd1');
      const firstRun = handle.signaledRunId;
      await eventually('a fresh run', async () => (await handle.describe()).runId !== firstRun);
      const first = await historyOf(handle, firstRun);
      expect(first[first.length - 1]!.type).toBe('WorkflowExecutionContinuedAsNew');
      expect(await inputOf(handle)).toMatchObject({ carried: { state: { consecutiveFailures: 1, pausedUntil: null }, queue: [], recent: ['d1'] } });
      // One success resets the count: the next idle period ends the channel's run for good.
      await deliver(input, 'd2');
      await handle.result();
    });
    expect(receiver.attempts).toEqual([{ id: 'd1', ok: false }, { id: 'd2', ok: true }]);
  });
});
