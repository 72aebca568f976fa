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

    it('lists an account\'s jobs newest first, paged, with the account\'s total', async () => {
      for (let i = 0; i < 5; i += 1) await jobs.insert(aMediaJob({ id: `mj_${i}`, createdAt: at(i) }));
      await jobs.insert(aMediaJob({ id: 'other', accountId: 'acct-2', createdAt: at(10) }));
      const first = await jobs.list('acct-1', { limit: 3 });
      expect(first.items.map((j) => j.id)).toEqual(['mj_4', 'mj_3', 'mj_2']);
      expect(first.total).toBe(5);
      expect(first.next).toMatchObject({ id: 'mj_2', t: at(2).getTime(), hour: '2026-01-01T00' });
      const last = await jobs.list('acct-1', { limit: 3, skip: 3 });
      expect(last.items.map((j) => j.id)).toEqual(['mj_1', 'mj_0']);
      expect(last).not.toHaveProperty('next');
      expect((await jobs.list('acct-1', { limit: 3, skip: 9 })).items).toEqual([]);
      expect((await jobs.list('acct-2', { limit: 10 })).items.map((j) => j.id)).toEqual(['other']);
      expect(await jobs.list('acct-3', { limit: 10 })).toEqual({ items: [], total: 0 });
      // A listed job comes back whole.
      expect(first.items[0]).toEqual(aMediaJob({ id: 'mj_4', createdAt: at(4) }));
    });

    it('walks every job once, newest first, across hours and months, by cursor and by page', async () => {
      // Hours apart, several in one hour, ties of createdAt (ordered by id), across a month's end.
      const times = [0, 1, 1, 1, 3600, 3601, 7200 * 5, 86400 * 31, 86400 * 31, 86400 * 31 + 59, 86400 * 40];
      const made = times.map((t, i) => aMediaJob({ id: `mj_${String(i).padStart(2, '0')}`, createdAt: at(t) }));
      for (const job of [...made].reverse()) await jobs.insert(job);
      await jobs.insert(aMediaJob({ id: 'foreign', accountId: 'acct-2', createdAt: at(1) }));
      const expected = [...made].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1)).map((j) => j.id);

      for (const limit of [1, 2, 4, 20]) {
        const walked: string[] = [];
        let page = await jobs.list('acct-1', { limit });
        for (;;) {
          expect(page.total).toBe(made.length);
          walked.push(...page.items.map((j) => j.id));
          if (!page.next) break;
          page = await jobs.list('acct-1', { limit, after: page.next });
        }
        expect(walked).toEqual(expected);
        const paged: string[] = [];
        for (let skip = 0; skip < made.length; skip += limit) paged.push(...(await jobs.list('acct-1', { limit, skip })).items.map((j) => j.id));
        expect(paged).toEqual(expected);
      }
    });

    it('a cursor walk is not shifted by jobs submitted meanwhile', async () => {
      for (let i = 0; i < 6; i += 1) await jobs.insert(aMediaJob({ id: `mj_${i}`, createdAt: at(i * 1800) }));
      const first = await jobs.list('acct-1', { limit: 3 });
      expect(first.items.map((j) => j.id)).toEqual(['mj_5', 'mj_4', 'mj_3']);
      await jobs.insert(aMediaJob({ id: 'mj_new', createdAt: at(99_999) }));
      const second = await jobs.list('acct-1', { limit: 3, after: first.next! });
      expect(second.items.map((j) => j.id)).toEqual(['mj_2', 'mj_1', 'mj_0']);
      expect(second.total).toBe(7);
      expect(second).not.toHaveProperty('next');
    });

    it('a job whose insert failed is not counted', async () => {
      await jobs.insert(aMediaJob());
      await expect(jobs.insert(aMediaJob({ createdAt: at(7200) }))).rejects.toBeInstanceOf(DuplicateKeyError);
      expect(await jobs.list('acct-1', { limit: 10 })).toMatchObject({ total: 1, items: [{ id: 'mj_1' }] });
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

    const walk = async (accountId: string, month: string, limit: number) => {
      const ids: string[] = [];
      let page = await usage.history(accountId, month, { limit });
      for (;;) {
        ids.push(...page.items.map((e) => e.jobId));
        if (!page.next) return { ids, total: page.total };
        page = await usage.history(accountId, month, { limit, after: page.next });
      }
    };

    it('keeps one entry per job; the month\'s totals count the reserved and settled seconds and the entries', async () => {
      await usage.reserve(anEntry());
      await usage.reserve(anEntry({ jobId: 'mj_2', seconds: 30, createdAt: at(7200) }));
      await usage.reserve(anEntry({ jobId: 'mj_3', month: '2026-02', createdAt: at(86400 * 31) }));
      await usage.reserve(anEntry({ jobId: 'mj_4', accountId: 'acct-2' }));
      await expect(usage.reserve(anEntry({ seconds: 999 }))).rejects.toBeInstanceOf(DuplicateKeyError);
      expect(await usage.totals('acct-1', '2026-01')).toEqual({ reservedSeconds: 90, settledSeconds: 0, requests: 2 });
      expect(await usage.totals('acct-1', '2026-02')).toEqual({ reservedSeconds: 60, settledSeconds: 0, requests: 1 });
      expect(await usage.totals('acct-2', '2026-01')).toEqual({ reservedSeconds: 60, settledSeconds: 0, requests: 1 });
      expect(await usage.totals('acct-1', '2026-03')).toEqual({ reservedSeconds: 0, settledSeconds: 0, requests: 0 });
      const jan = await usage.history('acct-1', '2026-01', { limit: 10 });
      expect(jan).toEqual({ items: [anEntry({ jobId: 'mj_2', seconds: 30, createdAt: at(7200) }), anEntry()], total: 2 });
      expect(await usage.history('acct-1', '2026-03', { limit: 10 })).toEqual({ items: [], total: 0 });
    });

    it('settles an entry to its final seconds, and releases one that did not stand: the totals follow', async () => {
      await usage.reserve(anEntry());
      await usage.reserve(anEntry({ jobId: 'mj_2' }));
      await usage.reserve(anEntry({ jobId: 'mj_3', seconds: 45 }));
      await usage.settle('mj_1', 12);
      await usage.release('mj_2');
      await usage.release('mj_unknown');
      await usage.settle('mj_unknown', 5);
      expect(await usage.totals('acct-1', '2026-01')).toEqual({ reservedSeconds: 45, settledSeconds: 12, requests: 2 });
      await usage.settle('mj_3', 45);
      expect(await usage.totals('acct-1', '2026-01')).toEqual({ reservedSeconds: 0, settledSeconds: 57, requests: 2 });
      const entries = (await usage.history('acct-1', '2026-01', { limit: 10 })).items.sort((a, b) => a.jobId.localeCompare(b.jobId));
      expect(entries).toEqual([anEntry({ seconds: 12, settled: true }), anEntry({ jobId: 'mj_3', seconds: 45, settled: true })]);
    });

    it('pages the month\'s entries newest first across hours, by cursor and by page, every entry once', async () => {
      const times = [0, 0, 5, 3600, 3600 * 5, 3600 * 5 + 1, 86400 * 3, 86400 * 30 + 3599];
      const made = times.map((t, i) => anEntry({ jobId: `mj_${i}`, seconds: i + 1, createdAt: at(t) }));
      for (const e of made) await usage.reserve(e);
      await usage.reserve(anEntry({ jobId: 'feb', month: '2026-02', createdAt: at(86400 * 31) }));
      const expected = [...made].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.jobId < b.jobId ? 1 : -1)).map((e) => e.jobId);
      for (const limit of [1, 3, 100]) {
        expect(await walk('acct-1', '2026-01', limit)).toEqual({ ids: expected, total: made.length });
        const paged: string[] = [];
        for (let skip = 0; skip < made.length; skip += limit) paged.push(...(await usage.history('acct-1', '2026-01', { limit, skip })).items.map((e) => e.jobId));
        expect(paged).toEqual(expected);
      }
      expect(await usage.totals('acct-1', '2026-01')).toEqual({ reservedSeconds: made.reduce((n, e) => n + e.seconds, 0), settledSeconds: 0, requests: made.length });
      expect(await walk('acct-1', '2026-02', 5)).toEqual({ ids: ['feb'], total: 1 });
    });
  });
}
