import type { Client } from '@temporalio/client';
import type { AnalyticsSnapshotSchedule, AnalyticsSnapshotSettings } from '../../core/ports/analytics-snapshots';
import { SIGNALS, WORKFLOW_TYPES, workflowIds } from '../../core/ports/workflow-names';

/**
 * The snapshot workflow by signal-with-start: started with the settings when none runs, else
 * handed them (its next round is replanned). Idempotent, so every analytics worker calls it at start.
 */
export function createTemporalAnalyticsSnapshots(client: Client, opts: { taskQueue: string }): AnalyticsSnapshotSchedule {
  return {
    async ensure(settings: AnalyticsSnapshotSettings): Promise<void> {
      await client.workflow.signalWithStart(WORKFLOW_TYPES.analyticsSnapshots, {
        workflowId: workflowIds.analyticsSnapshots(opts.taskQueue),
        taskQueue: opts.taskQueue,
        args: [settings],
        signal: SIGNALS.snapshotSettings,
        signalArgs: [settings],
      });
    },
  };
}
