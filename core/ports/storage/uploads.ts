import type { MediaRef } from '../../domain/media';
import type { PagePosition } from '../../domain/page-cursor';
import type { Platform } from '../../domain/platforms';
import type { PostOperation } from '../../domain/post-operations';
import type { TargetResult, UploadRequest, UploadStatus } from '../../domain/upload';

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
  /** 1-based page (ignored when `after` is given). */
  page: number;
  limit: number;
  /** Cursor form: the page after this position (a previous page's `next`). */
  after?: PagePosition;
}

/**
 * What of an upload decides where its targets' documents are listed (the upload as the caller
 * read it). Passed with a target's writes so that the storage needs no read of its own; without
 * it the storage reads the upload.
 */
export type UploadListing = Pick<UploadRequest, 'profileUsername' | 'createdAt' | 'targets' | 'status'>;

/**
 * One page of a list, its total and where the next page starts. Every list of the storage ports
 * pages this way (docs/storage/lists.md): the adapters read a number of records that depends on
 * the page, not on how many are stored.
 */
export interface ListPage<T> {
  items: T[];
  total: number;
  /** The position after the last item; absent on the last page. */
  next?: PagePosition;
}

export interface UploadRepository {
  /** Throws DuplicateKeyError when (accountId, requestId) exists. */
  insert(upload: UploadRequest): Promise<void>;
  find(accountId: string, requestId: string): Promise<UploadRequest | null>;
  findByJobId(accountId: string, jobId: string): Promise<UploadRequest | null>;
  /** The request id of the upload whose `platform` result holds this post id (equality lookup), or null. */
  findRequestIdByPostId(accountId: string, platform: Platform, postId: string): Promise<string | null>;
  /** pending or scheduled → in_progress; returns the status after the call (null: no such upload). */
  markInProgress(accountId: string, requestId: string, at: Date): Promise<UploadStatus | null>;
  /**
   * markInProgress, also giving the upload as it is after the move (with its targets' results) when
   * this call made the move: the publish that follows needs no read of its own.
   */
  begin(accountId: string, requestId: string, at: Date): Promise<{ status: UploadStatus; upload?: UploadRequest } | null>;
  /** scheduled → cancelled; false when the upload is not (or no longer) scheduled. */
  cancelScheduled(accountId: string, requestId: string, at: Date): Promise<boolean>;
  /** Replaces the editable parts of a scheduled upload; false when it is not scheduled any more. */
  updateScheduled(accountId: string, requestId: string, patch: Pick<UploadRequest, 'scheduledFor' | 'timezone' | 'content' | 'targets' | 'fields'>, at: Date): Promise<boolean>;
  /** Replaces the post's media (URL media fetched in the background); false when there is no such upload. */
  setMedia(accountId: string, requestId: string, media: MediaRef[], at: Date): Promise<boolean>;
  /**
   * Records that the network is about to be called for one target (a dispatch marker). Versions
   * before DispatchClaims wrote it; it is kept so their markers on stored uploads stay readable.
   */
  recordDispatch(accountId: string, requestId: string, platform: Platform, attempt: number, at: Date): Promise<void>;
  /**
   * Stores one target's result; the first stored result of a target wins. Returns the result the
   * target holds afterwards: this one, or the one stored before it.
   */
  recordResult(accountId: string, requestId: string, result: TargetResult, at: Date, listing?: UploadListing): Promise<TargetResult>;
  /**
   * Sends failed platforms of a completed upload again: their results are set aside, the upload
   * goes back to pending and its retry count grows. Returns the new retry count, or null when the
   * upload is not completed.
   */
  resetForRetry(accountId: string, requestId: string, platforms: Platform[], at: Date): Promise<number | null>;
  /** → completed; no-op when already completed. */
  markCompleted(accountId: string, requestId: string, at: Date): Promise<void>;
  /**
   * The upload that published `postId` on `platform` (its result's post id, or the new id an
   * operation gave the post, e.g. an X edit); null when no upload of this operator did.
   */
  findByPostId(accountId: string, platform: Platform, postId: string): Promise<UploadRequest | null>;
  /** Stores one operation on a published post (insert only); reads return it in `operations`. */
  recordPostOperation(operation: PostOperation, listing?: UploadListing): Promise<void>;
  /** Uploads of an operator, newest first (createdAt, then request id), filtered. */
  history(query: UploadHistoryQuery): Promise<ListPage<UploadRequest>>;
  /** Scheduled uploads of an operator that have not started, soonest first (scheduledFor, then request id). */
  listScheduled(accountId: string, page: { limit: number; offset?: number; after?: PagePosition }): Promise<ListPage<UploadRequest>>;
  /** Uploads still `pending` (since creation or a retry) from before `olderThan` (for the start reconciler). */
  listStalePending(olderThan: Date, limit: number): Promise<UploadRequest[]>;
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
