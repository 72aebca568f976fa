import type { MediaJob } from '../../core/domain/media-job';
import { DuplicateKeyError } from '../../core/ports/storage';
import type { MediaJobRepository } from '../../core/ports/storage/media-jobs';
import { copy } from './values';

export function createMemoryMediaJobs(): MediaJobRepository {
  const jobs = new Map<string, MediaJob>();
  return {
    async insert(job) {
      if (jobs.has(job.id)) throw new DuplicateKeyError('media job');
      jobs.set(job.id, copy(job));
    },
    async find(accountId, id) {
      const job = jobs.get(id);
      return job && job.accountId === accountId ? copy(job) : null;
    },
    async get(id) {
      const job = jobs.get(id);
      return job ? copy(job) : null;
    },
    async list(accountId, { limit, skip = 0 }) {
      return [...jobs.values()].filter((j) => j.accountId === accountId)
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime())
        .slice(skip, skip + limit).map((j) => copy(j));
    },
    async update(id, patch) {
      const job = jobs.get(id);
      if (job) jobs.set(id, copy({ ...job, ...patch }));
    },
  };
}
