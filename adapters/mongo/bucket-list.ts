import type { PagePosition } from '../../core/domain/page-cursor';
import { hourBucket, laneHours, type HourCounts } from './list-counters';

/**
 * One page of a newest-first list stored in hour buckets (docs/storage/lists.md): the records
 * carry an equality key per list and hour, the list's counters say which hours hold how many.
 * A page reads the counters (one query) and then only the buckets the page falls in, so its
 * cost depends on the page size and the records of one hour, not on the list's length.
 */
export interface BucketPageQuery<T> {
  counts: HourCounts;
  lane: string;
  /** Records at or after `from` and at or before `to` (exact: edge hours are read and filtered). */
  from?: Date;
  to?: Date;
  limit: number;
  /** Page form: records to skip. */
  offset?: number;
  /** Cursor form: start right after this record. */
  after?: PagePosition;
  /** Every record of one hour bucket of the list (any order). */
  read(hour: string): Promise<T[]>;
  /** A record's sort time (ms) and id. */
  position(item: T): { t: number; id: string };
  /** `desc` (default): newest first; `asc`: soonest first (the schedule). */
  order?: 'asc' | 'desc';
}

export interface BucketPage<T> {
  items: T[];
  total: number;
  /** Where the next page starts; absent on the last page. */
  next?: PagePosition;
}

type Position = { t: number; id: string };
const newestFirst = (a: Position, b: Position) => b.t - a.t || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

export async function bucketPage<T>(q: BucketPageQuery<T>): Promise<BucketPage<T>> {
  const asc = q.order === 'asc';
  /** Negative when `a` comes first in the list's order. */
  const order = (a: Position, b: Position) => (asc ? -newestFirst(a, b) : newestFirst(a, b));
  const hours = laneHours(q.counts, q.lane, q.from, q.to);
  if (asc) hours.reverse();
  /** True when hour `a` comes before hour `b` in the list's order. */
  const before = (a: string, b: string) => (asc ? a < b : a > b);
  const lo = q.from?.getTime() ?? -Infinity;
  const hi = q.to?.getTime() ?? Infinity;
  const loaded = new Map<string, T[]>();
  const load = async (hour: string): Promise<T[]> => {
    let items = loaded.get(hour);
    if (!items) {
      items = (await q.read(hour))
        .filter((it) => { const t = q.position(it).t; return t >= lo && t <= hi; })
        .sort((a, b) => order(q.position(a), q.position(b)));
      loaded.set(hour, items);
    }
    return items;
  };
  // The hours a range cuts are counted exactly: at most two bucket reads.
  const edges = new Set<string>();
  if (q.from && hours.some(([h]) => h === hourBucket(q.from!))) edges.add(hourBucket(q.from));
  if (q.to && hours.some(([h]) => h === hourBucket(q.to!))) edges.add(hourBucket(q.to));
  const counted = await Promise.all(hours.map(async ([h, n]) => [h, edges.has(h) ? (await load(h)).length : n] as [string, number]));
  const total = counted.reduce((sum, [, n]) => sum + n, 0);

  const items: T[] = [];
  let skip = Math.max(0, Math.floor(q.offset ?? 0));
  let i = 0;
  if (q.after) {
    const after = q.after;
    while (i < counted.length && before(counted[i][0], after.hour)) i += 1;
    skip = 0;
    // Within the cursor's hour, everything up to and including the cursor's record was returned.
    if (i < counted.length && counted[i][0] === after.hour) {
      const rest = (await load(after.hour)).filter((it) => order({ t: after.t, id: after.id }, q.position(it)) < 0);
      items.push(...rest.slice(0, q.limit + 1));
      i += 1;
    }
  }
  for (; i < counted.length && items.length <= q.limit; i += 1) {
    const [hour, n] = counted[i];
    if (skip >= n) {
      skip -= n;
      continue;
    }
    const bucket = await load(hour);
    items.push(...bucket.slice(skip, skip + q.limit + 1 - items.length));
    skip = 0;
  }
  const page = items.slice(0, q.limit);
  const last = page[page.length - 1];
  const next = items.length > q.limit && last ? { hour: hourBucket(new Date(q.position(last).t)), ...q.position(last) } : undefined;
  return { items: page, total, ...(next ? { next } : {}) };
}
