import { WorkflowIdConflictPolicy, WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { ConnectedAccount } from '../../core/domain/connected-account';
import type { ConnectionRefreshes, ConnectionRefreshInput } from '../../core/ports/connection-refreshes';
import { SIGNALS, WORKFLOW_TYPES, workflowIds, type SignalArgs } from '../../core/ports/workflow-names';

/**
 * Refresh-ahead workflows: a connect starts the connection's workflow or wakes the running one
 * (signal-with-start `reconnected`); a disconnect signals `disconnected`, which ends it.
 */
export function createTemporalConnectionRefreshes(
  client: Client, opts: { taskQueue: string; timing: Omit<ConnectionRefreshInput, 'connectionId'> },
): ConnectionRefreshes {
  return {
    async connected(connection: ConnectedAccount): Promise<void> {
      const input: ConnectionRefreshInput = { connectionId: connection.id, ...opts.timing };
      await client.workflow.signalWithStart<(input: ConnectionRefreshInput) => Promise<void>, SignalArgs['reconnected']>(WORKFLOW_TYPES.connectionRefresh, {
        workflowId: workflowIds.connectionRefresh(connection.id),
        taskQueue: opts.taskQueue,
        args: [input],
        signal: SIGNALS.reconnected,
        signalArgs: [],
      });
    },
    async ensure(connection: ConnectedAccount): Promise<void> {
      const input: ConnectionRefreshInput = { connectionId: connection.id, ...opts.timing };
      await client.workflow.start(WORKFLOW_TYPES.connectionRefresh, {
        workflowId: workflowIds.connectionRefresh(connection.id),
        taskQueue: opts.taskQueue,
        args: [input],
        // A running workflow keeps its own timer: the back-fill neither restarts nor wakes it.
        workflowIdConflictPolicy: WorkflowIdConflictPolicy.USE_EXISTING,
      });
    },
    async disconnected(connectionId: string): Promise<void> {
      try {
        await client.workflow.getHandle(workflowIds.connectionRefresh(connectionId)).signal<SignalArgs['disconnected']>(SIGNALS.disconnected);
      } catch (err) {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
      }
    },
  };
}
