import type { MediaUpload } from '../../core/domain/media-upload';
import { DuplicateKeyError } from '../../core/ports/storage';
import type { MediaUploadRepository } from '../../core/ports/storage/media-uploads';
import { copy } from './values';

/** Staged media uploads by id. Expiry goes by the hour of expiresAt, as the Mongo adapter's buckets do. */
export function createMemoryMediaUploads(): MediaUploadRepository {
  const uploads = new Map<string, MediaUpload>();
  /** The end of the hour expiresAt falls in (expiresAt itself excluded): when the Mongo sweep takes it. */
  const dueAt = (expiresAt: Date) => {
    const hour = new Date(expiresAt.getTime() - 1);
    hour.setUTCMinutes(0, 0, 0);
    return hour.getTime() + 3_600_000;
  };
  return {
    async insert(upload) {
      if (uploads.has(upload.id)) throw new DuplicateKeyError('media upload');
      uploads.set(upload.id, copy(upload));
    },
    async find(accountId, id) {
      const found = uploads.get(id);
      return found && found.accountId === accountId ? copy(found) : null;
    },
    async get(id) {
      const found = uploads.get(id);
      return found ? copy(found) : null;
    },
    async update(id, patch) {
      const found = uploads.get(id);
      if (found) uploads.set(id, copy({ ...found, ...patch }));
    },
    async delete(accountId, id) {
      const found = uploads.get(id);
      if (!found || found.accountId !== accountId) return false;
      return uploads.delete(id);
    },
    async deleteExpired(now) {
      const gone: MediaUpload[] = [];
      for (const [id, u] of uploads) {
        if (dueAt(u.expiresAt) <= now.getTime()) {
          uploads.delete(id);
          gone.push(copy(u));
        }
      }
      return gone;
    },
  };
}
