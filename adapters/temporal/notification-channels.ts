import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { BreakerView, NotificationChannelQueue } from '../../core/ports/notification-channels';
import { QUERIES, SIGNALS, WORKFLOW_TYPES, workflowIds, type SignalArgs } from '../../core/ports/workflow-names';

/** Deliveries one activity makes in a row (the workflow's batch). */
export const CHANNEL_BATCH = 20;

export interface NotificationChannelTiming {
  failureThreshold: number;
  pauseMs: number;
  /** The receiver timeout; an attempt may take it plus a margin. */
  receiverTimeoutMs: number;
  heartbeatTimeoutMs: number;
  idleMs: number;
}

/** The workflow's input, as workflows/notification-channel.workflow.ts declares it (kept in step by the type check of its tests). */
interface ChannelInput {
  channelId: string;
  breaker: { failureThreshold: number; pauseMs: number };
  attemptTimeoutMs: number;
  heartbeatTimeoutMs: number;
  idleMs: number;
  batch: number;
  taskQueue: string;
}

/**
 * Hands deliveries to each channel's breaker workflow (`webhook:<channel id>`) on the `notify`
 * pool's task queue: signal-with-start, so the first delivery starts it and later ones join its
 * queue (a running run keeps the queue it started on until the routed signal moves it). Thresholds and durations are
 * the workflow's input (configuration), so tests run the breaker in seconds.
 */
export function createTemporalNotificationChannelQueue(client: Client, opts: { taskQueue: string; timing: NotificationChannelTiming }): NotificationChannelQueue {
  const input = (channelId: string): ChannelInput => ({
    channelId,
    breaker: { failureThreshold: opts.timing.failureThreshold, pauseMs: opts.timing.pauseMs },
    // A batch stops at its first failure (one timeout at most); each delivery may take the
    // receiver's time, plus the log writes and a margin for a loaded machine. A dead worker is
    // noticed by the heartbeat timeout long before this.
    attemptTimeoutMs: (opts.timing.receiverTimeoutMs + 5_000) * CHANNEL_BATCH + 30_000,
    heartbeatTimeoutMs: opts.timing.heartbeatTimeoutMs,
    idleMs: opts.timing.idleMs,
    batch: CHANNEL_BATCH,
    taskQueue: opts.taskQueue,
  });
  return {
    async enqueue(channelId, deliveries) {
      await client.workflow.signalWithStart<(input: ChannelInput) => Promise<void>, SignalArgs['deliver']>(WORKFLOW_TYPES.notificationChannel, {
        workflowId: workflowIds.notificationChannel(channelId),
        taskQueue: opts.taskQueue,
        args: [input(channelId)],
        signal: SIGNALS.deliver,
        // The route moves a run still on another queue (started before the notify pool) to this one.
        signalArgs: [deliveries, { taskQueue: opts.taskQueue }],
      });
    },
    async breaker(channelId): Promise<BreakerView | null> {
      try {
        const handle = client.workflow.getHandle(workflowIds.notificationChannel(channelId));
        const view = await handle.query<{ state: BreakerView['state']; consecutive_failures: number; paused_until: string | null }>(QUERIES.breaker);
        return { state: view.state, consecutive_failures: view.consecutive_failures, paused_until: view.paused_until };
      } catch (err) {
        if (err instanceof WorkflowNotFoundError) return null;
        // A finished run answers queries too; anything else (not running) counts as closed.
        return null;
      }
    },
    async resume(channelId) {
      try {
        await client.workflow.getHandle(workflowIds.notificationChannel(channelId)).signal<SignalArgs['resume']>(SIGNALS.resume);
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
      }
    },
  };
}
