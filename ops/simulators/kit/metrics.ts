/**
 * Deterministic analytics for the simulators: every figure is a seeded function of the account or
 * post id, the metric, the day, and the posts the simulator holds, so a test can compute what the
 * network "has" and compare it with what an adapter reports. Figures grow with time (post metrics
 * with the days since publishing, levels with the days since the model's epoch) and with posts
 * (each post published by a day adds to that day's flows and to the account's levels).
 * The clock is the simulator's own and can be frozen (`setNow`) so a test reads stable numbers.
 */
import { createHash } from 'node:crypto';

const DAY_MS = 86_400_000;
/** Levels grow from here (a fixed date keeps figures reproducible across runs). */
const EPOCH = Date.UTC(2026, 0, 1);

export interface TimePointSim { date: string; value: number }

/** A metric's shape: a base drawn from `base` (inclusive range), and what each post adds. */
export interface MetricShape {
  base: readonly [number, number];
  /** Added per post published up to (and including) the day (flows) or before the moment (levels). */
  perPost?: number;
  /** Levels only: added per day since the epoch. */
  perDay?: number;
}

export interface AnalyticsModel {
  /** The simulator's analytics clock: the system's unless frozen. */
  now(): Date;
  /** Freezes the clock at `at` (undefined: back to the system clock). */
  setNow(at: Date | undefined): void;
  /** A seeded integer in [lo, hi] for `key`. */
  draw(key: string, lo: number, hi: number): number;
  /** A flow metric (reach, views, …) of `subject` on `day` (YYYY-MM-DD). `posts`: publish times of the subject's posts. */
  daily(subject: string, metric: string, shape: MetricShape, day: string, posts: readonly Date[]): number;
  /** The daily values from `since` to `until` (inclusive days), oldest first. */
  series(subject: string, metric: string, shape: MetricShape, since: string, until: string, posts: readonly Date[]): TimePointSim[];
  /** Their sum. */
  total(subject: string, metric: string, shape: MetricShape, since: string, until: string, posts: readonly Date[]): number;
  /** A level (followers, following) of `subject` at `at`. */
  level(subject: string, metric: string, shape: MetricShape, at: Date, posts: readonly Date[]): number;
  /**
   * A post's lifetime metric at the clock's now: its daily rate (drawn from `shape.base`) times the
   * days since it was published, counting the first day (capped at 90 days). 0 before publishing.
   */
  post(postId: string, metric: string, shape: MetricShape, publishedAt: Date): number;
}

export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);
export const addDays = (day: string, n: number): string => dayOf(new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS));
/** Whole days from `since` to `until` inclusive (1 for the same day). */
export const daysBetween = (since: string, until: string): number =>
  Math.round((Date.parse(`${until}T00:00:00Z`) - Date.parse(`${since}T00:00:00Z`)) / DAY_MS) + 1;

export function createAnalyticsModel(seed = 'herald-analytics'): AnalyticsModel {
  let frozen: Date | undefined;
  const now = () => frozen ?? new Date();
  const draw = (key: string, lo: number, hi: number): number => {
    const n = createHash('sha256').update(`${seed}:${key}`).digest().readUInt32BE(0);
    return lo + (n % (hi - lo + 1));
  };
  const upTo = (posts: readonly Date[], end: number) => posts.filter((p) => p.getTime() < end).length;

  const daily: AnalyticsModel['daily'] = (subject, metric, shape, day, posts) => {
    const start = Date.parse(`${day}T00:00:00Z`);
    // The account's insights start on its first day with anything to show; nothing is reported for the future.
    if (start > now().getTime()) return 0;
    const base = draw(`${subject}:${metric}`, shape.base[0], shape.base[1]);
    const wobble = draw(`${subject}:${metric}:${day}`, 0, Math.max(1, Math.floor(base / 4)));
    return base + wobble + (shape.perPost ?? 0) * upTo(posts, start + DAY_MS);
  };
  const series: AnalyticsModel['series'] = (subject, metric, shape, since, until, posts) => {
    const out: TimePointSim[] = [];
    for (let d = since; d <= until; d = addDays(d, 1)) out.push({ date: d, value: daily(subject, metric, shape, d, posts) });
    return out;
  };
  return {
    now,
    setNow(at) { frozen = at ? new Date(at) : undefined; },
    draw,
    daily,
    series,
    total: (subject, metric, shape, since, until, posts) => series(subject, metric, shape, since, until, posts).reduce((s, p) => s + p.value, 0),
    level(subject, metric, shape, at, posts) {
      const days = Math.max(0, Math.floor((at.getTime() - EPOCH) / DAY_MS));
      return draw(`${subject}:${metric}`, shape.base[0], shape.base[1]) + (shape.perDay ?? 0) * days + (shape.perPost ?? 0) * upTo(posts, at.getTime() + 1);
    },
    post(postId, metric, shape, publishedAt) {
      const elapsed = now().getTime() - publishedAt.getTime();
      if (elapsed < 0) return 0;
      const days = Math.min(90, Math.floor(elapsed / DAY_MS) + 1);
      return draw(`${postId}:${metric}`, shape.base[0], shape.base[1]) * days;
    },
  };
}

/** A `setNow` control body: `{at: ISO-8601}` freezes, `{}` releases. */
export function clockControl(model: AnalyticsModel) {
  return (body: Record<string, unknown>) => {
    if (body.at === undefined || body.at === null) return model.setNow(undefined);
    const at = new Date(String(body.at));
    if (Number.isNaN(at.getTime())) throw new Error('at must be an ISO-8601 date');
    model.setNow(at);
  };
}
