import { CancelledFailure, Context } from '@temporalio/activity';
import { WORKFLOW_TYPES, workflowIds } from '../../core/ports/workflow-names';
import type { MediaRunResult } from '../../core/usecases/run-media-job';
import type { MediaJobActivities } from '../../workflows/activities/media-job';
import type { MediaJobWorkflowInput } from '../../workflows/media-job.workflow';
import { activitiesIn, eventually, historyOf, uniqueId, useWorkflowTier } from './harness';

jest.setTimeout(120_000);

type Run = MediaRunResult | 'throw' | 'until-cancelled';

describe('media job workflow (dev server, fake activities)', () => {
  const tier = useWorkflowTier('media');

  /** The media activities as fakes: runMediaJob does each of `runs` in turn; the rest is logged. */
  const fakeMedia = (runs: Run[]) => {
    const log: string[] = [];
    const finished: Array<Parameters<MediaJobActivities['finishMediaJob']>[0]> = [];
    const activities: MediaJobActivities = {
      async runMediaJob() {
        const run = runs.shift() ?? 'throw';
        log.push(`run:${typeof run === 'string' ? run : run.outcome}`);
        if (run === 'throw') throw new Error('worker lost its scratch directory (fake)');
        if (run === 'until-cancelled') {
          // As ffmpeg under the real activity: heartbeats until Temporal cancels it, then dies.
          const ctx = Context.current();
          while (!ctx.cancellationSignal.aborted) {
            ctx.heartbeat({ processedSeconds: 1 });
            await ctx.sleep(100).catch(() => undefined);
          }
          log.push('killed');
          throw new CancelledFailure('cancelled');
        }
        return run;
      },
      async finishMediaJob(input) {
        log.push(`finish:${input.outcome}`);
        finished.push(input);
      },
      async publishMediaOutput() { log.push('publish'); },
      async expireMediaJob() { log.push('expire'); },
    };
    return { log, finished, activities };
  };

  const input = (jobId: string, over: Partial<MediaJobWorkflowInput> = {}): MediaJobWorkflowInput => ({
    jobId, timeLimitMs: 30_000, heartbeatTimeoutMs: 2_000, outputTtlMs: 200, maxAttempts: 2, ...over,
  });
  const start = (taskQueue: string, jobInput: MediaJobWorkflowInput) =>
    tier.client.workflow.start(WORKFLOW_TYPES.mediaJob, { taskQueue, workflowId: workflowIds.mediaJob(jobInput.jobId), args: [jobInput] });

  it.concurrent('ends a finished job with its output and timings, publishes it, and deletes it when it expires', async () => {
    const output = { id: 'out-1', size: 1234, contentType: 'video/mp4' };
    const fakes = fakeMedia([{ outcome: 'finished', output, timings: { startedMs: 1, ffmpegEndedMs: 2 } }]);
    await tier.withWorker('media', fakes.activities, async (taskQueue) => {
      const handle = await start(taskQueue, input(uniqueId('job')));
      expect(await handle.result()).toBe('finished');
      expect(activitiesIn(await historyOf(handle))).toEqual(['runMediaJob', 'finishMediaJob', 'publishMediaOutput', 'expireMediaJob']);
    });
    expect(fakes.log).toEqual(['run:finished', 'finish:finished', 'publish', 'expire']);
    expect(fakes.finished[0]).toMatchObject({ outcome: 'finished', output, outputTtlMs: 200, timings: { startedMs: 1, ffmpegEndedMs: 2 } });
  });

  it.concurrent('ends the job as an error, unpublished, when its command fails', async () => {
    const fakes = fakeMedia([{ outcome: 'error', reason: 'ffmpeg exited 1' }]);
    await tier.withWorker('media', fakes.activities, async (taskQueue) => {
      const handle = await start(taskQueue, input(uniqueId('job')));
      expect(await handle.result()).toBe('error');
    });
    expect(fakes.log).toEqual(['run:error', 'finish:error', 'expire']);
    expect(fakes.finished[0]).toMatchObject({ outcome: 'error', reason: 'ffmpeg exited 1' });
  });

  it.concurrent('retries a run that failed as a whole, up to its attempts, then ends the job as an error', async () => {
    const fakes = fakeMedia(['throw', 'throw']);
    await tier.withWorker('media', fakes.activities, async (taskQueue) => {
      const handle = await start(taskQueue, input(uniqueId('job'), { maxAttempts: 2 }));
      expect(await handle.result()).toBe('error');
    });
    expect(fakes.log).toEqual(['run:throw', 'run:throw', 'finish:error', 'expire']);
    expect(fakes.finished[0]!.reason).toMatch(/every attempt/);
  });

  it.concurrent('does nothing more for a job that is gone', async () => {
    const fakes = fakeMedia([{ outcome: 'gone' }]);
    await tier.withWorker('media', fakes.activities, async (taskQueue) => {
      expect(await (await start(taskQueue, input(uniqueId('job')))).result()).toBe('gone');
    });
    expect(fakes.log).toEqual(['run:gone']);
  });

  it.concurrent('cancelling the workflow kills the run, ends the job as cancelled and still expires it', async () => {
    const fakes = fakeMedia(['until-cancelled']);
    await tier.withWorker('media', fakes.activities, async (taskQueue) => {
      const handle = await start(taskQueue, input(uniqueId('job')));
      await eventually('the run started', () => fakes.log.includes('run:until-cancelled'));
      await handle.cancel();
      // The workflow catches the cancellation and ends normally, with its answer.
      await expect(handle.result()).resolves.toBe('cancelled');
    });
    expect(fakes.log).toEqual(['run:until-cancelled', 'killed', 'finish:cancelled', 'expire']);
  });
});
