import { WEEK_DAYS, type WeekDay } from '../../core/domain/connect-link';
import { zonedDate, zonedTimeToUtc } from '../../core/domain/schedule';

/**
 * The calendar's grid: local dates in the viewer's zone as day numbers (days since 1970-01-01),
 * so weeks and months are plain arithmetic; instants are converted at the edges only.
 */
export type CalendarView = 'week' | 'month';

export interface LocalDay {
  year: number;
  month: number;
  day: number;
  /** 0 = Sunday. */
  weekday: number;
}

const DAY_MS = 86_400_000;
export const dayNumber = (d: { year: number; month: number; day: number }): number => Math.floor(Date.UTC(d.year, d.month - 1, d.day) / DAY_MS);
export function fromDayNumber(n: number): LocalDay {
  const date = new Date(n * DAY_MS);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate(), weekday: date.getUTCDay() };
}
export const isoDay = (d: { year: number; month: number; day: number }): string =>
  `${String(d.year).padStart(4, '0')}-${String(d.month).padStart(2, '0')}-${String(d.day).padStart(2, '0')}`;

export function parseIsoDay(value: unknown): LocalDay | undefined {
  if (typeof value !== 'string') return undefined;
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return undefined;
  const d = { year: Number(m[1]), month: Number(m[2]), day: Number(m[3]) };
  const back = fromDayNumber(dayNumber(d));
  return back.year === d.year && back.month === d.month && back.day === d.day ? back : undefined;
}

export interface CalendarGrid {
  view: CalendarView;
  /** Rows of 7 day numbers. */
  weeks: number[][];
  /** The month shown (month view): days outside it are greyed. */
  month?: { year: number; month: number };
  from: Date;
  to: Date;
  previous: string;
  next: string;
  /** The weekday of each column, as a day name. */
  columns: WeekDay[];
}

export function calendarGrid(view: CalendarView, anchor: LocalDay, weekStart: WeekDay, timezone: string): CalendarGrid {
  const startIndex = WEEK_DAYS.indexOf(weekStart);
  const columns = [0, 1, 2, 3, 4, 5, 6].map((i) => WEEK_DAYS[(startIndex + i) % 7]!);
  const weekStartOf = (n: number) => n - ((fromDayNumber(n).weekday - startIndex + 7) % 7);
  let first: number;
  let last: number;
  let previous: LocalDay;
  let next: LocalDay;
  if (view === 'week') {
    first = weekStartOf(dayNumber(anchor));
    last = first + 6;
    previous = fromDayNumber(first - 7);
    next = fromDayNumber(first + 7);
  } else {
    const monthFirst = dayNumber({ year: anchor.year, month: anchor.month, day: 1 });
    const monthLast = dayNumber({ year: anchor.month === 12 ? anchor.year + 1 : anchor.year, month: anchor.month === 12 ? 1 : anchor.month + 1, day: 1 }) - 1;
    first = weekStartOf(monthFirst);
    last = weekStartOf(monthLast) + 6;
    previous = fromDayNumber(monthFirst - 1);
    next = fromDayNumber(monthLast + 1);
  }
  const weeks: number[][] = [];
  for (let w = first; w <= last; w += 7) weeks.push([0, 1, 2, 3, 4, 5, 6].map((i) => w + i));
  const instant = (n: number) => {
    const d = fromDayNumber(n);
    return zonedTimeToUtc({ year: d.year, month: d.month, day: d.day, hour: 0, minute: 0 }, timezone);
  };
  return {
    view, weeks, columns, from: instant(first), to: instant(last + 1),
    ...(view === 'month' ? { month: { year: anchor.year, month: anchor.month } } : {}),
    previous: isoDay(previous), next: isoDay(next),
  };
}

export function todayIn(now: Date, timezone: string): LocalDay {
  const d = zonedDate(now, timezone);
  return { year: d.year, month: d.month, day: d.day, weekday: fromDayNumber(dayNumber(d)).weekday };
}

/** The day number and `HH:MM` of an instant in `timezone`. */
export function localParts(at: Date, timezone: string): { dayNumber: number; time: string; inputValue: string } {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-GB', {
    timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
  }).formatToParts(at).map((p) => [p.type, p.value]));
  const d = { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day) };
  const time = `${parts.hour}:${parts.minute}`;
  return { dayNumber: dayNumber(d), time, inputValue: `${isoDay(d)}T${time}` };
}
