import { createMemoryMediaJobs } from '../../adapters/memory/media-jobs';
import { createMemoryMediaUsage } from '../../adapters/memory/media-usage';
import { HeraldError } from '../../core/domain/errors';
import { parseCommandTemplate } from '../../core/domain/ffmpeg-command';
import { consumptionRecord, nextQuotaReset, quotaMonth, secondsToReserve, secondsToSettle, toMediaJobView } from '../../core/domain/media-job';
import type { OperatorAccount } from '../../core/domain/operator';
import { MediaProcessError, type MediaProcessor } from '../../core/ports/media';
import { cancelMediaJob, listMediaJobs, mediaConsumption, submitMediaJob, type MediaJobDeps } from '../../core/usecases/media-jobs';
import { finishMediaJob, runMediaJob } from '../../core/usecases/run-media-job';

const free: OperatorAccount = { id: 'acct-1', email: 'a@herald.dev', plan: 'free', createdAt: new Date(0) };

function world(start = '2026-03-31T23:59:00Z') {
  let now = new Date(start);
  let n = 0;
  const durations = new Map<string, number | null>();
  const started: string[] = [];
  const cancelled: string[] = [];
  const deps: MediaJobDeps = {
    mediaJobs: createMemoryMediaJobs(),
    mediaUsage: createMemoryMediaUsage(),
    processor: { probeInput: async (id) => ({ durationSeconds: durations.get(id) ?? null, format: id.startsWith('m3u8') ? 'hls' : 'mov,mp4,m4a,3gp,3g2,mj2' }) },
    runner: { start: async (id) => { started.push(id); }, cancel: async (id) => { cancelled.push(id); } },
    ids: { next: (prefix = 'id') => `${prefix}_${(n += 1)}` },
    clock: { now: () => now },
  };
  const input = (id: string, seconds: number | null) => { durations.set(id, seconds); return { id, size: 1, contentType: 'video/mp4' }; };
  const submit = (seconds: number | null, account = free) => submitMediaJob(deps, account, {
    command: parseCommandTemplate('ffmpeg -i {input} {output}', 1), inputs: [input(`in-${n + 1}`, seconds)], outputExtension: 'mp4',
  });
  return { deps, submit, started, cancelled, input, setNow: (iso: string) => { now = new Date(iso); } };
}

describe('media quota math', () => {
  it('reserves the probed duration rounded up, 60 s when unknown', () => {
    expect(secondsToReserve(12.2)).toBe(13);
    expect(secondsToReserve(null)).toBe(60);
    expect(secondsToReserve(0)).toBe(60);
  });

  it('months are UTC and reset on the 1st at 00:00 UTC', () => {
    expect(quotaMonth(new Date('2026-03-31T23:59:59.999Z'))).toBe('2026-03');
    expect(quotaMonth(new Date('2026-04-01T00:00:00Z'))).toBe('2026-04');
    expect(nextQuotaReset(new Date('2026-12-15T10:00:00Z')).toISOString()).toBe('2027-01-01T00:00:00.000Z');
  });

  it('settles all reserved on finish, the processed part (never more) when stopped', () => {
    expect(secondsToSettle({ reservedSeconds: 90, processedSeconds: 30.2 }, 'finished')).toBe(90);
    expect(secondsToSettle({ reservedSeconds: 90, processedSeconds: 30.2 }, 'stopped')).toBe(31);
    expect(secondsToSettle({ reservedSeconds: 90, processedSeconds: 500 }, 'stopped')).toBe(90);
  });

  it('the consumption record has the spec\'s fields', () => {
    const record = consumptionRecord('free', { seconds: 90, requests: 1 }, [
      { jobId: 'a', accountId: 'x', month: '2026-03', seconds: 90, settled: true, type: 'ffmpeg_job', createdAt: new Date('2026-03-02T00:00:00Z') },
    ], new Date('2026-03-10T00:00:00Z'));
    expect(record).toEqual({
      consumption: { used_minutes: 1.5, remaining_minutes: 28.5, quota_minutes: 30, usage_percentage: 5, total_requests: 1, current_month: '2026-03', plan: 'free' },
      history: [{ job_id: 'a', duration_seconds: 90, duration_minutes: 1.5, timestamp: '2026-03-02T00:00:00.000Z', month: '2026-03', type: 'ffmpeg_job', settled: true }],
      quota_info: { plan: 'free', quota_minutes: 30, reset_day: 1, next_reset: '2026-04-01' },
    });
  });
});

describe('submitting media jobs', () => {
  it('reserves minutes and starts the run; past the plan\'s minutes answers 429 with the consumption record, nothing started', async () => {
    const w = world();
    const job = await w.submit(29 * 60);
    expect(job).toMatchObject({ status: 'PENDING', reservedSeconds: 29 * 60, month: '2026-03' });
    expect(w.started).toEqual([job.id]);
    const refused = await w.submit(61).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(HeraldError);
    expect(refused).toMatchObject({ kind: 'too_many_requests', errorCode: 'media_quota_exceeded', details: { consumption: { used_minutes: 29, remaining_minutes: 1, quota_minutes: 30 } } });
    expect(w.started).toHaveLength(1);
    // What fits still goes.
    await expect(w.submit(60)).resolves.toMatchObject({ status: 'PENDING' });
    expect((await mediaConsumption(w.deps, free)).consumption).toMatchObject({ used_minutes: 30, remaining_minutes: 0, total_requests: 2 });
  });

  it('an unknown duration reserves 60 seconds', async () => {
    const w = world();
    expect((await w.submit(null)).reservedSeconds).toBe(60);
  });

  it('resets on the 1st at 00:00 UTC (injected clock)', async () => {
    const w = world('2026-03-31T23:59:59Z');
    await w.submit(30 * 60);
    await expect(w.submit(1)).rejects.toMatchObject({ errorCode: 'media_quota_exceeded' });
    w.setNow('2026-04-01T00:00:00Z');
    const april = await w.submit(30 * 60);
    expect(april.month).toBe('2026-04');
    expect((await mediaConsumption(w.deps, free))).toMatchObject({ consumption: { current_month: '2026-04', used_minutes: 30 }, quota_info: { next_reset: '2026-05-01' } });
  });

  it('refuses an input that is a playlist (it would make ffmpeg fetch other files or URLs)', async () => {
    const w = world();
    await expect(submitMediaJob(w.deps, free, { command: parseCommandTemplate('ffmpeg -i {input} {output}', 1), inputs: [w.input('m3u8-1', 10)], outputExtension: 'mp4' }))
      .rejects.toMatchObject({ errorCode: 'unsafe_command' });
    expect(w.started).toEqual([]);
  });

  it('a run that cannot start gives the reservation back and answers 503', async () => {
    const w = world();
    w.deps.runner.start = async () => { throw new Error('temporal down'); };
    await expect(w.submit(60)).rejects.toMatchObject({ kind: 'unavailable' });
    expect((await mediaConsumption(w.deps, free)).consumption.used_minutes).toBe(0);
  });
});

describe('running, cancelling and settling', () => {
  it('a cancelled run is charged only the processed time', async () => {
    const w = world();
    const job = await w.submit(100);
    const processor: MediaProcessor = {
      probeInput: async () => ({ durationSeconds: 100, format: 'mp4' }),
      run: async (_req, { signal, onProgress }) => {
        onProgress?.(40);
        await new Promise((_, reject) => signal!.addEventListener('abort', () => reject(new MediaProcessError('cancelled', 'Cancelled.'))));
        throw new Error('unreachable');
      },
    };
    const abort = new AbortController();
    const runDeps = { ...w.deps, processor, maxOutputBytes: 1e9, progressWriteMs: 0 };
    const run = runMediaJob(runDeps, job.id, { timeLimitMs: 60_000, signal: abort.signal });
    await new Promise((r) => setTimeout(r, 10));
    expect(await w.deps.mediaJobs.get(job.id)).toMatchObject({ status: 'PROCESSING', progressPercent: 40, processedSeconds: 40 });
    await cancelMediaJob(w.deps, free, job.id);
    expect(w.cancelled).toEqual([job.id]);
    abort.abort();
    await expect(run).rejects.toMatchObject({ kind: 'cancelled' });
    await finishMediaJob(runDeps, { jobId: job.id, outcome: 'cancelled', outputTtlMs: 1000 });
    expect(await w.deps.mediaJobs.get(job.id)).toMatchObject({ status: 'ERROR', cancelled: true, settledSeconds: 40 });
    expect((await mediaConsumption(w.deps, free)).consumption).toMatchObject({ used_minutes: 0.67 });
    await expect(cancelMediaJob(w.deps, free, job.id)).rejects.toMatchObject({ kind: 'conflict', errorCode: 'job_not_cancellable' });
  });

  it('a failing command ends in ERROR with its reason, not a retried activity', async () => {
    const w = world();
    const job = await w.submit(10);
    const processor: MediaProcessor = { probeInput: async () => ({ durationSeconds: 10, format: 'mp4' }), run: async () => { throw new MediaProcessError('failed', 'Invalid argument'); } };
    const runDeps = { ...w.deps, processor, maxOutputBytes: 1e9, progressWriteMs: 0 };
    await expect(runMediaJob(runDeps, job.id, { timeLimitMs: 1000 })).resolves.toEqual({ outcome: 'error', reason: 'Invalid argument', timings: { startedMs: expect.any(Number) } });
  });

  it('a finished job keeps where its run\'s time went (run_timings)', async () => {
    const w = world('2026-03-10T10:00:00.000Z');
    const job = await w.submit(10);
    const output = { id: 'b'.repeat(64), size: 99, contentType: 'video/mp4' };
    const processor: MediaProcessor = {
      probeInput: async () => ({ durationSeconds: 10, format: 'mp4' }),
      run: async (_req, { onPhase }) => {
        w.setNow('2026-03-10T10:00:01.000Z');
        onPhase?.('ffmpeg_started');
        w.setNow('2026-03-10T10:00:09.000Z');
        onPhase?.('ffmpeg_ended');
        w.setNow('2026-03-10T10:00:09.250Z');
        return output;
      },
    };
    const runDeps = { ...w.deps, processor, maxOutputBytes: 1e9, progressWriteMs: 0 };
    const scheduledMs = Date.parse('2026-03-10T09:59:59.900Z');
    const result = await runMediaJob(runDeps, job.id, { timeLimitMs: 60_000, scheduledMs });
    expect(result).toEqual({
      outcome: 'finished', output,
      timings: { scheduledMs, startedMs: Date.parse('2026-03-10T10:00:00.000Z'), ffmpegStartedMs: Date.parse('2026-03-10T10:00:01.000Z'), ffmpegEndedMs: Date.parse('2026-03-10T10:00:09.000Z'), outputStoredMs: Date.parse('2026-03-10T10:00:09.250Z') },
    });
    w.setNow('2026-03-10T10:00:09.300Z');
    await finishMediaJob(runDeps, { jobId: job.id, outcome: 'finished', output, outputTtlMs: 1000, ...(result.outcome === 'finished' ? { timings: result.timings! } : {}) });
    const view = toMediaJobView((await w.deps.mediaJobs.get(job.id))!);
    expect(view).toMatchObject({
      status: 'FINISHED', started_at: '2026-03-10T10:00:00.000Z', finished_at: '2026-03-10T10:00:09.300Z',
      run_timings: {
        scheduled_at: '2026-03-10T09:59:59.900Z', started_at: '2026-03-10T10:00:00.000Z', ffmpeg_started_at: '2026-03-10T10:00:01.000Z',
        ffmpeg_ended_at: '2026-03-10T10:00:09.000Z', output_stored_at: '2026-03-10T10:00:09.250Z',
      },
    });
  });
});

describe('media job and consumption pages', () => {
  it('lists jobs by page and by cursor; a foreign or altered cursor is 400 invalid_cursor', async () => {
    const w = world('2026-03-10T10:00:00Z');
    for (let i = 0; i < 5; i += 1) {
      w.setNow(`2026-03-10T1${i}:00:00Z`);
      await w.submit(10);
    }
    const first = await listMediaJobs(w.deps, free, { limit: 2, page: 1 });
    expect(first).toMatchObject({ page: 1, limit: 2, total: 5, has_more: true, next_cursor: expect.any(String) });
    expect(first.jobs.map((j) => j.job_id)).toEqual(['mj_5', 'mj_4']);
    const second = await listMediaJobs(w.deps, free, { limit: 2, page: 1, cursor: first.next_cursor! });
    expect(second.jobs.map((j) => j.job_id)).toEqual(['mj_3', 'mj_2']);
    const last = await listMediaJobs(w.deps, free, { limit: 2, page: 3 });
    expect(last).toMatchObject({ has_more: false, next_cursor: null });
    expect(last.jobs.map((j) => j.job_id)).toEqual(['mj_1']);
    await expect(listMediaJobs(w.deps, free, { limit: 2, page: 1, cursor: 'nope' })).rejects.toMatchObject({ kind: 'invalid_input', errorCode: 'invalid_cursor' });
    const consumption = await mediaConsumption(w.deps, free, { limit: 2 });
    await expect(listMediaJobs(w.deps, free, { limit: 2, page: 1, cursor: consumption.next_cursor! })).rejects.toMatchObject({ errorCode: 'invalid_cursor' });
  });

  it('the consumption record counts the whole month and pages its history, newest first; a cursor is valid in its month only', async () => {
    const w = world('2026-03-02T08:00:00Z');
    for (let i = 0; i < 5; i += 1) {
      w.setNow(`2026-03-0${i + 2}T08:00:00Z`);
      await w.submit(60);
    }
    const first = await mediaConsumption(w.deps, free, { limit: 2 });
    expect(first).toMatchObject({ consumption: { used_minutes: 5, total_requests: 5 }, has_more: true });
    expect(first.history.map((h) => h.job_id)).toEqual(['mj_5', 'mj_4']);
    const second = await mediaConsumption(w.deps, free, { limit: 2, cursor: first.next_cursor! });
    expect(second.history.map((h) => h.job_id)).toEqual(['mj_3', 'mj_2']);
    const third = await mediaConsumption(w.deps, free, { limit: 2, cursor: second.next_cursor! });
    expect(third).toMatchObject({ history: [{ job_id: 'mj_1' }], has_more: false, next_cursor: null });
    // The default page holds up to 100 entries: the whole month here, as before pages.
    expect((await mediaConsumption(w.deps, free)).history).toHaveLength(5);
    w.setNow('2026-04-01T00:00:00Z');
    await expect(mediaConsumption(w.deps, free, { cursor: first.next_cursor! })).rejects.toMatchObject({ errorCode: 'invalid_cursor' });
    expect(await mediaConsumption(w.deps, free)).toMatchObject({ consumption: { current_month: '2026-04', used_minutes: 0, total_requests: 0 }, history: [], has_more: false });
  });

  it('a refusal past the quota carries the consumption record of the month without the refused job', async () => {
    const w = world('2026-03-02T08:00:00Z');
    await w.submit(20 * 60);
    const refused = await w.submit(11 * 60).catch((e: HeraldError) => e);
    expect(refused).toMatchObject({
      errorCode: 'media_quota_exceeded',
      details: { consumption: { used_minutes: 20, remaining_minutes: 10, total_requests: 1 }, history: [{ job_id: 'mj_1' }], has_more: false },
    });
    expect((await mediaConsumption(w.deps, free)).consumption).toMatchObject({ used_minutes: 20, total_requests: 1 });
  });
});
