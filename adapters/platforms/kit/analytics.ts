/**
 * What the analytics capabilities of the adapters share: the window of an account request as UTC
 * days, catalogue building, and reading numbers out of answers.
 */
import type { AccountMetricsRequest, MetricInfo, MetricValues, TimePoint } from '../../../core/ports/platform';

const DAY_MS = 86_400_000;
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);
export const addDays = (day: string, n: number): string => dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS));
/** Midnight UTC of a day, as a Date. */
export const startOf = (day: string): Date => new Date(`${day}T00:00:00Z`);

/** The request's window as inclusive UTC days. */
export function windowOf(input: Pick<AccountMetricsRequest, 'until' | 'days'>): { since: string; until: string; days: number } {
  const until = dayOf(input.until);
  const days = Math.max(1, Math.floor(input.days));
  return { since: addDays(until, -(days - 1)), until, days };
}

/** Consecutive chunks of at most `max` days covering [since, until]. */
export function chunksOf(since: string, until: string, max: number): Array<{ since: string; until: string }> {
  const out: Array<{ since: string; until: string }> = [];
  for (let start = since; start <= until; start = addDays(start, max)) {
    const end = addDays(start, max - 1);
    out.push({ since: start, until: end < until ? end : until });
  }
  return out;
}

/** Catalogue entries from `[name, label]` pairs. */
export const metricList = (pairs: ReadonlyArray<readonly [string, string]>): MetricInfo[] => pairs.map(([name, label]) => ({ name, label }));

/** A number of an answer, or null when the network did not send one. */
export const numberOr = (value: unknown): number | null => {
  const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
  return Number.isFinite(n) ? n : null;
};

export const sumSeries = (series: readonly TimePoint[]): number => series.reduce((s, p) => s + p.value, 0);

/** Values keyed by every name of `list` (null where the network gave nothing). */
export function valuesFor(list: readonly MetricInfo[], got: Record<string, number | null | undefined>): MetricValues {
  return Object.fromEntries(list.map((m) => [m.name, got[m.name] ?? null]));
}
