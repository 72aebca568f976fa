import type { MediaUsageEntry } from '../../domain/media-job';

/**
 * The media-minute ledger: one entry per job (`_id` = job id), reserved at submission and settled
 * when the job ends. An account's month is the sum of its entries (an equality lookup on account
 * and month): no counter document that concurrent jobs would update at once.
 */
export interface MediaUsageRepository {
  /** Throws DuplicateKeyError when the job has an entry already. */
  reserve(entry: MediaUsageEntry): Promise<void>;
  listMonth(accountId: string, month: string): Promise<MediaUsageEntry[]>;
  /** The job's final seconds. */
  settle(jobId: string, seconds: number): Promise<void>;
  /** Removes a reservation that did not stand (over quota, job never started). */
  release(jobId: string): Promise<void>;
}
