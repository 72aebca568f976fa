import { invalidInput } from './errors';
import { isTimeZoneName, zonedDate, zonedTimeToUtc } from './schedule';

/** A profile's posting queue: weekly time slots in a time zone, each taking `postsPerSlot` posts. */
export interface QueueSettings {
  accountId: string;
  profileUsername: string;
  timezone: string;
  slots: QueueSlotTime[];
  postsPerSlot: number;
  updatedAt: Date;
}

export const WEEKDAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export interface QueueSlotTime {
  day: Weekday;
  /** HH:MM, 24 h, wall clock in the queue's time zone. */
  time: string;
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)$/;

/**
 * The flat layout's day numbers (`days_of_week`, the layout of the commercial API the spec
 * mirrors): 0 = Monday … 6 = Sunday. Not `Date.getDay()`'s order, which starts on Sunday.
 */
export const DAYS_FROM_MONDAY: readonly Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];

/** Queue settings as a request sends them, in either layout (see `validateQueueSettings`). */
export interface QueueSettingsInput {
  timezone?: unknown;
  slots?: unknown;
  posts_per_slot?: unknown;
  max_posts_per_slot?: unknown;
  days_of_week?: unknown;
}

type Violation = { field: string; message: string };

const pad = (n: number) => String(n).padStart(2, '0');
const isWholeIn = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;

/** A slot's wall-clock time from `time` ("HH:MM") and/or `hour` + `minute`; when both are sent they must agree. */
function slotTime(slot: Record<string, unknown>, at: string, violations: Violation[]): string | undefined {
  const { time, hour, minute } = slot;
  if (time === undefined && hour === undefined) {
    violations.push(minute === undefined
      ? { field: `${at}.time`, message: 'each slot needs a time: "HH:MM", or hour (0-23) with an optional minute (0-59)' }
      : { field: `${at}.hour`, message: 'minute needs an hour (0-23)' });
    return undefined;
  }
  if (hour !== undefined && !isWholeIn(hour, 0, 23)) violations.push({ field: `${at}.hour`, message: 'hour must be a whole number from 0 to 23' });
  if (minute !== undefined && !isWholeIn(minute, 0, 59)) violations.push({ field: `${at}.minute`, message: 'minute must be a whole number from 0 to 59' });
  if (time === undefined) return isWholeIn(hour, 0, 23) && (minute === undefined || isWholeIn(minute, 0, 59)) ? `${pad(hour)}:${pad(minute ?? 0)}` : undefined;
  const match = TIME.exec(String(time));
  if (!match) {
    violations.push({ field: `${at}.time`, message: 'time must be HH:MM (24 h)' });
    return undefined;
  }
  // Both forms at once (what a read answers) must name the same time, or it is ambiguous.
  if (isWholeIn(hour, 0, 23) && hour !== Number(match[1])) violations.push({ field: `${at}.hour`, message: `hour ${hour} disagrees with time "${String(time)}"` });
  if (isWholeIn(minute, 0, 59) && minute !== Number(match[2])) violations.push({ field: `${at}.minute`, message: `minute ${minute} disagrees with time "${String(time)}"` });
  return String(time);
}

function capacity(input: QueueSettingsInput, violations: Violation[]): number {
  const read = (field: 'posts_per_slot' | 'max_posts_per_slot'): number | undefined => {
    if (input[field] === undefined) return undefined;
    const n = Number(input[field]);
    if (Number.isInteger(n) && n >= 1 && n <= 100) return n;
    violations.push({ field, message: `${field} must be a whole number from 1 to 100` });
    return undefined;
  };
  const ours = read('posts_per_slot');
  const theirs = read('max_posts_per_slot');
  if (ours !== undefined && theirs !== undefined && ours !== theirs) {
    violations.push({ field: 'max_posts_per_slot', message: `max_posts_per_slot ${theirs} disagrees with posts_per_slot ${ours}: send one of them, or the same value in both` });
  }
  return ours ?? theirs ?? 1;
}

/**
 * Checks queue settings from a request; every problem is named. Two layouts are understood:
 * per-day slots `[{day: mon..sun, time: "HH:MM"}]` with `posts_per_slot`, and the flat layout
 * `slots: [{hour, minute?}]` repeated on each of `days_of_week` (0 = Monday; every day when left
 * out) with `max_posts_per_slot`. A read answers both side by side, so a body may carry both forms
 * as long as they say the same thing; where they differ, the field is named.
 */
export function validateQueueSettings(input: QueueSettingsInput): { timezone: string; slots: QueueSlotTime[]; postsPerSlot: number } {
  const violations: Violation[] = [];
  const timezone = input.timezone === undefined ? 'UTC' : String(input.timezone);
  if (!isTimeZoneName(timezone)) violations.push({ field: 'timezone', message: `"${timezone}" is not an IANA time zone` });

  let days: Weekday[] | undefined;
  if (input.days_of_week !== undefined) {
    const raw = input.days_of_week;
    if (!Array.isArray(raw) || raw.length === 0 || !raw.every((d) => isWholeIn(d, 0, 6))) {
      violations.push({ field: 'days_of_week', message: 'days_of_week must be a non-empty list of day numbers from 0 (Monday) to 6 (Sunday)' });
    } else {
      days = DAYS_FROM_MONDAY.filter((_, n) => raw.includes(n));
    }
  }

  const slots: QueueSlotTime[] = [];
  if (!Array.isArray(input.slots) || input.slots.length === 0) {
    violations.push({ field: 'slots', message: 'slots must be a non-empty list of {day: mon..sun, time: "HH:MM"}, or of {hour, minute} with days_of_week' });
  } else {
    const perDay = (slot: unknown) => typeof slot === 'object' && slot !== null && (slot as { day?: unknown }).day !== undefined;
    const layoutPerDay = perDay(input.slots[0]);
    input.slots.forEach((raw, i) => {
      const at = `slots[${i}]`;
      if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
        violations.push({ field: at, message: 'each slot is an object: {day, time} or {hour, minute}' });
        return;
      }
      const slot = raw as Record<string, unknown>;
      if (perDay(slot) !== layoutPerDay) {
        violations.push({ field: `${at}.day`, message: 'slots mix layouts: either every slot has a day ({day, time}) or none does ({hour, minute} on days_of_week)' });
        return;
      }
      const day = layoutPerDay ? String(slot.day).toLowerCase().slice(0, 3) as Weekday : undefined;
      if (day !== undefined && !WEEKDAYS.includes(day)) violations.push({ field: `${at}.day`, message: 'day must be one of mon, tue, wed, thu, fri, sat, sun' });
      const time = slotTime(slot, at, violations);
      if (time === undefined) return;
      if (day !== undefined) slots.push({ day, time });
      else for (const d of days ?? DAYS_FROM_MONDAY) slots.push({ day: d, time });
    });
    if (layoutPerDay && days && violations.length === 0) {
      // Per-day slots name their days: days_of_week may repeat them (a read answers it) but not differ.
      const slotDays = DAYS_FROM_MONDAY.filter((d) => slots.some((s) => s.day === d));
      if (slotDays.join() !== days.join()) {
        violations.push({ field: 'days_of_week', message: `days_of_week names ${days.join(', ')} but the slots are on ${slotDays.join(', ')}: leave days_of_week out or make it match` });
      }
    }
  }
  const postsPerSlot = capacity(input, violations);
  if (violations.length) throw invalidInput(violations.map((v) => `${v.field}: ${v.message}`).join('; '), { violations });
  const unique = [...new Map(slots.map((s) => [`${s.day} ${s.time}`, s])).values()];
  // Monday first, then by time: the order reads answer in, whichever layout set them.
  unique.sort((a, b) => DAYS_FROM_MONDAY.indexOf(a.day) - DAYS_FROM_MONDAY.indexOf(b.day) || a.time.localeCompare(b.time));
  return { timezone, slots: unique, postsPerSlot };
}

/** The queue's slot instants after `after`, soonest first, for up to `days` days. */
export function* upcomingSlots(settings: Pick<QueueSettings, 'timezone' | 'slots'>, after: Date, days = 366): Generator<Date> {
  const start = zonedDate(after, settings.timezone);
  for (let offset = 0; offset < days; offset += 1) {
    // Noon UTC of the local day keeps the day arithmetic away from DST edges.
    const probe = new Date(Date.UTC(start.year, start.month - 1, start.day + offset, 12));
    const { year, month, day, weekday } = { ...zonedDate(probe, 'UTC'), weekday: probe.getUTCDay() };
    const times = settings.slots.filter((s) => s.day === WEEKDAYS[weekday]).map((s) => s.time).sort();
    for (const time of times) {
      const [hour, minute] = time.split(':').map(Number);
      const at = zonedTimeToUtc({ year, month, day, hour: hour!, minute: minute! }, settings.timezone);
      if (at > after) yield at;
    }
  }
}
