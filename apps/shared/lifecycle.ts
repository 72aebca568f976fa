import type { Client } from '@temporalio/client';
import { createTemporalAccountPauses } from '../../adapters/temporal/account-pauses';
import { createTemporalConnectionRefreshes } from '../../adapters/temporal/connection-refreshes';
import type { HeraldConfig } from './config';

/**
 * What the connected-account lifecycle needs beyond storage and the outbox, for every daemon that
 * connects, disconnects or calls as an account: its thresholds, the refresh-ahead workflows
 * (started on connect, ended on disconnect) and the account pause workflows (ended by a reconnect).
 */
export function lifecycleWiring(client: Client, config: HeraldConfig) {
  const { lifecycle } = config;
  return {
    lifecycleSettings: lifecycle,
    refreshes: createTemporalConnectionRefreshes(client, {
      taskQueue: config.temporal.taskQueue,
      timing: {
        marginMs: lifecycle.refreshMarginMs, minPeriodMs: lifecycle.refreshMinPeriodMs,
        retryMs: lifecycle.refreshRetryMs, blockedAfterMs: lifecycle.blockedAfterMs,
      },
    }),
    pauses: createTemporalAccountPauses(client, { taskQueue: config.temporal.taskQueue }),
  };
}
