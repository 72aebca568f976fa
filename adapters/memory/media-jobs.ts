import type { MediaJob } from '../../core/domain/media-job';
import { DuplicateKeyError } from '../../core/ports/storage';
import type { MediaJobRepository } from '../../core/ports/storage/media-jobs';
import { newestFirst, pageSorted } from './paging';
import { copy } from './values';

const position = (j: MediaJob) => ({ t: j.createdAt.getTime(), id: j.id });

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
    async list(accountId, page) {
      const sorted = [...jobs.values()].filter((j) => j.accountId === accountId).sort((a, b) => newestFirst(position(a), position(b)));
      const out = pageSorted(sorted, position, { limit: page.limit, offset: page.skip ?? 0, ...(page.after ? { after: page.after } : {}) });
      return { ...out, items: out.items.map((j) => copy(j)) };
    },
    async update(id, patch) {
      const job = jobs.get(id);
      if (job) jobs.set(id, copy({ ...job, ...patch }));
    },
  };
}
