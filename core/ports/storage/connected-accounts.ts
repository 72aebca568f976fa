import type { AccountRestriction, ConnectedAccount } from '../../domain/connected-account';
import type { Platform } from '../../domain/platforms';

export interface ConnectedAccountRepository {
  /** Inserts or replaces the one connection of (account, profile, platform). */
  upsert(account: ConnectedAccount): Promise<ConnectedAccount>;
  findById(id: string): Promise<ConnectedAccount | null>;
  find(accountId: string, profileUsername: string, platform: Platform): Promise<ConnectedAccount | null>;
  /** The profile's connections, by platform: at most one per network (bounded by design). */
  listByProfile(accountId: string, profileUsername: string): Promise<ConnectedAccount[]>;
  setStatus(id: string, status: ConnectedAccount['status'], at: Date): Promise<void>;
  /** Pauses (or, with null, resumes) a connection after a network restriction verdict. */
  setRestriction(id: string, restriction: AccountRestriction | null, at: Date): Promise<void>;
  setCheckpointRequired(id: string, required: boolean, at: Date): Promise<void>;
  /** Stores renewed credentials (sealed) after a token refresh, and clears the count of failed refreshes. */
  updateCredentials(id: string, sealedCredentials: string, at: Date): Promise<void>;
  /**
   * Compare-and-set of the lifecycle status: writes `status` (with `reauthReason`/`reauthSince` for
   * reauth_required) only while the stored connection is still the generation `connectedAt` names.
   * False when it is not (reconnected or disconnected meanwhile).
   */
  setStatusIf(id: string, connectedAt: Date, status: ConnectedAccount['status'], at: Date, reauthReason?: string): Promise<boolean>;
  /** Adds one to a failure counter of the generation `connectedAt`; the new count, or null when that generation is gone. */
  countFailure(id: string, connectedAt: Date, counter: 'refreshFailures' | 'authStrikes', at: Date): Promise<number | null>;
  /** Clears both failure counters (a call or refresh worked). */
  clearFailures(id: string, at: Date): Promise<void>;
  /** Deletes the connection while it is still the generation `connectedAt` names; false when it is not. */
  deleteIf(id: string, connectedAt: Date): Promise<boolean>;
  /**
   * One page of every connection of `platform`, for sweeps such as the refresh-ahead back-fill
   * and the analytics snapshots: oldest first (by the hour the connection was first stored, then
   * by id), reading the connections of the page only (docs/storage/lists.md). `next` (absent on
   * the last page) is passed back as `afterId` for the next page; a connection id given as
   * `afterId` (a sweep from before this order) resumes after that connection, or from the start
   * when it is gone. A sweep sees every connection stored before it started once.
   */
  listByPlatform(platform: Platform, page: { afterId?: string; limit: number }): Promise<{ items: ConnectedAccount[]; next?: string }>;
  deleteByProfile(accountId: string, profileUsername: string): Promise<number>;
}
