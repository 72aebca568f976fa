import { conflict, HeraldError, invalidInput, notFound } from '../domain/errors';
import type { CommandTemplate } from '../domain/ffmpeg-command';
import { refusedInputFormat } from '../domain/ffmpeg-check';
import {
  consumptionRecord, fitsQuota, quotaMonth, secondsToReserve, toMediaJobView,
  type MediaJob, type MediaJobInput, type MediaJobPublish,
} from '../domain/media-job';
import type { OperatorAccount } from '../domain/operator';
import type { MediaProcessor } from '../ports/media';
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
}

export interface MediaJobRequest {
  command: CommandTemplate;
  inputs: MediaJobInput[];
  outputExtension: string;
  publish?: MediaJobPublish;
}

/** The account's consumption record for the month of the clock. */
export async function mediaConsumption(deps: Pick<MediaJobDeps, 'mediaUsage' | 'clock'>, account: OperatorAccount) {
  const now = deps.clock.now();
  return consumptionRecord(account.plan, await deps.mediaUsage.listMonth(account.id, quotaMonth(now)), now);
}

/**
 * Accepts a job: probes the inputs (an input that is a playlist or list of other files is refused),
 * reserves its minutes in the month (429 `media_quota_exceeded` with the consumption record when
 * the plan's minutes would be passed), stores it PENDING and starts its run.
 *
 * The reservation is a ledger entry inserted first and checked after: two racing submissions may
 * both be refused near the limit, never both accepted past it.
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
  const entries = await deps.mediaUsage.listMonth(account.id, month);
  // Every entry of the month, this one included: a racing reservation counts against both.
  const others = entries.filter((e) => e.jobId !== id).reduce((sum, e) => sum + e.seconds, 0);
  if (!fitsQuota(account.plan, others, seconds)) {
    await deps.mediaUsage.release(id);
    const record = consumptionRecord(account.plan, entries.filter((e) => e.jobId !== id), now);
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

export async function listMediaJobs(deps: Pick<MediaJobDeps, 'mediaJobs'>, account: OperatorAccount, opts: { limit: number; page: number }) {
  const jobs = await deps.mediaJobs.list(account.id, { limit: opts.limit, skip: (opts.page - 1) * opts.limit });
  return jobs.map(toMediaJobView);
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
