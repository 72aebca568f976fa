import type { MediaUpload } from '../../domain/media-upload';

/**
 * Staged media uploads, one document each (`_id` = upload id), read by equality on `_id` only.
 * One writer at a time per upload: the PUT that holds its staging lock, then the completion,
 * then the posts that use it (a flag that only ever goes from unset to set).
 */
export interface MediaUploadRepository {
  /** Throws DuplicateKeyError for a known id. */
  insert(upload: MediaUpload): Promise<void>;
  /** The upload when it belongs to the account (another account's id reads as unknown). */
  find(accountId: string, id: string): Promise<MediaUpload | null>;
  /** The upload by id alone (the signed upload URL names no account). */
  get(id: string): Promise<MediaUpload | null>;
  /** Account, type, length and expiry never change. */
  update(id: string, patch: Partial<Pick<MediaUpload, 'state' | 'sha256' | 'sniffedType' | 'mediaId' | 'completedAt' | 'usedBy'>>): Promise<void>;
  /** True when it was there. */
  delete(accountId: string, id: string): Promise<boolean>;
  /**
   * Removes the uploads whose expiry has passed by `now` (within an hour of it, never before)
   * and returns them, so the caller removes their bytes. Reads what expired, never a range
   * over what is stored (docs/storage/lists.md, "Expiry without a scan").
   */
  deleteExpired(now: Date): Promise<MediaUpload[]>;
}
