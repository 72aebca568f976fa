/**
 * Timestamps as JavaScript writes them (`Date#toISOString`, `2026-01-01T10:00:00.000Z`) from what
 * the networks send, without going through `Date.parse` for the common shapes: list mappers call
 * this for every item of every page. The fast path answers only for a UTC timestamp whose fields
 * are all in range (month 01-12, a day that exists in that month, 00:00:00 to 23:59:59), where the
 * result is the same fields re-written; anything else (offsets other than UTC, 24:00, 31 April,
 * fractions other than milliseconds) is left to the caller's general path, so every answer stays
 * exactly what `new Date(Date.parse(text)).toISOString()` gives.
 */

/** `YYYY-MM-DDTHH:MM:SS`, then `.mmm` or nothing, then `Z`, `+0000` or `+00:00`. */
const UTC_TIME = /^(\d{4})-(\d\d)-(\d\d)T([01]\d|2[0-3]):([0-5]\d):([0-5]\d)(\.\d{3})?(?:Z|\+00:?00)$/;

const daysIn = (year: number, month: number): number =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;

/** The ISO-8601 form of a UTC timestamp in a common shape, else undefined (use the general path). */
export function fastUtcIso(text: string): string | undefined {
  // The shapes are 20 to 29 characters long and end in UTC: cheap checks spare the regex the rest.
  if (text.length < 20 || text.length > 29) return undefined;
  if (!(text.endsWith('Z') || text.endsWith('+0000') || text.endsWith('+00:00'))) return undefined;
  const m = UTC_TIME.exec(text);
  if (!m) return undefined;
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysIn(Number(m[1]), month)) return undefined;
  return `${text.slice(0, 19)}${m[7] ?? '.000'}Z`;
}

/**
 * A Graph comment's `timestamp` (`2026-01-01T10:00:00+0000`) as ISO-8601, undefined when absent
 * (not a string, or empty). A timestamp no date can be read from throws a RangeError, as it always has.
 */
export function graphCreatedAt(value: unknown): string | undefined {
  if (typeof value !== 'string' || value === '') return undefined;
  return fastUtcIso(value) ?? new Date(value.replace(/\+0000$/, 'Z')).toISOString();
}

/** `text` as ISO-8601 when a date can be read from it (`Date.parse`, after the fast path), else undefined. */
export function isoOf(text: string | undefined): string | undefined {
  if (!text) return undefined;
  const fast = fastUtcIso(text);
  if (fast !== undefined) return fast;
  const t = Date.parse(text);
  return Number.isFinite(t) ? new Date(t).toISOString() : undefined;
}
