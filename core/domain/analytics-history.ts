/**
 * Stored analytics history: the daily snapshot of each connected account's profile metrics, and
 * the rules of the spec's total impressions (dates, periods, the default metric per network);
 * the sums over a range are analytics-series.ts's. Pure: the clock is an argument.
 */
import { invalidInput } from './errors';
import { decodePageCursor, encodePageCursor, listFingerprint, type PagePosition } from './page-cursor';
import { isPlatform, type Platform } from './platforms';

/** The metrics `GET /total-impressions?metrics=` accepts, as the spec lists them. */
export const HISTORY_METRICS = [
  'followers', 'reach', 'views', 'impressions', 'likes', 'comments', 'shares', 'saves', 'profileViews',
  'video_count', 'following', 'pin_clicks', 'outbound_clicks',
] as const;
export type HistoryMetric = (typeof HISTORY_METRICS)[number];

/**
 * Metrics that are a level, not a flow: a sum of daily levels means nothing, so a range answers
 * the last snapshot's value in it (decision; the spec only says "sums of daily snapshots").
 */
export const LEVEL_METRICS: readonly HistoryMetric[] = ['followers', 'following', 'video_count'];

/** The default impressions metric of a network the spec does not name: impressions, then views. */
export const FALLBACK_IMPRESSIONS: readonly string[] = ['impressions', 'views'];

/**
 * Each network's default impressions metric, in preference order (its descriptor's
 * `analytics.impressionsMetrics`, from the spec: "reach for facebook, instagram, linkedin;
 * impressions/views for youtube, tiktok, threads; impressions for x, pinterest").
 */
export type ImpressionsMetrics = (platform: Platform) => readonly string[];

/** The lookup over the networks' descriptors (FALLBACK_IMPRESSIONS for those that name none). */
type ImpressionsFacts = { id: Platform; analytics?: { impressionsMetrics?: readonly string[] } };

/** One network's impressions metrics: its descriptor's, else the fallback. */
export const impressionsMetricsOf = (descriptor: ImpressionsFacts | undefined): readonly string[] =>
  descriptor?.analytics?.impressionsMetrics?.length ? descriptor.analytics.impressionsMetrics : FALLBACK_IMPRESSIONS;

export function impressionsMetricsIn(descriptors: Iterable<ImpressionsFacts>): ImpressionsMetrics {
  const named = new Map<Platform, readonly string[]>();
  for (const d of descriptors) named.set(d.id, impressionsMetricsOf(d));
  return (platform) => named.get(platform) ?? FALLBACK_IMPRESSIONS;
}

/** One day's metrics of one profile's account on one network. */
export interface AnalyticsSnapshot {
  accountId: string;
  profileUsername: string;
  platform: Platform;
  /** The connection that was measured (a reconnect gives a new one; the history goes on). */
  connectionId: string;
  /** UTC day, YYYY-MM-DD. */
  date: string;
  metrics: Record<string, number | null>;
  capturedAt: Date;
}

export const PERIODS = { last_day: 1, last_week: 7, last_month: 30, last_3months: 90, last_year: 365 } as const;
export type Period = keyof typeof PERIODS;

/** Longest range one request may read (a year and a day: `last_year` plus today). */
export const MAX_RANGE_DAYS = 366;
const DAY_MS = 86_400_000;
const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);
export const addDays = (day: string, n: number): string => dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS));

/** A real calendar day in YYYY-MM-DD, or null. */
export function parseDay(value: string): string | null {
  const m = DATE_RE.exec(value);
  if (!m) return null;
  const at = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return dayOf(at) === value ? value : null;
}

/** Every day from `from` to `to`, both included. */
export function daysBetween(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = from; d <= to; d = addDays(d, 1)) out.push(d);
  return out;
}

export interface RangeQuery {
  date?: string;
  start_date?: string;
  end_date?: string;
  period?: string;
}

/**
 * The days a request reads: `period` wins (the last N days ending today), then `date` (that day
 * alone), then `start_date` (default 30 days ago) to `end_date` (default today). 400 on a day
 * that is not YYYY-MM-DD, an unknown period, a start after the end or over MAX_RANGE_DAYS.
 */
function dayField(q: RangeQuery, field: keyof RangeQuery): string | undefined {
  const raw = q[field];
  if (raw === undefined) return undefined;
  const parsed = parseDay(raw);
  if (!parsed) throw invalidInput(`${field} must be a date as YYYY-MM-DD; got "${raw}".`, { field }, 'invalid_date');
  return parsed;
}

/**
 * Checks one field of a range as resolveRange reads it: `period` overrides the dates and `date`
 * overrides start_date and end_date, so a field that is overridden is not read (the edge checks
 * each field with this; what needs two fields, an order or a length, is resolveRange's).
 */
export function checkRangeField(field: keyof RangeQuery, q: RangeQuery): void {
  if (field === 'period') {
    if (q.period !== undefined && !(q.period in PERIODS)) resolveRange({ period: q.period }, new Date(0));
    return;
  }
  if (q.period !== undefined) return;
  if (field !== 'date' && q.date !== undefined) return;
  dayField(q, field);
}

export function resolveRange(q: RangeQuery, now: Date): { start: string; end: string } {
  const today = dayOf(now);
  if (q.period !== undefined) {
    if (!(q.period in PERIODS)) {
      throw invalidInput(`period must be one of ${Object.keys(PERIODS).join(', ')}; got "${q.period}".`, { field: 'period' }, 'invalid_period');
    }
    return { start: addDays(today, -PERIODS[q.period as Period]), end: today };
  }
  const day = (field: keyof RangeQuery) => dayField(q, field);
  const single = day('date');
  if (single) return { start: single, end: single };
  const end = day('end_date') ?? today;
  const start = day('start_date') ?? addDays(end, -30);
  if (start > end) throw invalidInput(`start_date (${start}) is after end_date (${end}).`, { field: 'start_date' }, 'invalid_date');
  if (daysBetween(start, end).length > MAX_RANGE_DAYS) {
    throw invalidInput(`The range from ${start} to ${end} is longer than ${MAX_RANGE_DAYS} days; ask for a shorter one.`, { field: 'start_date' }, 'invalid_date');
  }
  return { start, end };
}

/** A comma list of metrics, each one the spec names; 400 `invalid_metric` otherwise. */
export function parseMetrics(raw: string): HistoryMetric[] {
  const names = [...new Set(raw.split(',').map((s) => s.trim()).filter(Boolean))];
  const unknown = names.filter((n) => !(HISTORY_METRICS as readonly string[]).includes(n));
  if (!names.length || unknown.length) {
    throw invalidInput(`metrics: ${unknown.length ? `unknown ${unknown.map((u) => `"${u}"`).join(', ')}` : 'empty'}; use a comma list of ${HISTORY_METRICS.join(', ')}.`,
      { field: 'metrics' }, 'invalid_metric');
  }
  return names as HistoryMetric[];
}

/** A comma list of platform values; 400 `invalid_platform` for anything else. */
export function parsePlatformFilter(raw: string): Platform[] {
  const names = [...new Set(raw.split(',').map((s) => s.trim().toLowerCase()).filter(Boolean))];
  const unknown = names.filter((n) => !isPlatform(n));
  if (!names.length || unknown.length) {
    throw invalidInput(`platform: ${unknown.length ? `unknown ${unknown.map((u) => `"${u}"`).join(', ')}` : 'empty'}; use a comma list of platform values.`,
      { field: 'platform' }, 'invalid_platform');
  }
  return names as Platform[];
}

/** The snapshot's figure for the network's default impressions metric (0 when it has none of them). */
export function impressionsOf(s: AnalyticsSnapshot, metrics: ImpressionsMetrics): number {
  for (const name of metrics(s.platform)) {
    const v = s.metrics[name];
    if (typeof v === 'number') return v;
  }
  return 0;
}

/** The key of a post's captured metrics (its row in `GET /post-analytics/cached`): `<account>:<network>:<post id>`. */
export const captureKey = (accountId: string, platform: string, platformPostId: string): string =>
  [accountId, platform, platformPostId].map(encodeURIComponent).join(':');

const capturesFingerprint = (f: { platform?: string; since?: Date; until?: Date }) => listFingerprint('post-analytics-cached', { platform: f.platform, since: f.since, until: f.until });

/** The `next_cursor` of a page of `GET /post-analytics/cached` (core/domain/page-cursor.ts), bound to its filters. */
export const encodeCapturesCursor = (next: PagePosition, filters: { platform?: string; since?: Date; until?: Date }): string =>
  encodePageCursor(next, capturesFingerprint(filters));

/**
 * Where a `cursor` of `GET /post-analytics/cached` resumes: one of ours for the same filters, or
 * one of the cursors issued before the list was bucketed (`<capture time, base 36>~<row key>`,
 * unbound to filters), which names the same position. 400 `invalid_cursor` otherwise.
 */
export function decodeCapturesCursor(cursor: string, filters: { platform?: string; since?: Date; until?: Date }): PagePosition {
  if (!cursor.includes('~')) return decodePageCursor(cursor, capturesFingerprint(filters));
  const m = /^([0-9a-z]{1,12})~([^~]+)$/.exec(cursor);
  if (m) {
    try {
      const at = parseInt(m[1]!, 36);
      return { hour: new Date(at).toISOString().slice(0, 13), t: at, id: decodeURIComponent(m[2]!) };
    } catch {
      // a malformed escape or time: answered below
    }
  }
  throw invalidInput('cursor is not one this endpoint gave; pass next_cursor from the previous page as is.', { field: 'cursor' }, 'invalid_cursor');
}
