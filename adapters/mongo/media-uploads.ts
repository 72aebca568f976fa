import type { Collection, Db, Document } from 'mongodb';
import type { MediaUpload } from '../../core/domain/media-upload';
import type { MediaUploadRepository } from '../../core/ports/storage/media-uploads';
import { clean, ensureIndexes, fromIdDoc, mapDuplicate, strip, toIdDoc, type IdDoc } from './collections';
import { expiryDelta, expiryKey, sweepExpired } from './expiry-list';
import { listCountersFor, type ListCounters } from './list-counters';

/** Staged media uploads (`_id` = upload id). */
export const MEDIA_UPLOADS_COLLECTION = 'media_uploads';

/**
 * Staged media uploads, read by `_id` only. Expiry without a scan (docs/storage/lists.md): each
 * upload carries `xk` = `x|media_uploads#<hour of expiresAt>` and is counted in that list when it
 * is inserted; expiresAt never changes, so neither does the key. The cleanup reads the buckets of
 * the hours that have passed, by equality, and returns what it removed (the caller removes the
 * bytes). The used flag does not move the key: a used upload's record goes at its expiry too,
 * its stored bytes stay (the post names them by media id).
 */
const FIELDS = ['accountId', 'filename', 'contentType', 'mediaType', 'contentLength', 'source', 'state', 'createdAt', 'expiresAt', 'sha256', 'sniffedType', 'mediaId', 'completedAt', 'usedBy'] as const satisfies ReadonlyArray<keyof MediaUpload>;
/** Every field: the cleanup hands back whole uploads. */
const WHOLE = Object.fromEntries(FIELDS.map((f) => [f, 1]));

export async function createMongoMediaUploads(db: Db, counters?: ListCounters): Promise<MediaUploadRepository> {
  counters ??= await listCountersFor(db);
  const col = db.collection<IdDoc>(MEDIA_UPLOADS_COLLECTION);
  await ensureIndexes(col, [{ key: { xk: 1 }, name: 'xk' }]);
  const fromDoc = (doc: Document | null): MediaUpload | null => (doc ? fromIdDoc<MediaUpload>({ _id: doc._id, ...strip(doc, 'xk') }) : null);
  return {
    async insert(upload) {
      // Counted before it is stored, uncounted when the insert fails: a count is never too low.
      await counters.add([expiryDelta(MEDIA_UPLOADS_COLLECTION, upload.expiresAt, 'hour', 1)]);
      try {
        await mapDuplicate('media upload', () => col.insertOne({ ...toIdDoc(upload), xk: expiryKey(MEDIA_UPLOADS_COLLECTION, upload.expiresAt, 'hour') }));
      } catch (err) {
        await counters.add([expiryDelta(MEDIA_UPLOADS_COLLECTION, upload.expiresAt, 'hour', -1)]);
        throw err;
      }
    },
    find: async (accountId, id) => fromDoc(await col.findOne({ _id: id, accountId })),
    get: async (id) => fromDoc(await col.findOne({ _id: id })),
    async update(id, patch) {
      const set = clean(patch) as Record<string, unknown>;
      if (Object.keys(set).length) await col.updateOne({ _id: id }, { $set: set });
    },
    async delete(accountId, id) {
      const doc = await col.findOneAndDelete({ _id: id, accountId });
      if (!doc) return false;
      await counters.add([expiryDelta(MEDIA_UPLOADS_COLLECTION, doc.expiresAt as Date, 'hour', -1)]);
      return true;
    },
    async deleteExpired(now) {
      const removed = await sweepExpired({ collection: MEDIA_UPLOADS_COLLECTION, col: col as unknown as Collection<Document>, counters, now, projection: WHOLE });
      return removed.map((d) => fromDoc(d)!);
    },
  };
}
