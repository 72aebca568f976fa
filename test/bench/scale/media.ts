import { sumDeltas, type CounterDelta } from '../../../adapters/mongo/list-counters';
import { MEDIA_JOBS_COLLECTION, mediaJobCounterDeltas, toMediaJobDoc } from '../../../adapters/mongo/media-jobs';
import { MEDIA_USAGE_COLLECTION, mediaUsageCounterDeltas, toMediaUsageDoc } from '../../../adapters/mongo/media-usage';
import { quotaMonth, type MediaJob, type MediaUsageEntry } from '../../../core/domain/media-job';
import { CONSUMPTION_HISTORY_LIMIT } from '../../../core/usecases/media-jobs';
import type { MeasuredRequest, ScaleList, SeedContext, SeededAccount } from './plugin';

const NS = '/api/herald';
const BATCH = 500;
const SEED_PARALLEL = Number(process.env.SCALE_SEED_PARALLEL ?? '6');
/** One media job per this many uploads of the account. */
const UPLOADS_PER_JOB = 20;

/**
 * A job as the API and the media worker leave it, with its ledger entry: submitted at a random
 * time over the months (one in four in the current month); almost all FINISHED (settled to what they reserved, output expired once
 * older than a day), some ERROR (settled to part of it), the ones of the last hour still PENDING
 * (reserved).
 */
function makeJob(ctx: SeedContext, account: SeededAccount, i: number, thisMonth: number): { job: MediaJob; entry: MediaUsageEntry } {
  // The first `thisMonth` in the current month (the consumption record's month holds many), the rest over the months.
  const monthStart = Date.UTC(ctx.now.getUTCFullYear(), ctx.now.getUTCMonth(), 1);
  const span = i < thisMonth ? ctx.now.getTime() - monthStart - 120_000 : ctx.months * 30 * 24 * 3600_000;
  const createdAt = new Date(ctx.now.getTime() - Math.floor(ctx.random() * Math.max(0, span)) - 60_000);
  const duration = 5 + Math.floor(ctx.random() * 300);
  const reserved = duration;
  const pending = ctx.now.getTime() - createdAt.getTime() < 3600_000;
  const failed = !pending && ctx.random() < 0.04;
  const settled = pending ? undefined : failed ? Math.floor(reserved / 3) : reserved;
  const finishedAt = pending ? undefined : new Date(createdAt.getTime() + 2000 + duration * 200);
  const id = `mj_seed_${account.role}_${i.toString(36)}_${Math.floor(ctx.random() * 1e9).toString(36)}`;
  const job: MediaJob = {
    id, accountId: account.id, status: pending ? 'PENDING' : failed ? 'ERROR' : 'FINISHED',
    command: { args: ['-i', '{input0}', '-c:v', 'libx264', '-preset', 'veryfast', '{output}'], inputCount: 1 },
    inputs: [{ id: `${i.toString(16).padStart(8, '0')}${'a'.repeat(56)}`, size: 1_000_000 + i, contentType: 'video/mp4', filename: `clip-${i}.mp4` }],
    outputExtension: 'mp4', inputDurationSeconds: duration, reservedSeconds: reserved, month: quotaMonth(createdAt),
    progressPercent: pending ? 0 : 100, processedSeconds: pending ? 0 : duration, createdAt,
    ...(settled !== undefined ? { settledSeconds: settled, startedAt: new Date(createdAt.getTime() + 1000), finishedAt } : {}),
    ...(failed ? { error: 'Conversion failed: invalid data found when processing input' } : {}),
    ...outputOf(pending, failed, i, finishedAt, ctx.now),
  };
  const entry: MediaUsageEntry = {
    jobId: id, accountId: account.id, month: job.month, seconds: settled ?? reserved, settled: settled !== undefined, type: 'ffmpeg_job', createdAt,
  };
  return { job, entry };
}

function outputOf(pending: boolean, failed: boolean, i: number, finishedAt: Date | undefined, now: Date): Partial<MediaJob> {
  if (pending || failed || !finishedAt) return {};
  const expiresAt = new Date(finishedAt.getTime() + 24 * 3600_000);
  return {
    output: { id: `${i.toString(16).padStart(8, '0')}${'b'.repeat(56)}`, size: 900_000 + i, contentType: 'video/mp4' },
    expiresAt, ...(expiresAt.getTime() < now.getTime() ? { expired: true } : {}),
  };
}

/**
 * Media jobs and media minutes (adapters/mongo/media-jobs.ts, media-usage.ts): one job, and its
 * ledger entry, per 20 uploads of the account (and at least 201 in the current month, so that
 * every account's consumption record fills its first two pages), written with the repositories' own document
 * builders and counter deltas.
 *
 * Measured: the job list (page 1, a middle and the last page, the cursor form's page 2), the
 * consumption record (the month's totals from the counters and its newest 100 jobs; page 2 by
 * cursor) and the profile list (a short list by design). A job submission is not measured: it
 * needs real media, ffprobe and a media worker, which the bench stack does not run; its
 * per-request check (the month's totals) is the same counter read the consumption record makes.
 */
export const mediaScale: ScaleList = {
  name: 'media',
  async seed(ctx) {
    let written = 0;
    for (const account of ctx.accounts) {
      const proportionate = Math.max(1, Math.round(ctx.uploadsOf(account) / UPLOADS_PER_JOB));
      // A quarter of them in the current month, and never fewer than two consumption pages' worth
      // (CONSUMPTION_HISTORY_LIMIT), so that the small account's consumption record and its page 2 are as
      // full as the large one's (the small account's quarter, 25, left its page of 100 a quarter full).
      const thisMonth = Math.max(Math.ceil(proportionate / 4), 2 * CONSUMPTION_HISTORY_LIMIT + 1);
      // The other three quarters over the months, as before (the older pages stay where they were).
      const n = thisMonth + proportionate - Math.ceil(proportionate / 4);
      const counts = new Map<string, CounterDelta>();
      // SEED_PARALLEL batches in flight, as the uploads plugin seeds (FerretDB inserts a document at a time).
      let done = 0;
      const starts = Array.from({ length: Math.ceil(n / BATCH) }, (_, k) => k * BATCH);
      await Promise.all(Array.from({ length: SEED_PARALLEL }, async () => {
        for (let start = starts.shift(); start !== undefined; start = starts.shift()) {
          const batch = Array.from({ length: Math.min(BATCH, n - start) }, (_, k) => makeJob(ctx, account, start + k, thisMonth));
          for (const { job, entry } of batch) {
            sumDeltas(counts, mediaJobCounterDeltas(job));
            sumDeltas(counts, mediaUsageCounterDeltas(entry));
          }
          await ctx.write(MEDIA_JOBS_COLLECTION, batch.map(({ job }) => toMediaJobDoc(job)));
          await ctx.write(MEDIA_USAGE_COLLECTION, batch.map(({ entry }) => toMediaUsageDoc(entry)));
          written += batch.length * 2;
          done += batch.length;
          if (Math.floor(done / 5000) !== Math.floor((done - batch.length) / 5000)) ctx.say(`media: ${account.role} ${account.id}: ${done}/${n} jobs`);
        }
      }));
      await ctx.counters.replace([], [...counts.values()]);
    }
    return { written };
  },
  async requests(_account, get) {
    const limit = 20;
    const first = await get(`${NS}/ffmpeg/jobs?limit=${limit}`);
    const pages = Math.max(1, Math.ceil(Number(first.total) / limit));
    const lastFull = Math.max(1, Math.floor(Number(first.total) / limit));
    const consumption = await get(`${NS}/ffmpeg/consumption`);
    const out: MeasuredRequest[] = [
      { name: 'media jobs page 1', path: `${NS}/ffmpeg/jobs?limit=${limit}` },
      { name: 'media jobs middle page', path: `${NS}/ffmpeg/jobs?limit=${limit}&page=${Math.ceil(pages / 2)}` },
      { name: 'media jobs last full page', path: `${NS}/ffmpeg/jobs?limit=${limit}&page=${lastFull}` },
      ...(first.next_cursor ? [{ name: 'media jobs cursor page 2', path: `${NS}/ffmpeg/jobs?limit=${limit}&cursor=${encodeURIComponent(String(first.next_cursor))}` }] : []),
      { name: 'consumption (totals, newest 100)', path: `${NS}/ffmpeg/consumption` },
      ...(consumption.next_cursor ? [{ name: 'consumption cursor page 2', path: `${NS}/ffmpeg/consumption?cursor=${encodeURIComponent(String(consumption.next_cursor))}` }] : []),
      { name: 'profiles list', path: `${NS}/users` },
    ];
    return out;
  },
};
