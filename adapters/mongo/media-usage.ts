import type { Db } from 'mongodb';
import type { MediaUsageEntry } from '../../core/domain/media-job';
import type { MediaUsageRepository } from '../../core/ports/storage/media-usage';
import { ensureIndexes, mapDuplicate, strip, type IdDoc } from './collections';

/** The media-minute ledger (`_id` = job id), summed per account and month by equality lookup. */
export const MEDIA_USAGE_COLLECTION = 'media_usage';

export async function createMongoMediaUsage(db: Db): Promise<MediaUsageRepository> {
  const entries = db.collection<IdDoc>(MEDIA_USAGE_COLLECTION);
  await ensureIndexes(entries, [{ key: { accountId: 1, month: 1 }, name: 'accountId_month' }]);
  return {
    async reserve(entry) {
      await mapDuplicate('media usage entry', () => entries.insertOne({ ...entry, _id: entry.jobId }));
    },
    async listMonth(accountId, month) {
      const docs = await entries.find({ accountId, month }).toArray();
      return docs.map((d) => ({ ...strip(d), jobId: d._id }) as unknown as MediaUsageEntry);
    },
    async settle(jobId, seconds) {
      await entries.updateOne({ _id: jobId }, { $set: { seconds, settled: true } });
    },
    async release(jobId) {
      await entries.deleteOne({ _id: jobId });
    },
  };
}
