import { WorkflowIdConflictPolicy, type Client } from '@temporalio/client';
import type { ConnectedAccount } from '../../core/domain/connected-account';
import type { CheckpointProbeInput, CheckpointProbes } from '../../core/ports/checkpoint-probes';
import { WORKFLOW_TYPES, workflowIds } from '../../core/ports/workflow-names';

/**
 * Starts the connection's probe workflow. A probe already running for it keeps its own timer
 * (USE_EXISTING), so a flag raised again while probing neither restarts nor doubles it; one that
 * ended (cleared, gone) does not block a new one.
 */
export function createTemporalCheckpointProbes(client: Client, opts: { taskQueue: string; intervalMs: number }): CheckpointProbes {
  return {
    async flagged(connection: ConnectedAccount): Promise<void> {
      const input: CheckpointProbeInput = { connectionId: connection.id, intervalMs: opts.intervalMs };
      await client.workflow.start(WORKFLOW_TYPES.checkpointProbe, {
        workflowId: workflowIds.checkpointProbe(connection.id),
        taskQueue: opts.taskQueue,
        args: [input],
        workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      });
    },
  };
}
