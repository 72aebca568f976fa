// The workflows bundled into the worker.
export { uploadWorkflow } from './upload.workflow';
export { accountPauseWorkflow } from './account-pause.workflow';
export { checkpointProbeWorkflow } from './checkpoint-probe.workflow';
export { connectionRefreshWorkflow } from './connection-refresh.workflow';
export { webhookChannelWorkflow } from './notification-channel.workflow';
export { analyticsSnapshotsWorkflow } from './analytics-snapshots.workflow';
