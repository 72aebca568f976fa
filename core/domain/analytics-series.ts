/**
 * The range read model of the analytics history and the sums of total impressions over it.
 *
 * Per profile, network, calendar year and series, one array of SERIES_DAYS figures (day of year
 * from 0; NaN where no snapshot of that day has a figure). A series is one of HISTORY_METRICS, or
 * IMPRESSIONS_SERIES: each snapshot's figure for its network's default impressions metric. That
 * one is written for every snapshot (0 when the network reported none of its metrics), so it also
 * says on which days a snapshot exists (what the breakdowns list). A year of a network's default
 * figure is therefore one array, whatever the number of days or metrics. Pure.
 */
import { daysBetween, HISTORY_METRICS, impressionsOf, LEVEL_METRICS, type AnalyticsSnapshot, type HistoryMetric, type ImpressionsMetrics } from './analytics-history';
import type { Platform } from './platforms';

/** Not a metric name (those are identifiers), so it never collides with one. */
export const IMPRESSIONS_SERIES = '@impressions';
export type SeriesName = HistoryMetric | typeof IMPRESSIONS_SERIES;
export const SERIES_NAMES: readonly SeriesName[] = [IMPRESSIONS_SERIES, ...HISTORY_METRICS];
/** Slots of a year's array (the last one stays NaN in a common year). */
export const SERIES_DAYS = 366;

/** One network's figures of one series over a range: `values[i]` is the range's i-th day (NaN: no figure). */
export interface DailySeries {
  platform: Platform;
  name: SeriesName;
  values: Float64Array;
}

/**
 * What a snapshot writes into the read model: its default impressions figure, and each history
 * metric it holds a number for. A series the day's earlier snapshot had and this one has not is
 * cleared for the day (NaN), so a replaced snapshot leaves nothing behind.
 */
export function seriesFigures(s: AnalyticsSnapshot, impressions: ImpressionsMetrics, replaced?: AnalyticsSnapshot['metrics']): Map<SeriesName, number> {
  const out = new Map<SeriesName, number>([[IMPRESSIONS_SERIES, impressionsOf(s, impressions)]]);
  for (const m of HISTORY_METRICS) {
    const v = s.metrics[m];
    if (typeof v === 'number' && Number.isFinite(v)) out.set(m, v);
    else if (replaced && typeof replaced[m] === 'number') out.set(m, NaN);
  }
  return out;
}

/** The series a request reads: the chosen metrics (plus the presence series for breakdowns), else the default figure. */
export function seriesNeeded(metrics: readonly HistoryMetric[] | undefined, breakdown: boolean): SeriesName[] {
  if (!metrics) return [IMPRESSIONS_SERIES];
  return breakdown ? [...metrics, IMPRESSIONS_SERIES] : [...metrics];
}

const DAY_MS = 86_400_000;

export const yearOf = (day: string): number => Number(day.slice(0, 4));

/** Day of the year of a YYYY-MM-DD, from 0. */
export const dayOfYear = (day: string): number => Math.round((Date.parse(`${day}T00:00:00Z`) - Date.UTC(yearOf(day), 0, 1)) / DAY_MS);

export interface YearSpan {
  year: number;
  /** Days of that year in the range, as days of the year, both included. */
  from: number;
  to: number;
  /** Where `from` falls in the range (its index in a DailySeries). */
  offset: number;
}

/** A range [start, end] cut at the year boundaries (two spans for any range up to MAX_RANGE_DAYS). */
export function yearSpans(start: string, end: string): YearSpan[] {
  const out: YearSpan[] = [];
  const startMs = Date.parse(`${start}T00:00:00Z`);
  for (let year = yearOf(start); year <= yearOf(end); year += 1) {
    const from = year === yearOf(start) ? dayOfYear(start) : 0;
    const to = year === yearOf(end) ? dayOfYear(end) : Math.round((Date.UTC(year + 1, 0, 1) - Date.UTC(year, 0, 1)) / DAY_MS) - 1;
    out.push({ year, from, to, offset: Math.round((Date.UTC(year, 0, 1) + from * DAY_MS - startMs) / DAY_MS) });
  }
  return out;
}

/** Copies each year's stored array (`yearValues(year)`, undefined when none is stored) into one range array. */
export function rangeValues(start: string, end: string, yearValues: (year: number) => Float64Array | undefined): Float64Array {
  const spans = yearSpans(start, end);
  const last = spans[spans.length - 1]!;
  const out = new Float64Array(last.offset + last.to - last.from + 1).fill(NaN);
  for (const span of spans) {
    const stored = yearValues(span.year);
    if (stored) out.set(stored.subarray(span.from, span.to + 1), span.offset);
  }
  return out;
}

export interface TotalsOptions {
  start: string;
  end: string;
  /** The networks asked for, in the order the answer lists them. */
  platforms: readonly Platform[];
  /** Absent: the default impressions figure of each network. */
  metrics?: readonly HistoryMetric[];
  breakdown: boolean;
}

type Figures = number | Record<string, number>;

export interface Totals {
  total_impressions?: number;
  metrics?: Record<string, number>;
  per_platform?: Record<string, Figures>;
  per_day?: Array<{ date: string; total_impressions?: number; metrics?: Record<string, number>; per_platform: Record<string, Figures> }>;
}

/** Flow figures add up; a level keeps the last figure of the days [from, to] (0 when none). */
function fold(values: Float64Array | undefined, from: number, to: number, level: boolean): number {
  let out = 0;
  if (!values) return out;
  for (let i = from; i <= to; i += 1) {
    const v = values[i]!;
    if (Number.isNaN(v)) continue;
    out = level ? v : out + v;
  }
  return out;
}

/**
 * Sums the series of the range (`seriesNeeded` of the options): one figure (or one per metric),
 * and with `breakdown` the same per network (those with a snapshot in the range) and per day
 * (every day of the range, each listing the networks with a snapshot that day). Levels
 * (LEVEL_METRICS) answer each network's last figure, added across networks.
 */
export function computeTotals(series: readonly DailySeries[], opts: TotalsOptions): Totals {
  const last = Math.round((Date.parse(`${opts.end}T00:00:00Z`) - Date.parse(`${opts.start}T00:00:00Z`)) / DAY_MS);
  const stored = new Map(series.map((s) => [`${s.platform} ${s.name}`, s.values]));
  // Each network's arrays looked up once: a breakdown visits every day of every network.
  const arrays = new Map(opts.platforms.map((p) => [p, {
    impressions: stored.get(`${p} ${IMPRESSIONS_SERIES}`),
    metrics: (opts.metrics ?? []).map((m) => ({ m, values: stored.get(`${p} ${m}`), level: LEVEL_METRICS.includes(m) })),
  }]));
  const figures = (p: Platform, from: number, to: number): Figures => {
    const a = arrays.get(p)!;
    return opts.metrics ? Object.fromEntries(a.metrics.map(({ m, values, level }) => [m, fold(values, from, to, level)])) : fold(a.impressions, from, to, false);
  };
  const across = (perPlatform: readonly Figures[]): Pick<Totals, 'total_impressions' | 'metrics'> => (opts.metrics
    ? { metrics: Object.fromEntries(opts.metrics.map((m) => [m, perPlatform.reduce<number>((sum, f) => sum + (f as Record<string, number>)[m]!, 0)])) }
    : { total_impressions: perPlatform.reduce<number>((sum, f) => sum + (f as number), 0) });

  const out: Totals = across(opts.platforms.map((p) => figures(p, 0, last)));
  if (!opts.breakdown) return out;
  const present = (p: Platform, i: number) => !Number.isNaN(arrays.get(p)!.impressions?.[i] ?? NaN);
  const dates = daysBetween(opts.start, opts.end);
  const measured = opts.platforms.filter((p) => dates.some((_, i) => present(p, i)));
  out.per_platform = Object.fromEntries(measured.map((p) => [p, figures(p, 0, last)]));
  out.per_day = dates.map((date, i) => {
    const day = measured.filter((p) => present(p, i)).map((p) => [p, figures(p, i, i)] as const);
    return { date, ...across(day.map(([, f]) => f)), per_platform: Object.fromEntries(day) };
  });
  return out;
}
