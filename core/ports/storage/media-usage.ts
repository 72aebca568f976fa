import type { MediaUsageEntry } from '../../domain/media-job';
import type { PagePosition } from '../../domain/page-cursor';
import type { ListPage } from './uploads';

/** An account's month of media minutes, as the counters hold it. */
export interface MediaMonthTotals {
  /** Seconds of the entries still reserved (their jobs have not ended). */
  reservedSeconds: number;
  /** Seconds of the settled entries (their jobs ended). */
  settledSeconds: number;
  /** Entries of the month (jobs that counted in it). */
  requests: number;
}

/**
 * The media-minute ledger: one entry per job (`_id` = job id), reserved at submission and settled
 * when the job ends. The month's totals are counted by the writers (the list counters, one
 * counter document per writer process: no document that concurrent jobs update at once) and the
 * month's entries are a bucketed list (docs/storage/lists.md): neither reads every entry.
 */
export interface MediaUsageRepository {
  /** Throws DuplicateKeyError when the job has an entry already. The totals include it once this resolves. */
  reserve(entry: MediaUsageEntry): Promise<void>;
  /** The month's totals (counters: a read of a few counter documents, whatever the month holds). */
  totals(accountId: string, month: string): Promise<MediaMonthTotals>;
  /**
   * One page of the month's entries, newest first (createdAt, then job id, descending): page form
   * (`skip`) or cursor form (`after` = a previous page's `next`); `total` is the month's entry count.
   */
  history(accountId: string, month: string, page: { limit: number; skip?: number; after?: PagePosition }): Promise<ListPage<MediaUsageEntry>>;
  /** The job's final seconds. */
  settle(jobId: string, seconds: number): Promise<void>;
  /** Removes a reservation that did not stand (over quota, job never started). */
  release(jobId: string): Promise<void>;
}
