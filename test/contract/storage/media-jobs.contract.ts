import type { MediaJob, MediaUsageEntry } from '../../../core/domain/media-job';
import { DuplicateKeyError } from '../../../core/ports/storage';
import type { MediaJobRepository } from '../../../core/ports/storage/media-jobs';
import type { MediaUsageRepository } from '../../../core/ports/storage/media-usage';
import { freshForEachTest, type MakeRepository } from './repository-under-test';

const at = (s: number) => new Date(Date.UTC(2026, 0, 1) + s * 1000);

export function aMediaJob(overrides: Partial<MediaJob> = {}): MediaJob {
  return {
    id: 'mj_1', accountId: 'acct-1', status: 'PENDING',
    command: { args: ['-i', '{input0}', '-c', 'copy', '{output}'], inputCount: 1 },
    inputs: [{ id: 'a'.repeat(64), size: 10, contentType: 'video/mp4', filename: 'clip.mp4' }],
    outputExtension: 'mp4', inputDurationSeconds: 3.2, reservedSeconds: 4, month: '2026-01', progressPercent: 0, processedSeconds: 0,
    createdAt: at(0),
    ...overrides,
  };
}

/** The behaviour every MediaJobRepository adapter must show. */
export function mediaJobsContract(name: string, make: MakeRepository<MediaJobRepository>): void {
  describe(`Storage contract: ${name} media jobs`, () => {
    let jobs: MediaJobRepository;
    freshForEachTest(make, (repository) => { jobs = repository; });

    it('stores a job and reads it back whole, only for its account', async () => {
      const job = aMediaJob({ publish: { user: 'alice', 'platform[]': ['x'] } });
      await jobs.insert(job);
      expect(await jobs.find('acct-1', 'mj_1')).toEqual(job);
      expect(await jobs.get('mj_1')).toEqual(job);
      expect(await jobs.find('acct-2', 'mj_1')).toBeNull();
      expect(await jobs.get('mj_2')).toBeNull();
      await expect(jobs.insert(job)).rejects.toBeInstanceOf(DuplicateKeyError);
    });

    it('updates fields, leaving the others', async () => {
      await jobs.insert(aMediaJob());
      await jobs.update('mj_1', { status: 'PROCESSING', progressPercent: 40, startedAt: at(5) });
      await jobs.update('mj_1', { status: 'FINISHED', output: { id: 'b'.repeat(64), size: 99, contentType: 'video/mp4' }, finishedAt: at(9) });
      expect(await jobs.get('mj_1')).toEqual({
        ...aMediaJob(), status: 'FINISHED', progressPercent: 40, startedAt: at(5), finishedAt: at(9), output: { id: 'b'.repeat(64), size: 99, contentType: 'video/mp4' },
      });
    });

    it('lists an account\'s jobs newest first, paged', async () => {
      for (let i = 0; i < 5; i += 1) await jobs.insert(aMediaJob({ id: `mj_${i}`, createdAt: at(i) }));
      await jobs.insert(aMediaJob({ id: 'other', accountId: 'acct-2', createdAt: at(10) }));
      expect((await jobs.list('acct-1', { limit: 3 })).map((j) => j.id)).toEqual(['mj_4', 'mj_3', 'mj_2']);
      expect((await jobs.list('acct-1', { limit: 3, skip: 3 })).map((j) => j.id)).toEqual(['mj_1', 'mj_0']);
      expect((await jobs.list('acct-2', { limit: 10 })).map((j) => j.id)).toEqual(['other']);
    });
  });
}

const anEntry = (overrides: Partial<MediaUsageEntry> = {}): MediaUsageEntry => ({
  jobId: 'mj_1', accountId: 'acct-1', month: '2026-01', seconds: 60, settled: false, type: 'ffmpeg_job', createdAt: at(0), ...overrides,
});

/** The behaviour every MediaUsageRepository adapter must show. */
export function mediaUsageContract(name: string, make: MakeRepository<MediaUsageRepository>): void {
  describe(`Storage contract: ${name} media usage`, () => {
    let usage: MediaUsageRepository;
    freshForEachTest(make, (repository) => { usage = repository; });

    it('keeps one entry per job, listed per account and month', async () => {
      await usage.reserve(anEntry());
      await usage.reserve(anEntry({ jobId: 'mj_2', seconds: 30 }));
      await usage.reserve(anEntry({ jobId: 'mj_3', month: '2026-02' }));
      await usage.reserve(anEntry({ jobId: 'mj_4', accountId: 'acct-2' }));
      await expect(usage.reserve(anEntry())).rejects.toBeInstanceOf(DuplicateKeyError);
      const jan = await usage.listMonth('acct-1', '2026-01');
      expect(jan.sort((a, b) => a.jobId.localeCompare(b.jobId))).toEqual([anEntry(), anEntry({ jobId: 'mj_2', seconds: 30 })]);
      expect(await usage.listMonth('acct-1', '2026-03')).toEqual([]);
    });

    it('settles an entry to its final seconds, and releases one that did not stand', async () => {
      await usage.reserve(anEntry());
      await usage.reserve(anEntry({ jobId: 'mj_2' }));
      await usage.settle('mj_1', 12);
      await usage.release('mj_2');
      expect(await usage.listMonth('acct-1', '2026-01')).toEqual([anEntry({ seconds: 12, settled: true })]);
    });
  });
}
