import type { Platform } from '../../domain/platforms';

/** A pending OAuth authorization: created at start, taken once by the callback. */
export interface OAuthState {
  /** The opaque `state` parameter sent to the network. */
  id: string;
  accountId: string;
  profileUsername: string;
  platform: Platform;
  codeVerifier?: string;
  redirectUri: string;
  /** Where the end user goes after the callback (the integrator's page), if given. */
  returnUrl?: string;
  expiresAt: Date;
}

export interface OAuthStateRepository {
  insert(state: OAuthState): Promise<void>;
  /** Returns and deletes the state in one step: a state works once. Expired states are not returned. */
  take(id: string, now: Date): Promise<OAuthState | null>;
  /** Periodic cleanup (no TTL indexes on FerretDB). Returns how many went. */
  deleteExpired(now: Date): Promise<number>;
}
