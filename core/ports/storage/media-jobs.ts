import type { MediaJob } from '../../domain/media-job';

/**
 * Media-processing jobs, one document each (`_id` = job id). After creation the job's workflow is
 * its only writer (FerretDB loses concurrent updates of one document): the API reads.
 */
export interface MediaJobRepository {
  /** Throws DuplicateKeyError for a known id. */
  insert(job: MediaJob): Promise<void>;
  /** The job when it belongs to the account. */
  find(accountId: string, id: string): Promise<MediaJob | null>;
  /** The job by id alone (the worker). */
  get(id: string): Promise<MediaJob | null>;
  /** The account's jobs, newest first. */
  list(accountId: string, opts: { limit: number; skip?: number }): Promise<MediaJob[]>;
  update(id: string, patch: Partial<Omit<MediaJob, 'id' | 'accountId'>>): Promise<void>;
}
