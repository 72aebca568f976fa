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

/** Checks queue settings from a request; every problem is named. */
export function validateQueueSettings(input: { timezone?: unknown; slots?: unknown; posts_per_slot?: unknown }): { timezone: string; slots: QueueSlotTime[]; postsPerSlot: number } {
  const violations: Array<{ field: string; message: string }> = [];
  const timezone = input.timezone === undefined ? 'UTC' : String(input.timezone);
  if (!isTimeZoneName(timezone)) violations.push({ field: 'timezone', message: `"${timezone}" is not an IANA time zone` });
  const slots: QueueSlotTime[] = [];
  if (!Array.isArray(input.slots) || input.slots.length === 0) {
    violations.push({ field: 'slots', message: 'slots must be a non-empty list of {day: mon..sun, time: "HH:MM"}' });
  } else {
    input.slots.forEach((raw, i) => {
      const slot = raw as { day?: unknown; time?: unknown };
      const day = String(slot?.day ?? '').toLowerCase().slice(0, 3) as Weekday;
      if (!WEEKDAYS.includes(day)) violations.push({ field: `slots[${i}].day`, message: 'day must be one of mon, tue, wed, thu, fri, sat, sun' });
      if (!TIME.test(String(slot?.time ?? ''))) violations.push({ field: `slots[${i}].time`, message: 'time must be HH:MM (24 h)' });
      slots.push({ day, time: String(slot?.time) });
    });
  }
  const postsPerSlot = input.posts_per_slot === undefined ? 1 : Number(input.posts_per_slot);
  if (!Number.isInteger(postsPerSlot) || postsPerSlot < 1 || postsPerSlot > 100) violations.push({ field: 'posts_per_slot', message: 'posts_per_slot must be a whole number from 1 to 100' });
  if (violations.length) throw invalidInput(violations.map((v) => `${v.field}: ${v.message}`).join('; '), { violations });
  const unique = [...new Map(slots.map((s) => [`${s.day} ${s.time}`, s])).values()];
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
