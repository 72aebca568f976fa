import type { ConnectedAccount, ConnectionStatus } from './connected-account';
import type {
  ConnectionEvent, DisconnectReason, ReauthReason,
} from '../ports/notifications';

/**
 * The connected-account lifecycle (the spec's "Connected account connection" table), in one place:
 * the states, which transitions exist, the thresholds that move an account on their own, and the
 * event each transition emits.
 *
 * | From | Moved by | To | Event (reason) |
 * |---|---|---|---|
 * | any | connect or reconnect (OAuth or credentials) | connected | social_account_connected |
 * | connected, reauth_required | manual disconnect | disconnected | social_account_disconnected (manual_disconnect) |
 * | reauth_required | still not reconnected `blockedAfterMs` later (persistent authentication failure) | disconnected | social_account_disconnected (account_blocked) |
 * | connected | the network refuses the refresh token, or `refreshFailures` refreshes in a row fail | reauth_required | social_account_reauth_required (token_refresh_threshold_exceeded) |
 * | connected | the network refuses freshly renewed credentials `authStrikes` calls in a row | reauth_required | social_account_reauth_required (max_auth_strikes) |
 * | reauth_required | reconnect | connected | social_account_connected (the flag is cleared, a pause ends) |
 *
 * A disconnected account is not stored: disconnecting deletes the connection and its sealed
 * credentials, so "disconnected" is the absence of a connection (profiles show the platform as
 * not connected) and exists only as the event's `status`.
 */

/** Thresholds and timings of the lifecycle. The defaults here; the worker's configuration may override them. */
export interface LifecycleSettings {
  /** Consecutive failed refresh attempts (the network failing, not refusing) before reauth_required (token_refresh_threshold_exceeded). */
  refreshFailures: number;
  /** Consecutive calls refused with freshly renewed credentials before reauth_required (max_auth_strikes). */
  authStrikes: number;
  /** An account left reauth_required this long is disconnected automatically (account_blocked). */
  blockedAfterMs: number;
  /** Refresh-ahead: OAuth tokens are renewed this long before they expire. */
  refreshMarginMs: number;
  /** Refresh-ahead: never renew one account more often than this, whatever the token's lifetime. */
  refreshMinPeriodMs: number;
  /** Refresh-ahead: after a failed refresh attempt, the next one is this much later. */
  refreshRetryMs: number;
}

export const DEFAULT_LIFECYCLE_SETTINGS: LifecycleSettings = {
  refreshFailures: 3,
  // A network refusing credentials it just renewed leaves nothing to try: one strike is the maximum.
  authStrikes: 1,
  blockedAfterMs: 30 * 24 * 3600_000,
  refreshMarginMs: 15 * 60_000,
  refreshMinPeriodMs: 60_000,
  refreshRetryMs: 5 * 60_000,
};

export type LifecycleTransition =
  | { to: 'connected' }
  | { to: 'disconnected'; reason: DisconnectReason }
  | { to: 'reauth_required'; reason: ReauthReason };

/** Whether the table has a transition from `from` to `to` (`from` null: no connection stored). */
export function canTransition(from: ConnectionStatus | null, to: ConnectionStatus): boolean {
  switch (to) {
    case 'connected': return true;
    case 'disconnected': return from === 'connected' || from === 'reauth_required';
    case 'reauth_required': return from === 'connected';
  }
}

/**
 * One connection from one connect to the next: every (re)connect writes a new `connectedAt`, so it
 * names the generation. Each status is entered at most once per generation (leaving
 * reauth_required or disconnected takes a reconnect, which starts a new generation).
 */
export const connectionGeneration = (connection: Pick<ConnectedAccount, 'connectedAt'>): string => String(connection.connectedAt.getTime());

/**
 * The event's delivery key: the transition itself (connection, generation, status). The outbox
 * keeps one event per key, so a retried or concurrent transition is emitted exactly once.
 */
export const transitionDeliveryKey = (connection: Pick<ConnectedAccount, 'id' | 'connectedAt'>, to: ConnectionStatus): string =>
  `connection:${connection.id}:${connectionGeneration(connection)}:${to}`;

/** The spec's connection event payload for a transition of `connection`. */
export function connectionEvent(
  connection: Pick<ConnectedAccount, 'accountId' | 'profileUsername' | 'platform' | 'handle' | 'displayName' | 'platformUserId'>,
  transition: LifecycleTransition, ctx: { userEmail: string; at: Date },
): ConnectionEvent {
  const base = {
    account_id: connection.accountId,
    user_email: ctx.userEmail,
    platform: connection.platform,
    account_name: connection.handle || connection.displayName || connection.platformUserId,
    profile_username: connection.profileUsername,
    created_at: ctx.at.toISOString(),
  };
  switch (transition.to) {
    case 'connected': return { event: 'social_account_connected', status: 'connected', ...base };
    case 'disconnected': return { event: 'social_account_disconnected', status: 'disconnected', reason: transition.reason, ...base };
    case 'reauth_required': return { event: 'social_account_reauth_required', status: 'reauth_required', reason: transition.reason, ...base };
  }
}
