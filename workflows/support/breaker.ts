/**
 * The circuit breaker of one notification channel, as pure transitions (the workflow holds the
 * state; unit tests drive these directly). The spec: after `failureThreshold` consecutive failed
 * deliveries (timeout, connection error, non-2xx) the channel pauses for `pauseMs`; deliveries
 * during the pause are skipped and not retried; then it is tried again; one success resets.
 * After the pause the channel is half-open: the next delivery is tried, and a failure pauses it
 * again at once (the count stays at the threshold until a success).
 */
export interface BreakerConfig {
  failureThreshold: number;
  pauseMs: number;
}

export interface BreakerState {
  consecutiveFailures: number;
  /** Epoch ms until which deliveries are skipped; null when closed. Past = half-open. */
  pausedUntil: number | null;
}

export type BreakerPhase = 'closed' | 'open' | 'half_open';

export const CLOSED: BreakerState = { consecutiveFailures: 0, pausedUntil: null };

export function phase(state: BreakerState, now: number): BreakerPhase {
  if (state.pausedUntil === null) return 'closed';
  return now < state.pausedUntil ? 'open' : 'half_open';
}

/** The state after an attempt that was made (skipped deliveries do not count). */
export function afterAttempt(state: BreakerState, ok: boolean, now: number, config: BreakerConfig): BreakerState {
  if (ok) return CLOSED;
  const failures = state.consecutiveFailures + 1;
  if (failures >= config.failureThreshold || phase(state, now) === 'half_open') {
    return { consecutiveFailures: Math.max(failures, config.failureThreshold), pausedUntil: now + config.pauseMs };
  }
  return { consecutiveFailures: failures, pausedUntil: null };
}

/** The address changed (or an operator resumed it): the pause ends now, the next delivery is tried. */
export function resumed(state: BreakerState, now: number): BreakerState {
  return state.pausedUntil !== null && state.pausedUntil > now ? { ...state, pausedUntil: now } : state;
}
