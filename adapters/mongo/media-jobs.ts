import type { Db } from 'mongodb';
import type { MediaJob } from '../../core/domain/media-job';
import type { MediaJobRepository } from '../../core/ports/storage/media-jobs';
import { clean, ensureIndexes, fromIdDoc, mapDuplicate, toIdDoc, type IdDoc } from './collections';

/** Collection of media-processing jobs (`_id` = job id); listed per account, newest first. */
export const MEDIA_JOBS_COLLECTION = 'media_jobs';

export async function createMongoMediaJobs(db: Db): Promise<MediaJobRepository> {
  const jobs = db.collection<IdDoc>(MEDIA_JOBS_COLLECTION);
  await ensureIndexes(jobs, [{ key: { accountId: 1, createdAt: -1 }, name: 'accountId_createdAt' }]);
  return {
    async insert(job) {
      await mapDuplicate('media job', () => jobs.insertOne(toIdDoc(job)));
    },
    async find(accountId, id) {
      return fromIdDoc<MediaJob>(await jobs.findOne({ _id: id, accountId }));
    },
    async get(id) {
      return fromIdDoc<MediaJob>(await jobs.findOne({ _id: id }));
    },
    async list(accountId, { limit, skip = 0 }) {
      const docs = await jobs.find({ accountId }).sort({ createdAt: -1 }).skip(skip).limit(limit).toArray();
      return docs.map((d) => fromIdDoc<MediaJob>(d)!);
    },
    async update(id, patch) {
      const set = clean(patch) as Record<string, unknown>;
      if (Object.keys(set).length) await jobs.updateOne({ _id: id }, { $set: set });
    },
  };
}
