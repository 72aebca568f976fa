import { conflict, HeraldError, invalidInput, notFound } from '../domain/errors';
import type { CommandTemplate } from '../domain/ffmpeg-command';
import { refusedInputFormat } from '../domain/ffmpeg-check';
import {
  consumptionRecord, fitsQuota, quotaMonth, secondsToReserve, toMediaJobView,
  type MediaJob, type MediaJobInput, type MediaJobPublish,
} from '../domain/media-job';
import type { OperatorAccount } from '../domain/operator';
import { decodePageCursor, encodePageCursor, listFingerprint, type PagePosition } from '../domain/page-cursor';
import type { MediaJobOutputLinks, MediaProcessor } from '../ports/media';
import type { MediaJobRunner } from '../ports/media-job-runner';
import type { MediaJobRepository } from '../ports/storage/media-jobs';
import type { MediaUsageRepository } from '../ports/storage/media-usage';
import type { Clock, IdGenerator } from '../ports/system';

export interface MediaJobDeps {
  mediaJobs: MediaJobRepository;
  mediaUsage: MediaUsageRepository;
  processor: Pick<MediaProcessor, 'probeInput'>;
  runner: MediaJobRunner;
  ids: IdGenerator;
  clock: Clock;
  /** Signs the views' `download_url`; without it a finished job's is null. */
  outputLinks?: MediaJobOutputLinks;
}

export interface MediaJobRequest {
  command: CommandTemplate;
  inputs: MediaJobInput[];
  outputExtension: string;
  publish?: MediaJobPublish;
}

/** Entries of the consumption `history` per page unless `limit` says otherwise, and at most. */
export const CONSUMPTION_HISTORY_LIMIT = 100;
export const CONSUMPTION_HISTORY_MAX_LIMIT = 1000;

const consumptionFingerprint = (month: string) => listFingerprint('media-consumption', { month });

/** The consumption record with one page of the month's history and where the next page starts. */
async function consumptionPage(
  deps: Pick<MediaJobDeps, 'mediaUsage'>, account: OperatorAccount, now: Date, usage: { seconds: number; requests: number },
  page: { limit: number; after?: PagePosition },
) {
  const month = quotaMonth(now);
  const history = await deps.mediaUsage.history(account.id, month, { limit: page.limit, ...(page.after ? { after: page.after } : {}) });
  return {
    ...consumptionRecord(account.plan, usage, history.items, now),
    has_more: history.next !== undefined,
    next_cursor: history.next ? encodePageCursor(history.next, consumptionFingerprint(month)) : null,
  };
}

/**
 * The account's consumption record for the month of the clock. The totals come from the month's
 * counters; `history` is one page of the month's jobs, newest first (`limit`, default 100, at most
 * 1000), the next page by `cursor` = the previous `next_cursor` (issued for that month only).
 */
export async function mediaConsumption(
  deps: Pick<MediaJobDeps, 'mediaUsage' | 'clock'>, account: OperatorAccount, page: { limit?: number; cursor?: string } = {},
) {
  const now = deps.clock.now();
  const month = quotaMonth(now);
  const after = page.cursor !== undefined ? decodePageCursor(page.cursor, consumptionFingerprint(month)) : undefined;
  const limit = Math.min(CONSUMPTION_HISTORY_MAX_LIMIT, Math.max(1, Math.floor(page.limit ?? CONSUMPTION_HISTORY_LIMIT)));
  const totals = await deps.mediaUsage.totals(account.id, month);
  return consumptionPage(deps, account, now, { seconds: totals.reservedSeconds + totals.settledSeconds, requests: totals.requests }, { limit, ...(after ? { after } : {}) });
}

/**
 * Accepts a job: probes the inputs (an input that is a playlist or list of other files is refused),
 * reserves its minutes in the month (429 `media_quota_exceeded` with the consumption record when
 * the plan's minutes would be passed), stores it PENDING and starts its run.
 *
 * The reservation is a ledger entry counted and inserted first, checked after against the month's
 * counters (not by reading the month's entries): two racing submissions may both be refused near
 * the limit, never both accepted past it.
 */
export async function submitMediaJob(deps: MediaJobDeps, account: OperatorAccount, request: MediaJobRequest): Promise<MediaJob> {
  if (request.inputs.length < request.command.inputCount) {
    throw invalidInput(`The command reads ${request.command.inputCount} inputs; the request carries ${request.inputs.length}.`, undefined, 'invalid_request');
  }
  let duration: number | null = null;
  for (const [index, input] of request.inputs.entries()) {
    const probed = await deps.processor.probeInput(input.id);
    const refused = refusedInputFormat(probed.format);
    if (refused) {
      throw invalidInput(`Unsafe media command: input ${index} is a ${refused} file, not a container a media job may read (playlists and lists of files open other files or URLs).`, undefined, 'unsafe_command');
    }
    if (probed.durationSeconds !== null && (duration === null || probed.durationSeconds > duration)) duration = probed.durationSeconds;
  }
  const now = deps.clock.now();
  const month = quotaMonth(now);
  const seconds = secondsToReserve(duration);
  const id = deps.ids.next('mj');
  await deps.mediaUsage.reserve({ jobId: id, accountId: account.id, month, seconds, settled: false, type: 'ffmpeg_job', createdAt: now });
  // The month's counters, this reservation included: a racing reservation counts against both.
  const totals = await deps.mediaUsage.totals(account.id, month);
  const others = totals.reservedSeconds + totals.settledSeconds - seconds;
  if (!fitsQuota(account.plan, others, seconds)) {
    await deps.mediaUsage.release(id);
    const record = await consumptionPage(deps, account, now, { seconds: others, requests: totals.requests - 1 }, { limit: CONSUMPTION_HISTORY_LIMIT });
    throw new HeraldError('too_many_requests',
      `This job needs ${Math.round((seconds / 60) * 100) / 100} media minutes; ${record.consumption.remaining_minutes} of the ${record.consumption.quota_minutes} minutes of the ${account.plan} plan are left this month (reset ${record.quota_info.next_reset}).`,
      'media_quota_exceeded', record);
  }
  const job: MediaJob = {
    id, accountId: account.id, status: 'PENDING', command: request.command, inputs: request.inputs, outputExtension: request.outputExtension,
    inputDurationSeconds: duration, reservedSeconds: seconds, month, progressPercent: 0, processedSeconds: 0, createdAt: now,
    ...(request.publish ? { publish: request.publish } : {}),
  };
  await deps.mediaJobs.insert(job);
  try {
    await deps.runner.start(id);
  } catch (err) {
    await deps.mediaJobs.update(id, { status: 'ERROR', error: 'The job could not be started; nothing was charged.', finishedAt: deps.clock.now(), settledSeconds: 0 });
    await deps.mediaUsage.release(id);
    throw new HeraldError('unavailable', `Media jobs cannot be started right now (${(err as Error).message}); try again later.`, 'media_jobs_unavailable');
  }
  return job;
}

export async function getMediaJob(deps: Pick<MediaJobDeps, 'mediaJobs'>, account: OperatorAccount, id: string): Promise<MediaJob> {
  const job = await deps.mediaJobs.find(account.id, id);
  if (!job) throw notFound(`No media job ${id}.`, 'JOB_NOT_FOUND');
  return job;
}

/** A job as the API answers it, with the signed `download_url` of its output once FINISHED. */
export function mediaJobView(deps: Pick<MediaJobDeps, 'outputLinks'>, job: MediaJob) {
  const links = deps.outputLinks;
  return toMediaJobView(job, links && ((id, notAfter) => links.url(id, notAfter)));
}

/**
 * One page of the account's jobs, newest first: page form (`page`, `limit`) or cursor form
 * (`cursor` = a previous page's `next_cursor`); both read only the jobs of the page.
 */
export async function listMediaJobs(deps: Pick<MediaJobDeps, 'mediaJobs' | 'outputLinks'>, account: OperatorAccount, opts: { limit: number; page: number; cursor?: string }) {
  const fingerprint = listFingerprint('media-jobs', {});
  const after = opts.cursor !== undefined ? decodePageCursor(opts.cursor, fingerprint) : undefined;
  const { items, total, next } = await deps.mediaJobs.list(account.id, { limit: opts.limit, ...(after ? { after } : { skip: (opts.page - 1) * opts.limit }) });
  return {
    jobs: items.map((job) => mediaJobView(deps, job)),
    page: opts.page,
    limit: opts.limit,
    total,
    has_more: next !== undefined,
    next_cursor: next ? encodePageCursor(next, fingerprint) : null,
  };
}

/** Cancels a job that has not ended: its process is killed and the unprocessed time given back. */
export async function cancelMediaJob(deps: Pick<MediaJobDeps, 'mediaJobs' | 'runner'>, account: OperatorAccount, id: string): Promise<MediaJob> {
  const job = await getMediaJob(deps, account, id);
  if (job.status === 'FINISHED' || job.status === 'ERROR') {
    throw conflict(`Media job ${id} has ended (${job.status}); only PENDING and PROCESSING jobs can be cancelled.`, 'job_not_cancellable', { status: job.status });
  }
  await deps.runner.cancel(id);
  return job;
}
