/*
 * Durability rule: this workflow's command sequence (which activities, timers and markers, in
 * which order) is part of every history recorded by earlier code. Any change to it goes under
 * `patched('<id>')` (old branch kept), and test/replay replays the committed histories to prove it.
 */
import { condition, continueAsNew, defineQuery, defineSignal, makeContinueAsNewFunc, patched, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import { QUERIES, SIGNALS, type SignalArgs } from '../core/ports/workflow-names';
import type { NotificationActivities } from './activities/notifications';
import { afterAttempt, phase, resumed, CLOSED, type BreakerConfig, type BreakerState } from './support/breaker';
import { MovableTimer } from './support/movable-timer';

export interface ChannelDelivery {
  deliveryId: string;
  eventKey: string;
}

export interface NotificationChannelInput {
  channelId: string;
  breaker: BreakerConfig;
  /** An attempt's time limit: the receiver timeout plus a margin. */
  attemptTimeoutMs: number;
  heartbeatTimeoutMs: number;
  /** A closed, idle channel ends its run after this long (the next delivery starts a new one). */
  idleMs: number;
  /** Deliveries one activity makes in a row (it stops at the first failure). */
  batch: number;
  /**
   * The task queue the channel belongs on (the `notify` pool's). Absent in runs started before
   * that pool existed: those learn it from the next `deliver` signal.
   */
  taskQueue?: string;
  /** Carried over continue-as-new. */
  carried?: { state: BreakerState; queue: ChannelDelivery[]; recent: string[] };
}

export const deliverSignal = defineSignal<SignalArgs['deliver']>(SIGNALS.deliver);
export const resumeSignal = defineSignal<SignalArgs['resume']>(SIGNALS.resume);
export const breakerQuery = defineQuery<{ state: 'closed' | 'open' | 'half_open'; consecutive_failures: number; paused_until: string | null; queued: number }>(QUERIES.breaker);

/** Delivery ids remembered to drop a delivery handed twice (the dispatcher may hand one again after a crash). */
const RECENT = 500;
/** Continue as new past this many history events (with the queue and breaker state). */
const HISTORY_LIMIT = 2000;
/**
 * A run on another task queue than its channel's (started on the publishing queue before the
 * `notify` pool existed) continues as new on the channel's queue. Patched: a history in which an
 * older worker handled a routed signal without moving replays the old way.
 */
const MOVE_TO_CHANNEL_QUEUE = 'channel-moves-to-its-task-queue';

// eslint-disable-next-line no-restricted-syntax
const workflowNow = (): number => Date.now();

/**
 * One notification channel (`webhook:<channel id>`): its deliveries in order, one attempt each,
 * through the circuit breaker. Failed attempts count; at the threshold the channel pauses (a
 * movable timer, moved to now when the address changes); deliveries arriving during the pause are
 * logged as skipped and not retried; after it the next delivery is tried and one success closes it. *
 * The notification channel workflow. Its function name is its Temporal workflow type
 * (WORKFLOW_TYPES.notificationChannel), recorded in every history since the first release, when
 * only webhooks had channels: it keeps that name, like the `webhook:` workflow ids.
 */
export async function webhookChannelWorkflow(input: NotificationChannelInput): Promise<void> {
  const { deliverNotifications, recordSkippedNotifications } = proxyActivities<NotificationActivities>({
    startToCloseTimeout: input.attemptTimeoutMs,
    heartbeatTimeout: input.heartbeatTimeoutMs,
    // Only infrastructure failures throw (the database, a killed worker): retried until they pass.
    retry: { initialInterval: '1 second', maximumInterval: '1 minute', backoffCoefficient: 2 },
  });
  let state: BreakerState = input.carried?.state ?? CLOSED;
  const queue: ChannelDelivery[] = [...(input.carried?.queue ?? [])];
  const recent: string[] = [...(input.carried?.recent ?? [])];
  const pause = new MovableTimer(state.pausedUntil ?? 0);

  // The deliveries an activity is making now (not in the queue, not yet remembered).
  let inFlight: ChannelDelivery[] = [];
  let home = input.taskQueue;
  setHandler(deliverSignal, (deliveries, route) => {
    if (route?.taskQueue) home = route.taskQueue;
    for (const delivery of deliveries) {
      const known = (d: ChannelDelivery) => d.deliveryId === delivery.deliveryId;
      if (recent.includes(delivery.deliveryId) || queue.some(known) || inFlight.some(known)) continue;
      queue.push(delivery);
    }
  });
  setHandler(resumeSignal, () => {
    state = resumed(state, workflowNow());
    if (state.pausedUntil !== null) pause.moveTo(state.pausedUntil);
  });
  setHandler(breakerQuery, () => ({
    state: phase(state, workflowNow()),
    consecutive_failures: state.consecutiveFailures,
    paused_until: state.pausedUntil !== null ? new Date(state.pausedUntil).toISOString() : null,
    queued: queue.length,
  }));

  const remember = (id: string) => {
    recent.push(id);
    if (recent.length > RECENT) recent.splice(0, recent.length - RECENT);
  };

  for (;;) {
    // Nothing is in flight here: the queue, the breaker and the remembered ids move with the run.
    if (home !== undefined && home !== workflowInfo().taskQueue && patched(MOVE_TO_CHANNEL_QUEUE)) {
      await makeContinueAsNewFunc<typeof webhookChannelWorkflow>({ taskQueue: home })({ ...input, taskQueue: home, carried: { state, queue, recent } });
    }
    if (workflowInfo().historyLength > HISTORY_LIMIT || workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof webhookChannelWorkflow>({ ...input, carried: { state, queue, recent } });
    }
    if (!queue.length) {
      if (phase(state, workflowNow()) === 'open') {
        // Paused: wait for the pause to end (the timer moves with a resume) or for work.
        await pause.untilDue(() => queue.length > 0);
        continue;
      }
      const gotWork = await condition(() => queue.length > 0, input.idleMs);
      if (!gotWork) {
        // Idle and closed: this run ends; a count of failures below the threshold is carried on.
        if (state.consecutiveFailures === 0 && state.pausedUntil === null) return;
        await continueAsNew<typeof webhookChannelWorkflow>({ ...input, carried: { state, queue, recent } });
      }
      continue;
    }
    if (phase(state, workflowNow()) === 'open') {
      // Everything queued meets the open breaker: logged as skipped, never sent.
      const skipped = queue.splice(0, queue.length);
      skipped.forEach((d) => remember(d.deliveryId));
      await recordSkippedNotifications({ channelId: input.channelId, deliveries: skipped, pausedUntil: new Date(state.pausedUntil!).toISOString() });
      continue;
    }
    // Half-open: one delivery probes the receiver; closed: a batch, stopping at its first failure.
    const batch = queue.splice(0, phase(state, workflowNow()) === 'half_open' ? 1 : Math.max(1, input.batch));
    inFlight = batch;
    const outcomes = await deliverNotifications({ channelId: input.channelId, deliveries: batch, heartbeatTimeoutMs: input.heartbeatTimeoutMs });
    inFlight = [];
    // What the batch did not reach (after a failure) goes back to the front of the queue.
    queue.unshift(...batch.slice(outcomes.length));
    for (const [i, outcome] of outcomes.entries()) {
      remember(batch[i]!.deliveryId);
      if (outcome === 'skipped') continue;
      const wasPaused = state.pausedUntil;
      state = afterAttempt(state, outcome === 'delivered', workflowNow(), input.breaker);
      if (state.pausedUntil !== null && state.pausedUntil !== wasPaused) pause.moveTo(state.pausedUntil);
    }
  }
}
