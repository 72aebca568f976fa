import type { MediaJob } from '../../domain/media-job';
import type { PagePosition } from '../../domain/page-cursor';
import type { ListPage } from './uploads';

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
  /**
   * One page of the account's jobs, newest first (createdAt, then id, descending), with the
   * account's job count: page form (`skip`) or cursor form (`after` = a previous page's `next`).
   * Reads the jobs of the page, not every job of the account (docs/storage/lists.md).
   */
  list(accountId: string, page: { limit: number; skip?: number; after?: PagePosition }): Promise<ListPage<MediaJob>>;
  /** The listed fields (account, creation time) never change. */
  update(id: string, patch: Partial<Omit<MediaJob, 'id' | 'accountId' | 'createdAt'>>): Promise<void>;
}
