import { randomBytes } from 'node:crypto';
import { Context } from '@temporalio/activity';
import type { Platform } from '../../core/domain/platforms';
import { DEFAULT_UPLOAD_TIMING, type UploadWorkflowInput } from '../../core/ports/upload-runner';
import { SIGNALS, WORKFLOW_TYPES, workflowIds, type SignalArgs } from '../../core/ports/workflow-names';
import type { OnlyTargetOutcome, TargetOutcome } from '../../core/usecases/run-upload';
import type { TargetCallFields } from '../../core/usecases/upload-steps';
import { runTargetCalls } from '../../adapters/memory/upload-runner';
import type { PublishTargetActivityInput, UploadActivities } from '../../workflows/activities/upload';
import { activitiesIn, countOf, eventually, historyOf, useWorkflowTier } from './harness';

jest.setTimeout(120_000);

/** Short calls, long enough limits: the fakes answer at once, a loaded machine is slow. */
const timing = { ...DEFAULT_UPLOAD_TIMING, publishTimeoutMs: 30_000, heartbeatTimeoutMs: 30_000 };
const done = (platform: Platform): TargetOutcome => ({ kind: 'done', result: { platform, success: true, post_id: 'p1', warnings: [], finished_at: new Date().toISOString() } });

/** An outcome, or one made when the call comes (a pause "until 1 s from now"). */
type Scripted = TargetOutcome | (() => TargetOutcome);

interface Call extends TargetCallFields {
  activity: 'publishTarget' | 'publishOnlyTarget';
  platform: Platform;
  local: boolean;
  attempt: number;
  at: number;
}

/** Each platform answers its script in turn, then done. */
function scriptedNetwork(script: Partial<Record<Platform, Scripted[]>>): (platform: Platform) => TargetOutcome {
  const left = Object.fromEntries(Object.entries(script).map(([p, outcomes]) => [p, [...outcomes]])) as Partial<Record<Platform, Scripted[]>>;
  return (platform) => {
    const next = left[platform]?.shift();
    return next === undefined ? done(platform) : typeof next === 'function' ? next() : next;
  };
}

/**
 * The upload activities as fakes over a scripted network: every publish call is recorded, and the
 * bookkeeping activities are logged.
 */
function fakeUploadActivities(script: Partial<Record<Platform, Scripted[]>>, opts: { throwOnce?: Platform; postponeMs?: number[]; publishable?: boolean } = {}) {
  const calls: Call[] = [];
  const bookkeeping: string[] = [];
  const thrown = new Set<Platform>();
  const answer = scriptedNetwork(script);
  const record = (activity: Call['activity'], input: PublishTargetActivityInput) => {
    const { info } = Context.current();
    calls.push({
      activity, platform: input.platform, local: info.isLocal, attempt: info.attempt, at: Date.now(),
      round: input.round, step: input.step, ...(input.resume ? { resume: input.resume } : {}), ...(input.waitOutPause ? { waitOutPause: true as const } : {}),
    });
  };
  const activities: UploadActivities = {
    async beginUpload() { bookkeeping.push('beginUpload'); return true; },
    async finishUpload() { bookkeeping.push('finishUpload'); },
    async postponeIfCapped() {
      bookkeeping.push('postponeIfCapped');
      const ms = opts.postponeMs?.shift();
      return ms !== undefined ? { postponedTo: new Date(Date.now() + ms).toISOString() } : null;
    },
    async prepareMedia() { bookkeeping.push('prepareMedia'); return { publishable: opts.publishable ?? true }; },
    async publishTarget(input) {
      record('publishTarget', input);
      if (opts.throwOnce === input.platform && !thrown.has(input.platform)) {
        thrown.add(input.platform);
        throw new Error('worker lost the database (fake)');
      }
      return answer(input.platform);
    },
    async publishOnlyTarget(input): Promise<OnlyTargetOutcome> {
      record('publishOnlyTarget', input);
      const outcome = answer(input.platform);
      bookkeeping.push('beginUpload');
      if (outcome.kind === 'done') bookkeeping.push('finishUpload');
      return { begun: true, outcome };
    },
  };
  return { activities, calls, bookkeeping };
}

/** The fields the step definition decides, per platform, in call order. */
const stepsOf = (calls: Call[], platform: Platform): TargetCallFields[] =>
  calls.filter((c) => c.platform === platform).map(({ round, step, resume, waitOutPause }) => ({ round, step, ...(resume ? { resume } : {}), ...(waitOutPause ? { waitOutPause } : {}) }));

describe('upload workflow (dev server, fake activities)', () => {
  const tier = useWorkflowTier('publish');

  const start = (taskQueue: string, input: Partial<UploadWorkflowInput> & { platforms: Platform[] }) => {
    const ids = { accountId: 'acct-wf-tier', requestId: `req-${randomBytes(4).toString('hex')}` };
    return tier.client.workflow.start(WORKFLOW_TYPES.upload, {
      taskQueue, workflowId: workflowIds.upload(ids.accountId, ids.requestId), args: [{ ...ids, timing, ...input }],
    });
  };

  it.concurrent('makes the calls the step definition gives, the same as the in-memory runner: retry round, next step, busy, pause', async () => {
    // Two targets in parallel, each through every kind of outcome before it is done.
    const pauseEnds: number[] = [];
    const paused = (): TargetOutcome => {
      const until = Date.now() + 1500;
      pauseEnds.push(until);
      return { kind: 'paused', untilIso: new Date(until).toISOString(), reason: 'restricted until later (fake)' };
    };
    const scripts = (): Record<'x' | 'telegram', Scripted[]> => ({
      x: [
        { kind: 'retry', afterMs: 50, reason: '429 (fake)' },
        { kind: 'wait', afterMs: 50, state: { container: 'c1' } },
        { kind: 'busy', afterMs: 50 },
        { kind: 'wait', afterMs: 50, state: { container: 'c1', polls: 1 } },
      ],
      telegram: [paused, { kind: 'retry', afterMs: 50, reason: '503 (fake)' }],
    });
    const expected: Record<'x' | 'telegram', TargetCallFields[]> = {
      x: [
        { round: 0, step: 0, waitOutPause: true },
        { round: 1, step: 0, waitOutPause: true },
        { round: 1, step: 1, resume: { container: 'c1' }, waitOutPause: true },
        // busy: the very same call again
        { round: 1, step: 1, resume: { container: 'c1' }, waitOutPause: true },
        { round: 1, step: 2, resume: { container: 'c1', polls: 1 }, waitOutPause: true },
      ],
      telegram: [
        { round: 0, step: 0, waitOutPause: true },
        // after the pause: a new round, and a second verdict would fail the target
        { round: 1, step: 0 },
        { round: 2, step: 0 },
      ],
    };

    const fakes = fakeUploadActivities(scripts());
    await tier.withWorker('publish', fakes.activities, async (taskQueue) => {
      const handle = await start(taskQueue, { platforms: ['x', 'telegram'] });
      await handle.result();
      const events = await historyOf(handle);
      // One durable timer per wait: x's three, telegram's pause and retry.
      expect(countOf(events, 'TimerStarted')).toBe(6);
      expect(activitiesIn(events).filter((a) => a === 'publishTarget')).toHaveLength(8);
    });
    expect(stepsOf(fakes.calls, 'x')).toEqual(expected.x);
    expect(stepsOf(fakes.calls, 'telegram')).toEqual(expected.telegram);
    // The call after the pause came once it had ended.
    expect(fakes.calls.filter((c) => c.platform === 'telegram')[1]!.at).toBeGreaterThanOrEqual(pauseEnds[0]!);
    expect(fakes.bookkeeping).toEqual(['beginUpload', 'finishUpload']);

    // The in-memory runner, same scripts: the same calls.
    const network = scriptedNetwork(scripts());
    for (const platform of ['x', 'telegram'] as const) {
      const seen: TargetCallFields[] = [];
      await runTargetCalls(async (call) => {
        seen.push(call);
        return network(platform);
      });
      expect(seen).toEqual(expected[platform]);
    }
  });

  it.concurrent('retries a publish call that failed as a whole (not a network verdict) as the same activity, attempt 2', async () => {
    const fakes = fakeUploadActivities({}, { throwOnce: 'discord' });
    await tier.withWorker('publish', fakes.activities, async (taskQueue) => {
      const handle = await start(taskQueue, { platforms: ['discord'] });
      await handle.result();
      const events = await historyOf(handle);
      // Activity retries live in the server: one scheduled task, no workflow timer.
      expect(activitiesIn(events).filter((a) => a === 'publishTarget')).toHaveLength(1);
      expect(countOf(events, 'TimerStarted')).toBe(0);
    });
    expect(fakes.calls.map((c) => [c.round, c.step, c.attempt])).toEqual([[0, 0, 1], [0, 0, 2]]);
    expect(fakes.bookkeeping).toEqual(['beginUpload', 'finishUpload']);
  });

  it.concurrent('waits for a scheduled post until its time, moved by the reschedule signal and postponed by a daily cap', async () => {
    const fakes = fakeUploadActivities({}, { postponeMs: [800] });
    await tier.withWorker('publish', fakes.activities, async (taskQueue) => {
      const handle = await start(taskQueue, { platforms: ['discord'], notBefore: new Date(Date.now() + 3600_000).toISOString() });
      // The timer is running (an hour away): nothing happens until the signal moves it.
      await eventually('the scheduled timer', async () => countOf(await historyOf(handle), 'TimerStarted') === 1);
      expect(fakes.bookkeeping).toEqual([]);
      const movedTo = Date.now() + 500;
      await handle.signal<SignalArgs['reschedule']>(SIGNALS.reschedule, new Date(movedTo).toISOString());
      await handle.result();
      expect(fakes.calls[0]!.at).toBeGreaterThanOrEqual(movedTo);
      const events = await historyOf(handle);
      // The hour-long timer cancelled for the moved one, then one more after the cap's postponement.
      expect(countOf(events, 'TimerCanceled')).toBe(1);
      expect(countOf(events, 'TimerStarted')).toBe(3);
    });
    expect(fakes.bookkeeping).toEqual(['postponeIfCapped', 'postponeIfCapped', 'beginUpload', 'finishUpload']);
    expect(stepsOf(fakes.calls, 'discord')).toEqual([{ round: 0, step: 0, waitOutPause: true }]);
  });

  it.concurrent('ends a scheduled post\'s wait on the cancel signal without publishing', async () => {
    const fakes = fakeUploadActivities({});
    await tier.withWorker('publish', fakes.activities, async (taskQueue) => {
      const handle = await start(taskQueue, { platforms: ['discord'], notBefore: new Date(Date.now() + 3600_000).toISOString() });
      await eventually('the scheduled timer', async () => countOf(await historyOf(handle), 'TimerStarted') === 1);
      await handle.signal<SignalArgs['cancel']>(SIGNALS.cancel);
      await handle.result();
      const events = await historyOf(handle);
      expect(activitiesIn(events)).toEqual([]);
      expect(countOf(events, 'TimerCanceled')).toBe(1);
    });
    expect(fakes.bookkeeping).toEqual([]);
    expect(fakes.calls).toEqual([]);
  });

  it.concurrent('runs an only target\'s first call inside the workflow task, and what asks to come back later through the regular activity', async () => {
    const fakes = fakeUploadActivities({ discord: [{ kind: 'retry', afterMs: 50, reason: '429 (fake)' }] });
    await tier.withWorker('publish', fakes.activities, async (taskQueue) => {
      const handle = await start(taskQueue, { platforms: ['discord'], firstCallInline: true });
      await handle.result();
      const events = await historyOf(handle);
      // Begin and the first call are one local activity; the retry round is an activity task.
      expect(activitiesIn(events)).toEqual(['publishTarget']);
    });
    expect(fakes.bookkeeping).toEqual(['beginUpload', 'finishUpload']);
    expect(fakes.calls.map((c) => [c.activity, c.local, c.round])).toEqual([['publishOnlyTarget', true, 0], ['publishTarget', false, 1]]);
    expect(stepsOf(fakes.calls, 'discord')).toEqual([{ round: 0, step: 0, waitOutPause: true }, { round: 1, step: 0, waitOutPause: true }]);
  });

  it.concurrent('runs each target\'s first call inside the workflow task when there are several', async () => {
    const fakes = fakeUploadActivities({ x: [{ kind: 'busy', afterMs: 50 }] });
    await tier.withWorker('publish', fakes.activities, async (taskQueue) => {
      const handle = await start(taskQueue, { platforms: ['discord', 'x'], firstCallInline: true });
      await handle.result();
      expect(activitiesIn(await historyOf(handle))).toEqual(['publishTarget']);
    });
    expect(fakes.calls.map((c) => [c.platform, c.local]).sort()).toEqual([['discord', true], ['x', false], ['x', true]]);
    expect(stepsOf(fakes.calls, 'x')).toEqual([{ round: 0, step: 0, waitOutPause: true }, { round: 0, step: 0, waitOutPause: true }]);
  });

  it.concurrent('finishes without publishing when URL media leaves nothing to publish', async () => {
    const fakes = fakeUploadActivities({}, { publishable: false });
    await tier.withWorker('publish', fakes.activities, async (taskQueue) => {
      const handle = await start(taskQueue, { platforms: ['discord'], fetchMedia: true, notBefore: new Date(Date.now() + 3600_000).toISOString() });
      await handle.result();
      expect(countOf(await historyOf(handle), 'TimerStarted')).toBe(0);
    });
    expect(fakes.bookkeeping).toEqual(['prepareMedia', 'beginUpload', 'finishUpload']);
    expect(fakes.calls).toEqual([]);
  });
});
