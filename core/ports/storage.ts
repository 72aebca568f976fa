import type { MediaRef } from '../domain/media';
import type { ApiKey, OperatorAccount } from '../domain/operator';
import type { Profile } from '../domain/profile';
import type { QueueSettings } from '../domain/queue';
import type { AccountRestriction, ConnectedAccount } from '../domain/connected-account';
import type { Platform } from '../domain/platforms';
import type { TargetResult, UploadRequest, UploadStatus } from '../domain/upload';

/**
 * Storage ports. Every method is one atomic single-document operation (or a read), so the
 * adapters work on MongoDB and on FerretDB, which has no transactions. Uniqueness is enforced
 * by the store (unique indexes), reported as `DuplicateKeyError`.
 */
export class DuplicateKeyError extends Error {
  constructor(what: string) {
    super(`${what} already exists`);
    this.name = 'DuplicateKeyError';
  }
}

export interface OperatorAccountRepository {
  /** Throws DuplicateKeyError when the email is taken. */
  insert(account: OperatorAccount): Promise<void>;
  findById(id: string): Promise<OperatorAccount | null>;
  findByEmail(email: string): Promise<OperatorAccount | null>;
  updatePlan(id: string, plan: OperatorAccount['plan']): Promise<void>;
}

export interface ApiKeyRepository {
  insert(key: ApiKey): Promise<void>;
  findByHash(hash: string): Promise<ApiKey | null>;
  listByAccount(accountId: string): Promise<ApiKey[]>;
  /** Returns false when no such unrevoked key exists. */
  revoke(accountId: string, keyId: string, at: Date): Promise<boolean>;
  touch(keyId: string, at: Date): Promise<void>;
}

export interface ProfileRepository {
  /** Throws DuplicateKeyError when the username exists for this account. */
  insert(profile: Profile): Promise<void>;
  find(accountId: string, username: string): Promise<Profile | null>;
  list(accountId: string): Promise<Profile[]>;
  count(accountId: string): Promise<number>;
  /** Returns false when there was nothing to delete. */
  delete(accountId: string, username: string): Promise<boolean>;
  /** Sets (or, with null, removes) one pinned target field of a profile. */
  setPin(accountId: string, username: string, field: string, value: string | null): Promise<void>;
}

export interface ConnectedAccountRepository {
  /** Inserts or replaces the one connection of (account, profile, platform). */
  upsert(account: ConnectedAccount): Promise<ConnectedAccount>;
  findById(id: string): Promise<ConnectedAccount | null>;
  find(accountId: string, profileUsername: string, platform: Platform): Promise<ConnectedAccount | null>;
  listByProfile(accountId: string, profileUsername: string): Promise<ConnectedAccount[]>;
  setStatus(id: string, status: ConnectedAccount['status'], at: Date): Promise<void>;
  /** Pauses (or, with null, resumes) a connection after a network restriction verdict. */
  setRestriction(id: string, restriction: AccountRestriction | null, at: Date): Promise<void>;
  setCheckpointRequired(id: string, required: boolean, at: Date): Promise<void>;
  /** Stores renewed credentials (sealed) after a token refresh. */
  updateCredentials(id: string, sealedCredentials: string, at: Date): Promise<void>;
  deleteByProfile(accountId: string, profileUsername: string): Promise<number>;
}

export interface UploadHistoryQuery {
  accountId: string;
  platform?: Platform;
  status?: UploadStatus;
  profileUsername?: string;
  start?: Date;
  end?: Date;
  requestId?: string;
  jobId?: string;
  externalId?: string;
  /** 1-based page. */
  page: number;
  limit: number;
}

export interface UploadRepository {
  /** Throws DuplicateKeyError when (accountId, requestId) exists. */
  insert(upload: UploadRequest): Promise<void>;
  find(accountId: string, requestId: string): Promise<UploadRequest | null>;
  findByJobId(accountId: string, jobId: string): Promise<UploadRequest | null>;
  /** pending or scheduled → in_progress; returns the status after the call (null: no such upload). */
  markInProgress(accountId: string, requestId: string, at: Date): Promise<UploadStatus | null>;
  /** scheduled → cancelled; false when the upload is not (or no longer) scheduled. */
  cancelScheduled(accountId: string, requestId: string, at: Date): Promise<boolean>;
  /** Replaces the editable parts of a scheduled upload; false when it is not scheduled any more. */
  updateScheduled(accountId: string, requestId: string, patch: Pick<UploadRequest, 'scheduledFor' | 'timezone' | 'content' | 'targets' | 'fields'>, at: Date): Promise<boolean>;
  /** Replaces the post's media (URL media fetched in the background); false when there is no such upload. */
  setMedia(accountId: string, requestId: string, media: MediaRef[], at: Date): Promise<boolean>;
  /** Records that the network is about to be called for one target (attempt number of the activity). */
  recordDispatch(accountId: string, requestId: string, platform: Platform, attempt: number, at: Date): Promise<void>;
  /**
   * Stores one target's result; the first stored result of a target wins. Returns the result the
   * target holds afterwards: this one, or the one stored before it.
   */
  recordResult(accountId: string, requestId: string, result: TargetResult, at: Date): Promise<TargetResult>;
  /**
   * Sends failed platforms of a completed upload again: their results are set aside, the upload
   * goes back to pending and its retry count grows. Returns the new retry count, or null when the
   * upload is not completed.
   */
  resetForRetry(accountId: string, requestId: string, platforms: Platform[], at: Date): Promise<number | null>;
  /** → completed; no-op when already completed. */
  markCompleted(accountId: string, requestId: string, at: Date): Promise<void>;
  history(query: UploadHistoryQuery): Promise<{ items: UploadRequest[]; total: number }>;
  /** Uploads still `pending` that were created before `olderThan` (for the start reconciler). */
  listStalePending(olderThan: Date, limit: number): Promise<UploadRequest[]>;
  /** The newest upload of an operator with this content hash created since `since` (duplicate protection). */
  findByContentHash(accountId: string, contentHash: string, since: Date): Promise<UploadRequest | null>;
  /** Uploads of an operator created since `since`, cancelled ones excluded (monthly plan quota). */
  countSince(accountId: string, since: Date): Promise<number>;
  /**
   * Posts that count against one connected account's caps in [from, to] (daily caps, per-minute
   * bursts): uploads targeting it whose cap time (`scheduledFor`, else `createdAt`) falls in the
   * window, cancelled ones and `excludeRequestId` excluded.
   */
  countForConnection(connectionId: string, from: Date, to: Date, excludeRequestId?: string): Promise<number>;
  /**
   * Moves a scheduled upload that has not started to `to` (a daily cap was reached when it was due)
   * and adds `warning` to it; its queue slot, if any, is given up. False when it is not scheduled any more.
   */
  postponeScheduled(accountId: string, requestId: string, to: Date, warning: string, at: Date): Promise<boolean>;
}

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

export interface QueueRepository {
  getSettings(accountId: string, profileUsername: string): Promise<QueueSettings | null>;
  putSettings(settings: QueueSettings): Promise<void>;
  /**
   * Takes one of the `capacity` places of a slot for an upload; false when the slot is full.
   * Each place is a unique key, so concurrent requests never overfill a slot (no transactions needed).
   */
  reserve(accountId: string, profileUsername: string, slotAt: Date, capacity: number, requestId: string): Promise<boolean>;
  release(accountId: string, profileUsername: string, slotAt: Date, requestId: string): Promise<void>;
  countInSlot(accountId: string, profileUsername: string, slotAt: Date): Promise<number>;
}

export interface Storage {
  operators: OperatorAccountRepository;
  apiKeys: ApiKeyRepository;
  profiles: ProfileRepository;
  connectedAccounts: ConnectedAccountRepository;
  uploads: UploadRepository;
  oauthStates: OAuthStateRepository;
  queues: QueueRepository;
}
