import type { ConnectedAccount } from '../domain/connected-account';
import {
  connectionEvent, connectionGeneration, DEFAULT_LIFECYCLE_SETTINGS, transitionDeliveryKey,
  type LifecycleSettings, type LifecycleTransition,
} from '../domain/connection-lifecycle';
import type { AccountPauses } from '../ports/account-pauses';
import type { ConnectionRefreshes } from '../ports/connection-refreshes';
import type { DisconnectReason, Notifier, ReauthReason } from '../ports/notifications';
import type { PlatformRegistry } from '../ports/platform';
import type { Storage } from '../ports/storage';
import type { Clock } from '../ports/system';

/**
 * What the lifecycle transitions need. Everything beyond the connection store is optional, so the
 * callers that lack a piece (a unit test, a composition without Temporal) still move the state;
 * the composition roots pass all of it.
 */
export interface LifecycleDeps {
  storage: Pick<Storage, 'connectedAccounts'> & Partial<Pick<Storage, 'operators'>>;
  clock: Clock;
  /** The notification outbox: each transition's event, once (its delivery key is the transition). */
  notifier?: Notifier;
  /** Refresh-ahead workflows: started on connect, ended on disconnect. */
  refreshes?: ConnectionRefreshes;
  /** Account pause workflows: ended by a reconnect or a disconnect. */
  pauses?: AccountPauses;
  /** Which networks renew tokens (those get a refresh-ahead workflow). */
  platforms?: PlatformRegistry;
  /** Thresholds (defaults: core/domain/connection-lifecycle.ts). */
  lifecycleSettings?: Partial<LifecycleSettings>;
}

export const lifecycleSettings = (deps: Pick<LifecycleDeps, 'lifecycleSettings'>): LifecycleSettings =>
  ({ ...DEFAULT_LIFECYCLE_SETTINGS, ...deps.lifecycleSettings });

/** Emits the transition's event (idempotent: the delivery key is the transition itself). */
async function emitTransition(deps: LifecycleDeps, connection: ConnectedAccount, transition: LifecycleTransition): Promise<void> {
  if (!deps.notifier) return;
  const operator = deps.storage.operators ? await deps.storage.operators.findById(connection.accountId) : null;
  const event = connectionEvent(connection, transition, { userEmail: operator?.email ?? '', at: deps.clock.now() });
  await deps.notifier.emit(event, transitionDeliveryKey(connection, transition.to));
}

/** Side effects on workflows are best-effort: the stored state and the event are what count. */
async function quietly(op: (() => Promise<void>) | undefined): Promise<void> {
  if (!op) return;
  try {
    await op();
  } catch {
    // Temporal unreachable: the workflow keeps its old state and corrects itself at its next wake-up.
  }
}

/**
 * any → connected: the account was connected or reconnected (OAuth or credentials) and `connection`
 * is what is stored now. Emits social_account_connected, starts (or wakes) the refresh-ahead of an
 * OAuth account, and ends a pause the previous generation had.
 */
export async function connectionEstablished(deps: LifecycleDeps, connection: ConnectedAccount, previous: ConnectedAccount | null): Promise<void> {
  await emitTransition(deps, connection, { to: 'connected' });
  if (deps.refreshes && deps.platforms?.get(connection.platform)?.refresher) {
    await quietly(() => deps.refreshes!.connected(connection));
  }
  if (previous?.restriction && deps.pauses?.ended) await quietly(() => deps.pauses!.ended!(connection.id));
}

/**
 * connected → reauth_required, for the generation `connection` was loaded as. Retried (or raced)
 * it emits the same event once: a connection already reauth_required in that generation re-emits
 * under the same delivery key, which the outbox ignores. False when that generation is gone.
 */
export async function markReauthRequired(deps: LifecycleDeps, connection: ConnectedAccount, reason: ReauthReason): Promise<boolean> {
  const current = await deps.storage.connectedAccounts.findById(connection.id);
  if (!current || connectionGeneration(current) !== connectionGeneration(connection)) return false;
  let transitioned: ConnectedAccount = current;
  if (current.status === 'connected') {
    const now = deps.clock.now();
    if (!(await deps.storage.connectedAccounts.setStatusIf(current.id, current.connectedAt, 'reauth_required', now, reason))) return false;
    transitioned = { ...current, status: 'reauth_required', reauthReason: reason, reauthSince: now };
  } else if (current.status !== 'reauth_required') {
    return false;
  }
  await emitTransition(deps, transitioned, { to: 'reauth_required', reason: (transitioned.reauthReason as ReauthReason | undefined) ?? reason });
  return true;
}

/**
 * A refresh attempt failed. `refused` (the network turned the refresh token down: expired or
 * revoked) reaches the threshold at once; any other failure counts, and the `refreshFailures`-th
 * in a row does. Either way the account becomes reauth_required (token_refresh_threshold_exceeded).
 * Answers the count and whether the account is now reauth_required.
 */
export async function recordRefreshFailure(
  deps: LifecycleDeps, connection: ConnectedAccount, refused: boolean,
): Promise<{ failures: number; reauthRequired: boolean }> {
  const threshold = lifecycleSettings(deps).refreshFailures;
  const failures = refused ? threshold
    : await deps.storage.connectedAccounts.countFailure(connection.id, connection.connectedAt, 'refreshFailures', deps.clock.now());
  if (failures === null) return { failures: 0, reauthRequired: false };
  if (failures < threshold) return { failures, reauthRequired: false };
  return { failures, reauthRequired: await markReauthRequired(deps, connection, 'token_refresh_threshold_exceeded') };
}

/**
 * The network refused a call made with credentials it just renewed (or, without a refresher, the
 * only credentials there are). The `authStrikes`-th strike in a row makes the account
 * reauth_required (max_auth_strikes).
 */
export async function recordAuthStrike(deps: LifecycleDeps, connection: ConnectedAccount): Promise<boolean> {
  const strikes = await deps.storage.connectedAccounts.countFailure(connection.id, connection.connectedAt, 'authStrikes', deps.clock.now());
  if (strikes === null || strikes < lifecycleSettings(deps).authStrikes) return false;
  return markReauthRequired(deps, connection, 'max_auth_strikes');
}

/**
 * connected or reauth_required → disconnected, for the generation `connection` was loaded as: the
 * event first (keyed by the transition), then the connection and its credentials are deleted, then
 * its workflows end. A retry after a crash anywhere in between finds the connection still stored
 * and does the rest, emitting nothing twice. False when that generation is already gone.
 */
export async function disconnectConnection(deps: LifecycleDeps, connection: ConnectedAccount, reason: DisconnectReason): Promise<boolean> {
  const current = await deps.storage.connectedAccounts.findById(connection.id);
  if (!current || connectionGeneration(current) !== connectionGeneration(connection)) return false;
  await emitTransition(deps, current, { to: 'disconnected', reason });
  const deleted = await deps.storage.connectedAccounts.deleteIf(current.id, current.connectedAt);
  await quietly(deps.refreshes ? () => deps.refreshes!.disconnected(current.id) : undefined);
  await quietly(deps.pauses?.ended ? () => deps.pauses!.ended!(current.id) : undefined);
  return deleted;
}

/**
 * reauth_required → disconnected (account_blocked): the refresh-ahead workflow calls this once the
 * account stayed reauth_required `blockedAfterMs` in the generation it watched. A reconnect in the
 * meantime (new generation) or a manual disconnect makes it a no-op.
 */
export async function disconnectIfStillReauth(deps: LifecycleDeps, input: { connectionId: string; generation: string }): Promise<boolean> {
  const current = await deps.storage.connectedAccounts.findById(input.connectionId);
  if (!current || connectionGeneration(current) !== input.generation || current.status !== 'reauth_required') return false;
  return disconnectConnection(deps, current, 'account_blocked');
}
