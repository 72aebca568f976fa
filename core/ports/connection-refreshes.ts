import type { ConnectedAccount } from '../domain/connected-account';

/**
 * Refresh-ahead: one long-lived workflow per connected OAuth account
 * (`refresh:<connection id>`, core/ports/workflow-names.ts) renews its token ahead of expiry,
 * whether or not the account posts, and disconnects it (account_blocked) when it stays
 * reauth_required too long. Started (or woken, on a reconnect) by connecting, ended by disconnecting.
 */
export interface ConnectionRefreshes {
  /** The account was connected or reconnected: start its workflow, or wake the running one. */
  connected(connection: ConnectedAccount): Promise<void>;
  /** Start the account's workflow unless one runs (the back-fill of accounts connected before refresh-ahead existed). */
  ensure(connection: ConnectedAccount): Promise<void>;
  /** The account was disconnected: end its workflow (no-op when none runs). */
  disconnected(connectionId: string): Promise<void>;
}

/** The refresh-ahead workflow's input: durations are inputs (configuration), never constants in the workflow. */
export interface ConnectionRefreshInput {
  connectionId: string;
  marginMs: number;
  minPeriodMs: number;
  retryMs: number;
  blockedAfterMs: number;
  /** Rounds per run before the history is handed to a fresh run (default 200; tests use a few). */
  roundsPerRun?: number;
}

/** What one refresh-ahead round found, and so when the workflow wakes next. */
export type RefreshAheadOutcome =
  /** Connected and fresh (renewed now, or not due yet): wake at `nextAt` (ISO). */
  | { kind: 'next'; nextAt: string }
  /** The refresh attempt failed without being refused: counted; try again after the retry delay. */
  | { kind: 'failed'; failures: number }
  /** The account needs a reconnect: wait for one until `since` + blockedAfterMs, then disconnect (account_blocked). */
  | { kind: 'reauth_required'; since: string; generation: string }
  /** Nothing to keep alive: no connection, or one whose credentials do not expire (no refresher, no expiry). */
  | { kind: 'done'; reason: 'gone' | 'no_expiry' };
