/**
 * The names Temporal knows Herald's workflows by: workflow types, signals and workflow ids. Both
 * sides use this one module: the workflows (workflows/) and the clients that start and signal
 * them (adapters/temporal/). Each name is recorded in every workflow history, so renaming one
 * strands the runs in flight (a scheduled post can wait a year).
 *
 * Workflow code imports this file at run time (ops/dependency-cruiser.cjs allows exactly this
 * core file): it must import nothing and stay plain data.
 */

/** Workflow types: the names of the functions exported by workflows/index.ts. */
export const WORKFLOW_TYPES = {
  upload: 'uploadWorkflow',
  accountPause: 'accountPauseWorkflow',
  checkpointProbe: 'checkpointProbeWorkflow',
  connectionRefresh: 'connectionRefreshWorkflow',
  /** Bundled apart (workflows/media-job.workflow.ts) for the media task queue's worker. */
  mediaJob: 'mediaJobWorkflow',
  /** The circuit breaker and delivery queue of one notification channel (the type keeps its first name: recorded). */
  notificationChannel: 'webhookChannelWorkflow',
  /** The daily analytics snapshot of every connected account (the analytics task queue). */
  analyticsSnapshots: 'analyticsSnapshotsWorkflow',
} as const;

export type WorkflowType = (typeof WORKFLOW_TYPES)[keyof typeof WORKFLOW_TYPES];

export const SIGNALS = {
  /** Upload: the scheduled post's new time (ISO); its timer moves there. */
  reschedule: 'reschedule',
  /** Upload: the scheduled post was cancelled; its wait ends without publishing. */
  cancel: 'cancel',
  /** Account pause: a new restriction verdict pauses the account until this instant (ISO). */
  paused: 'paused',
  /** Account pause: the account was reconnected or disconnected; the pause ends now. */
  pauseEnded: 'pauseEnded',
  /** Refresh-ahead: the account was (re)connected; look at it again now. */
  reconnected: 'reconnected',
  /** Refresh-ahead: the account was disconnected; the workflow ends. */
  disconnected: 'disconnected',
  /**
   * Notification channel: deliveries to make, in order ([{deliveryId, eventKey}]), and the task
   * queue the channel belongs on (a run started on another queue, the publishing one before the
   * `notify` pool existed, continues as new there).
   */
  deliver: 'deliver',
  /** Notification channel: the address changed; an open breaker closes now. */
  resume: 'resume',
  /** Analytics snapshots: new settings (period, offset, page size); the next round is planned with them. */
  snapshotSettings: 'snapshotSettings',
} as const;

/** Queries: read-only views of a running workflow. */
export const QUERIES = {
  /** Notification channel: its breaker state. */
  breaker: 'breaker',
} as const;

/** The arguments each signal carries. */
export interface SignalArgs {
  reschedule: [iso: string];
  cancel: [];
  paused: [iso: string];
  pauseEnded: [];
  reconnected: [];
  disconnected: [];
  deliver: [deliveries: Array<{ deliveryId: string; eventKey: string }>, route?: { taskQueue: string }];
  resume: [];
  snapshotSettings: [settings: { periodMs: number; offsetMs: number; pageSize: number }];
}

/** Workflow ids are business keys, so a repeated start or a later signal finds the same run. */
export const workflowIds = {
  /** One run per upload (and per retry of its failed platforms). */
  upload: (accountId: string, requestId: string, retry = 0): string =>
    (retry ? `upload:${accountId}:${requestId}:retry-${retry}` : `upload:${accountId}:${requestId}`),
  /** The pause of one connected account. */
  accountPause: (connectionId: string): string => `account:${connectionId}`,
  /** The checkpoint probe of one connected account. */
  checkpointProbe: (connectionId: string): string => `checkpoint:${connectionId}`,
  /** The refresh-ahead of one connected OAuth account. */
  connectionRefresh: (connectionId: string): string => `refresh:${connectionId}`,
  /** One run per media-processing job. */
  mediaJob: (jobId: string): string => `media:${jobId}`,
  /** The breaker of one notification channel (`<account>:webhook`, `<account>:profile:<username>`, `<account>:telegram`, …). */
  notificationChannel: (channelId: string): string => `webhook:${channelId}`,
  /** The one snapshot schedule of a deployment, named by its task queue (test stacks share a Temporal). */
  analyticsSnapshots: (taskQueue: string): string => `analytics-snapshots:${taskQueue}`,
};
