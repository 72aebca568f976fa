import type { Client } from '@temporalio/client';
import type { AccountRestriction, ConnectedAccount } from '../../core/domain/connected-account';
import {
  ACCOUNT_PAUSE_WORKFLOW_TYPE, accountPauseWorkflowId, PAUSE_SIGNAL, type AccountPauseInput, type AccountPauses,
} from '../../core/ports/account-pauses';

/** Starts the account's pause workflow, or moves its timer when it runs (signal-with-start). */
export function createTemporalAccountPauses(client: Client, opts: { taskQueue: string }): AccountPauses {
  return {
    async paused(connection: ConnectedAccount, restriction: AccountRestriction): Promise<void> {
      const input: AccountPauseInput = { connectionId: connection.id, until: restriction.until.toISOString() };
      await client.workflow.signalWithStart(ACCOUNT_PAUSE_WORKFLOW_TYPE, {
        workflowId: accountPauseWorkflowId(connection.id),
        taskQueue: opts.taskQueue,
        args: [input],
        signal: PAUSE_SIGNAL,
        signalArgs: [input.until],
      });
    },
  };
}
