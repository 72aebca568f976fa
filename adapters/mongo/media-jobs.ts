import type { Db, Document } from 'mongodb';
import type { MediaJob } from '../../core/domain/media-job';
import type { MediaJobRepository } from '../../core/ports/storage/media-jobs';
import { bucketPage, bucketsOf, slotBucket, slotLane, slotOf } from './bucket-list';
import { clean, ensureIndexes, fromIdDoc, mapDuplicate, strip, toIdDoc, type IdDoc } from './collections';
import { listCountersFor, type CounterDelta, type ListCounters } from './list-counters';

/** Collection of media-processing jobs (`_id` = job id); listed per account, newest first. */
export const MEDIA_JOBS_COLLECTION = 'media_jobs';

/**
 * The job list of an account (docs/storage/lists.md): list id `mj|<account>`, sorted by
 * createdAt, one lane (`all`). A job carries its bucket keys `jk` = `mj|<account>#<bucket>` for
 * the month, day, hour and ten-minute slot of its creation (bucket-list.ts reads whichever a page
 * needs), and is counted in its hour (lane `all`) and its slot (`slotLane('all', slot)`): a burst
 * of jobs in one hour is read by the slots a page needs. Neither the account nor the creation
 * time of a job changes, so the keys are written once.
 */
export const mediaJobList = (accountId: string): string => `mj|${encodeURIComponent(accountId)}`;
const JOB_STORAGE_ONLY = ['jk'];

type Listed = Pick<MediaJob, 'accountId' | 'createdAt'>;

/** The list keys of a stored job document. */
export const mediaJobListKeys = (job: Listed): { jk: string[] } => ({ jk: [...bucketsOf(job.createdAt), slotBucket(job.createdAt)].map((b) => `${mediaJobList(job.accountId)}#${b}`) });

/** The stored document of a new job (the repository's insert, the scale bench's seeding). */
export const toMediaJobDoc = (job: MediaJob): IdDoc => ({ ...toIdDoc(job), ...mediaJobListKeys(job) });

/** The counter deltas of a job entering (+1) or leaving (-1) the account's list (its hour and its slot); a stored document will do (one that has, or is given, its keys). */
export const mediaJobCounterDeltas = (job: Listed | Document, by = 1): CounterDelta[] => {
  const list = mediaJobList(String(job.accountId));
  const at = job.createdAt as Date;
  return [{ list, lane: 'all', at, by }, { list, lane: slotLane('all', slotOf(at)), at, by }];
};

/** Migration: the list keys a job document written before them lacks (null when it has them). */
export function backfillMediaJob(doc: Document): { $set: Document } | null {
  if (typeof doc.accountId !== 'string' || !(doc.createdAt instanceof Date)) return null;
  const keys = mediaJobListKeys({ accountId: doc.accountId, createdAt: doc.createdAt });
  return sameKeys(doc.jk, keys.jk) ? null : { $set: keys };
}

const sameKeys = (a: unknown, b: string[]) => Array.isArray(a) && a.length === b.length && a.every((k, i) => k === b[i]);

const fromJobDoc = (doc: Document | null): MediaJob | null => (doc ? fromIdDoc<MediaJob>({ _id: doc._id, ...strip(doc, ...JOB_STORAGE_ONLY) }) : null);

/**
 * Media jobs. The list reads the account's list counters and the hour buckets a page falls in
 * (equality reads of `jk`), never every job of the account.
 */
export async function createMongoMediaJobs(db: Db, counters?: ListCounters): Promise<MediaJobRepository> {
  counters ??= await listCountersFor(db);
  const jobs = db.collection<IdDoc>(MEDIA_JOBS_COLLECTION);
  await ensureIndexes(jobs, [{ key: { jk: 1 }, name: 'jk' }]);
  return {
    async insert(job) {
      // Counted before it is stored, uncounted when the insert fails: a count is never too low.
      const deltas = mediaJobCounterDeltas(job);
      await counters.add(deltas);
      try {
        await mapDuplicate('media job', () => jobs.insertOne(toMediaJobDoc(job)));
      } catch (err) {
        await counters.add(mediaJobCounterDeltas(job, -1));
        throw err;
      }
    },
    async find(accountId, id) {
      return fromJobDoc(await jobs.findOne({ _id: id, accountId }));
    },
    async get(id) {
      return fromJobDoc(await jobs.findOne({ _id: id }));
    },
    async list(accountId, page) {
      const list = mediaJobList(accountId);
      const limit = Math.max(0, Math.floor(page.limit));
      const found = await bucketPage({
        counts: await counters.hours(list), lane: 'all', limit,
        ...(page.after ? { after: page.after } : { offset: page.skip ?? 0 }),
        slotted: true,
        read: (bucket) => jobs.find({ jk: `${list}#${bucket}` }).toArray(),
        position: (d: Document) => ({ t: (d.createdAt as Date).getTime(), id: d._id as string }),
      });
      return { items: found.items.map((d) => fromJobDoc(d)!), total: found.total, ...(found.next ? { next: found.next } : {}) };
    },
    async update(id, patch) {
      const set = clean(patch) as Record<string, unknown>;
      if (Object.keys(set).length) await jobs.updateOne({ _id: id }, { $set: set });
    },
  };
}
