import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { AccountRestriction, ConnectedAccount } from '../../core/domain/connected-account';
import type { AccountPauseInput, AccountPauses } from '../../core/ports/account-pauses';
import { SIGNALS, WORKFLOW_TYPES, workflowIds, type SignalArgs } from '../../core/ports/workflow-names';

/** Starts the account's pause workflow, or moves its timer when it runs (signal-with-start). */
export function createTemporalAccountPauses(client: Client, opts: { taskQueue: string }): AccountPauses {
  return {
    async paused(connection: ConnectedAccount, restriction: AccountRestriction): Promise<void> {
      const input: AccountPauseInput = { connectionId: connection.id, until: restriction.until.toISOString() };
      await client.workflow.signalWithStart<(input: AccountPauseInput) => Promise<void>, SignalArgs['paused']>(WORKFLOW_TYPES.accountPause, {
        workflowId: workflowIds.accountPause(connection.id),
        taskQueue: opts.taskQueue,
        args: [input],
        signal: SIGNALS.paused,
        signalArgs: [input.until],
      });
    },

    async ended(connectionId: string): Promise<void> {
      try {
        await client.workflow.getHandle(workflowIds.accountPause(connectionId)).signal<SignalArgs['pauseEnded']>(SIGNALS.pauseEnded);
      } catch (err) {
        // No pause runs (never paused, or it already ended): nothing to end.
        if (!(err instanceof WorkflowNotFoundError)) throw err;
      }
    },
  };
}
