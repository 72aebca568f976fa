import { invalidInput } from './errors';

/**
 * Where a cursor-paged list stopped: the hour bucket of the last item returned and that item's
 * sort position (time in ms, then id, both descending in the newest-first lists). The next page
 * starts right after it, in that bucket, whatever was added meanwhile.
 */
export interface PagePosition {
  /** Hour bucket, `YYYY-MM-DDTHH` (UTC). */
  hour: string;
  /** Sort time of the last item, ms since the epoch. */
  t: number;
  /** Id of the last item (ties of `t`). */
  id: string;
}

const HOUR = /^\d{4}-\d{2}-\d{2}T\d{2}$/;

/**
 * A short digest of the filters a cursor was issued for: a cursor sent with other filters (or to
 * another list) is refused instead of paging a list it does not belong to.
 */
export function listFingerprint(list: string, filters: Record<string, unknown>): string {
  const canonical = JSON.stringify([list, Object.keys(filters).sort().map((k) => [k, filters[k] instanceof Date ? (filters[k] as Date).toISOString() : filters[k] ?? null])]);
  return fnv1a64(canonical);
}

/**
 * FNV-1a, 64 bits, in base 36: core has no Node built-ins, and a digest that only tells filter
 * sets apart needs no cryptography (a cursor grants nothing: the account comes from the caller).
 */
function fnv1a64(text: string): string {
  let h = 0xcbf29ce484222325n;
  for (const byte of new TextEncoder().encode(text)) h = ((h ^ BigInt(byte)) * 0x100000001b3n) & 0xffffffffffffffffn;
  return h.toString(36);
}

/** The opaque `next_cursor` text: base64url of a small JSON document. */
export function encodePageCursor(position: PagePosition, fingerprint: string): string {
  return Buffer.from(JSON.stringify({ v: 1, f: fingerprint, h: position.hour, t: position.t, i: position.id }), 'utf8').toString('base64url');
}

/** Reads a cursor back; a cursor that is not one of ours, or was issued for other filters, is a 400 `invalid_cursor`. */
export function decodePageCursor(text: string, fingerprint: string): PagePosition {
  const refuse = (why: string) =>
    invalidInput(`cursor is not valid here: ${why}. Send the next_cursor of the previous page unchanged, with the same filters, or omit it to start from the newest.`, undefined, 'invalid_cursor');
  if (text.length > 512 || !/^[A-Za-z0-9_-]+$/.test(text)) throw refuse('it is not a cursor this API issued');
  let doc: unknown;
  try {
    doc = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw refuse('it is not a cursor this API issued');
  }
  const d = doc as Record<string, unknown>;
  if (typeof d !== 'object' || d === null || d.v !== 1 || typeof d.h !== 'string' || !HOUR.test(d.h)
    || typeof d.t !== 'number' || !Number.isFinite(d.t) || typeof d.i !== 'string' || typeof d.f !== 'string') {
    throw refuse('it is not a cursor this API issued');
  }
  if (d.f !== fingerprint) throw refuse('it was issued for other filters');
  return { hour: d.h, t: d.t, id: d.i };
}
