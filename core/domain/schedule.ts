import { invalidInput } from './errors';

/** Scheduling horizon of the spec: in the future, at most 365 days ahead. */
export const MAX_SCHEDULE_AHEAD_MS = 365 * 24 * 3600_000;

function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The offset (ms) of `tz` from UTC at the instant `utcMs`. */
function offsetAt(utcMs: number, tz: string): number {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', {
    timeZone: tz, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  }).formatToParts(new Date(utcMs)).map((p) => [p.type, p.value]));
  const asUtc = Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day), Number(parts.hour), Number(parts.minute), Number(parts.second));
  return asUtc - Math.floor(utcMs / 1000) * 1000;
}

/** The UTC instant of a wall-clock time in `tz` (two passes settle the offset around DST changes). */
export function zonedTimeToUtc(parts: { year: number; month: number; day: number; hour: number; minute: number; second?: number; ms?: number }, tz: string): Date {
  const wall = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second ?? 0, parts.ms ?? 0);
  const guess = wall - offsetAt(wall, tz);
  return new Date(wall - offsetAt(guess, tz));
}

/** Year, month, day and weekday (0 = Sunday) of an instant as seen in `tz`. */
export function zonedDate(at: Date, tz: string): { year: number; month: number; day: number; weekday: number } {
  const parts = Object.fromEntries(new Intl.DateTimeFormat('en-US', { timeZone: tz, year: 'numeric', month: '2-digit', day: '2-digit', weekday: 'short' })
    .formatToParts(at).map((p) => [p.type, p.value]));
  return { year: Number(parts.year), month: Number(parts.month), day: Number(parts.day), weekday: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'].indexOf(String(parts.weekday)) };
}

export function isTimeZoneName(tz: string): boolean {
  return isTimeZone(tz);
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?$/;
const ABSOLUTE = /(Z|[+-]\d{2}:?\d{2})$/i;

/**
 * Reads `scheduled_date`: an ISO-8601 date-time with an offset (or Z) is an instant; one without
 * is a wall-clock time in `timezone` (IANA, default UTC). Must be in the future and at most 365
 * days ahead.
 */
export function parseScheduledDate(raw: string, timezone: string | undefined, now: Date): Date {
  const tz = timezone || 'UTC';
  if (!isTimeZone(tz)) throw invalidInput(`timezone "${tz}" is not an IANA time zone (e.g. Europe/Paris).`, { violations: [{ field: 'timezone', message: 'unknown time zone' }] });
  let at: number;
  const local = LOCAL.exec(raw.trim());
  if (ABSOLUTE.test(raw.trim())) {
    at = Date.parse(raw);
  } else if (local) {
    const [, y, mo, d, h, mi, s, ms] = local;
    at = zonedTimeToUtc({ year: Number(y), month: Number(mo), day: Number(d), hour: Number(h), minute: Number(mi), second: Number(s ?? 0), ms: Number((ms ?? '0').padEnd(3, '0')) }, tz).getTime();
  } else {
    at = NaN;
  }
  if (!Number.isFinite(at)) {
    throw invalidInput(`scheduled_date "${raw}" is not an ISO-8601 date-time (e.g. 2026-12-24T18:00:00 with timezone, or 2026-12-24T17:00:00Z).`, { violations: [{ field: 'scheduled_date', message: 'not an ISO-8601 date-time' }] });
  }
  if (at <= now.getTime()) throw invalidInput(`scheduled_date ${new Date(at).toISOString()} is in the past: it must be in the future.`, { violations: [{ field: 'scheduled_date', message: 'must be in the future' }] });
  if (at - now.getTime() > MAX_SCHEDULE_AHEAD_MS) throw invalidInput('scheduled_date is more than 365 days ahead.', { violations: [{ field: 'scheduled_date', message: 'at most 365 days ahead' }] });
  return new Date(at);
}
