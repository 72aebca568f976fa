import { afterAttempt, phase, resumed, CLOSED, type BreakerState } from '../../workflows/support/breaker';

const config = { failureThreshold: 5, pauseMs: 30 * 60_000 };

function run(state: BreakerState, results: boolean[], at: number): BreakerState {
  return results.reduce((s, ok) => afterAttempt(s, ok, at, config), state);
}

describe('notification channel circuit breaker transitions', () => {
  it('stays closed below the threshold and counts consecutive failures', () => {
    const s = run(CLOSED, [false, false, false, false], 1000);
    expect(s).toEqual({ consecutiveFailures: 4, pausedUntil: null });
    expect(phase(s, 1000)).toBe('closed');
  });

  it('opens on the fifth consecutive failure for the pause', () => {
    const s = run(CLOSED, [false, false, false, false, false], 1000);
    expect(s).toEqual({ consecutiveFailures: 5, pausedUntil: 1000 + config.pauseMs });
    expect(phase(s, 1000)).toBe('open');
    expect(phase(s, 1000 + config.pauseMs - 1)).toBe('open');
  });

  it('one success resets the count', () => {
    const s = run(CLOSED, [false, false, false, false, true, false, false, false, false], 1000);
    expect(s).toEqual({ consecutiveFailures: 4, pausedUntil: null });
    expect(phase(s, 1000)).toBe('closed');
  });

  it('is half-open after the pause: a success closes it, a failure pauses it again at once', () => {
    const open = run(CLOSED, [false, false, false, false, false], 0);
    const after = config.pauseMs;
    expect(phase(open, after)).toBe('half_open');
    expect(afterAttempt(open, true, after, config)).toEqual(CLOSED);
    const reopened = afterAttempt(open, false, after, config);
    expect(reopened).toEqual({ consecutiveFailures: 6, pausedUntil: after + config.pauseMs });
    expect(phase(reopened, after + 1)).toBe('open');
  });

  it('a resume (the address changed) ends a pause now, and leaves a closed breaker alone', () => {
    const open = run(CLOSED, [false, false, false, false, false], 0);
    const r = resumed(open, 10);
    expect(r.pausedUntil).toBe(10);
    expect(phase(r, 10)).toBe('half_open');
    expect(resumed(CLOSED, 10)).toBe(CLOSED);
  });

  it('takes its threshold and pause from configuration', () => {
    const fast = { failureThreshold: 2, pauseMs: 500 };
    const s = [false, false].reduce((st, ok) => afterAttempt(st, ok, 0, fast), CLOSED);
    expect(s).toEqual({ consecutiveFailures: 2, pausedUntil: 500 });
  });
});
