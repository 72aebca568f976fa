import type { AccountRestriction, ConnectedAccount } from '../domain/connected-account';

/**
 * The account pause state machine runs as one long-lived workflow per connected account
 * (`account:<connection id>`) with a movable timer: a restriction verdict starts it or moves its
 * timer; when `until` passes it lifts the pause. Reconnecting lifts it at once.
 */
export interface AccountPauses {
  paused(connection: ConnectedAccount, restriction: AccountRestriction): Promise<void>;
  /** The account was reconnected (or disconnected): its pause workflow ends now (no-op when none runs). */
  ended?(connectionId: string): Promise<void>;
}

export interface AccountPauseInput {
  connectionId: string;
  until: string;
}
