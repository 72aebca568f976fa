import type { MediaUsageEntry } from '../../core/domain/media-job';
import { DuplicateKeyError } from '../../core/ports/storage';
import type { MediaUsageRepository } from '../../core/ports/storage/media-usage';
import { copy } from './values';

export function createMemoryMediaUsage(): MediaUsageRepository {
  const entries = new Map<string, MediaUsageEntry>();
  return {
    async reserve(entry) {
      if (entries.has(entry.jobId)) throw new DuplicateKeyError('media usage entry');
      entries.set(entry.jobId, copy(entry));
    },
    async listMonth(accountId, month) {
      return [...entries.values()].filter((e) => e.accountId === accountId && e.month === month).map((e) => copy(e));
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
