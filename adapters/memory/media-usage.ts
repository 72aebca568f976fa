import type { MediaUsageEntry } from '../../core/domain/media-job';
import { DuplicateKeyError } from '../../core/ports/storage';
import type { MediaUsageRepository } from '../../core/ports/storage/media-usage';
import { newestFirst, pageSorted } from './paging';
import { copy } from './values';

const position = (e: MediaUsageEntry) => ({ t: e.createdAt.getTime(), id: e.jobId });

export function createMemoryMediaUsage(): MediaUsageRepository {
  const entries = new Map<string, MediaUsageEntry>();
  const month = (accountId: string, m: string) => [...entries.values()].filter((e) => e.accountId === accountId && e.month === m);
  return {
    async reserve(entry) {
      if (entries.has(entry.jobId)) throw new DuplicateKeyError('media usage entry');
      entries.set(entry.jobId, copy(entry));
    },
    async totals(accountId, m) {
      const of = month(accountId, m);
      const sum = (settled: boolean) => of.filter((e) => e.settled === settled).reduce((n, e) => n + e.seconds, 0);
      return { reservedSeconds: sum(false), settledSeconds: sum(true), requests: of.length };
    },
    async history(accountId, m, page) {
      const sorted = month(accountId, m).sort((a, b) => newestFirst(position(a), position(b)));
      const out = pageSorted(sorted, position, { limit: page.limit, offset: page.skip ?? 0, ...(page.after ? { after: page.after } : {}) });
      return { ...out, items: out.items.map((e) => copy(e)) };
    },
    async settle(jobId, seconds) {
      const entry = entries.get(jobId);
      if (entry) entries.set(jobId, { ...entry, seconds, settled: true });
    },
    async release(jobId) {
      entries.delete(jobId);
    },
  };
}
