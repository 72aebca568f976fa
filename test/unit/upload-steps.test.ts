import type { TargetOutcome } from '../../core/usecases/run-upload';
import { firstTargetCall, nextTargetStep, targetCallFields, type TargetCallFields } from '../../core/usecases/upload-steps';
import { runTargetCalls } from '../../adapters/memory/upload-runner';

/**
 * The step definition both upload runners follow (the workflow tier runs the same script through
 * the real workflow: test/workflow/upload.test.ts).
 */
const done: TargetOutcome = { kind: 'done', result: { platform: 'x', success: true, warnings: [], finished_at: '2026-01-01T00:00:00.000Z' } };

describe('upload steps', () => {
  it('gives, for each outcome, the next call and the wait before it', () => {
    const first = firstTargetCall(true);
    expect(first).toEqual({ round: 0, step: 0, waitOutPause: true });
    expect(nextTargetStep(first, done)).toEqual({ kind: 'stop' });
    expect(nextTargetStep(first, { kind: 'busy', afterMs: 7 })).toEqual({ kind: 'again', wait: { kind: 'busy', ms: 7 }, next: first });
    expect(nextTargetStep({ round: 1, step: 2, resume: { a: 1 }, waitOutPause: true }, { kind: 'retry', afterMs: 9, reason: '429' }))
      .toEqual({ kind: 'again', wait: { kind: 'later', ms: 9 }, next: { round: 2, step: 0, waitOutPause: true } });
    expect(nextTargetStep({ round: 1, step: 2, resume: { a: 1 }, waitOutPause: true }, { kind: 'wait', afterMs: 5, state: { a: 2 } }))
      .toEqual({ kind: 'again', wait: { kind: 'later', ms: 5 }, next: { round: 1, step: 3, resume: { a: 2 }, waitOutPause: true } });
    // One retry per pause: the call after it may not wait out another.
    expect(nextTargetStep({ round: 0, step: 1, resume: { a: 1 }, waitOutPause: true }, { kind: 'paused', untilIso: '2026-01-01T01:00:00.000Z', reason: 'restricted' }))
      .toEqual({ kind: 'again', wait: { kind: 'until', atMs: Date.parse('2026-01-01T01:00:00.000Z') }, next: { round: 1, step: 0, waitOutPause: false } });
  });

  it('writes a call\'s fields as publishTarget\'s input carries them (resume and waitOutPause only when set)', () => {
    expect(targetCallFields(firstTargetCall(false))).toEqual({ round: 0, step: 0 });
    expect(targetCallFields({ round: 1, step: 1, resume: { c: 1 }, waitOutPause: true })).toEqual({ round: 1, step: 1, resume: { c: 1 }, waitOutPause: true });
  });

  it('drives the in-memory runner: its calls are the step definition\'s, only busy is waited out', async () => {
    const script: TargetOutcome[] = [
      { kind: 'retry', afterMs: 60_000, reason: '429' },
      { kind: 'wait', afterMs: 60_000, state: { container: 'c1' } },
      { kind: 'busy', afterMs: 30 },
      { kind: 'paused', untilIso: new Date(Date.now() + 3600_000).toISOString(), reason: 'restricted' },
      { kind: 'wait', afterMs: 60_000, state: { container: 'c2' } },
      done,
    ];
    // The reference: the step definition applied by hand.
    const expected: TargetCallFields[] = [];
    let call = firstTargetCall(true);
    for (const outcome of script) {
      expected.push(targetCallFields(call));
      const step = nextTargetStep(call, outcome);
      if (step.kind === 'stop') break;
      call = step.next;
    }
    expect(expected).toEqual([
      { round: 0, step: 0, waitOutPause: true },
      { round: 1, step: 0, waitOutPause: true },
      { round: 1, step: 1, resume: { container: 'c1' }, waitOutPause: true },
      { round: 1, step: 1, resume: { container: 'c1' }, waitOutPause: true },
      { round: 2, step: 0 },
      { round: 2, step: 1, resume: { container: 'c2' } },
    ]);

    const left = [...script];
    const seen: Array<TargetCallFields & { at: number }> = [];
    const started = Date.now();
    await runTargetCalls(async (fields) => {
      seen.push({ ...fields, at: Date.now() });
      return left.shift()!;
    });
    expect(seen.map(({ at: _at, ...fields }) => fields)).toEqual(expected);
    // The busy wait happened (30 ms); the minute-long and hour-long ones did not.
    expect(seen[3]!.at - seen[2]!.at).toBeGreaterThanOrEqual(25);
    expect(Date.now() - started).toBeLessThan(30_000);
  });
});
