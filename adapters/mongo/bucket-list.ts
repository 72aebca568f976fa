import type { PagePosition } from '../../core/domain/page-cursor';
import { hourBucket, laneHours, type HourCounts } from './list-counters';

/**
 * One page of a list stored in time buckets (docs/storage/lists.md). The records carry an
 * equality key per list and bucket at three sizes (month `YYYY-MM`, day `YYYY-MM-DD`, hour
 * `YYYY-MM-DDTHH`); the list's counters say how many records each hour holds. A page reads the
 * counters (one query), plans which buckets it falls in (the whole month when the month holds at
 * most BUCKET_READ records, else the day, else the hour) and reads those together: its cost is
 * the page size plus at most one bucket's worth of records at each end, whatever the list holds.
 */
export const BUCKET_READ = 64;

export interface BucketPageQuery<T> {
  counts: HourCounts;
  lane: string;
  /** Records at or after `from` and at or before `to` (exact: the buckets they cut are read and filtered). */
  from?: Date;
  to?: Date;
  limit: number;
  /** Page form: records to skip. */
  offset?: number;
  /** Cursor form: start right after this record. */
  after?: PagePosition;
  /** Every record of one bucket of the list (month, day or hour key; any order). */
  read(bucket: string): Promise<T[]>;
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

/** The bucket keys of a time: month, day and hour (what a record stores for each list it is in). */
export const bucketsOf = (at: Date): [string, string, string] => {
  const hour = hourBucket(at);
  return [hour.slice(0, 7), hour.slice(0, 10), hour];
};

type Position = { t: number; id: string };
const newestFirst = (a: Position, b: Position) => b.t - a.t || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

interface Segment { key: string; count: number; cut: boolean }

/** Bucket segments in the list's order: months, or days of a full month, or hours of a full day. */
function plan(hours: Array<[string, number]>, cuts: (key: string) => boolean): Segment[] {
  const segments: Segment[] = [];
  const group = (items: Array<[string, number]>, width: number) => {
    const out: Array<[string, Array<[string, number]>, number]> = [];
    for (const it of items) {
      const key = it[0].slice(0, width);
      const last = out[out.length - 1];
      if (last && last[0] === key) { last[1].push(it); last[2] += it[1]; } else out.push([key, [it], it[1]]);
    }
    return out;
  };
  for (const [month, inMonth, monthCount] of group(hours, 7)) {
    if (monthCount <= BUCKET_READ) { segments.push({ key: month, count: monthCount, cut: cuts(month) }); continue; }
    for (const [day, inDay, dayCount] of group(inMonth, 10)) {
      if (dayCount <= BUCKET_READ) { segments.push({ key: day, count: dayCount, cut: cuts(day) }); continue; }
      for (const [hour, n] of inDay) segments.push({ key: hour, count: n, cut: cuts(hour) });
    }
  }
  return segments;
}

export async function bucketPage<T>(q: BucketPageQuery<T>): Promise<BucketPage<T>> {
  const asc = q.order === 'asc';
  /** Negative when `a` comes first in the list's order. */
  const order = (a: Position, b: Position) => (asc ? -newestFirst(a, b) : newestFirst(a, b));
  // The plan is made from every hour of the lane: a bucket is read whole only when it holds few
  // records in all, not just within the range. Then only the segments the range overlaps stay.
  const hours = laneHours(q.counts, q.lane);
  if (asc) hours.reverse();
  const lo = q.from?.getTime() ?? -Infinity;
  const hi = q.to?.getTime() ?? Infinity;
  const loHour = q.from ? hourBucket(q.from) : '';
  const hiHour = q.to ? hourBucket(q.to) : '\uffff';
  const edgeHours = [q.from, q.to].filter((d): d is Date => d !== undefined).map(hourBucket);
  const segments = plan(hours, (key) => edgeHours.some((h) => h.startsWith(key)))
    .filter((seg) => seg.key >= loHour.slice(0, seg.key.length) && seg.key <= hiHour.slice(0, seg.key.length));

  const loaded = new Map<string, Promise<T[]>>();
  const load = (key: string): Promise<T[]> => {
    let items = loaded.get(key);
    if (!items) {
      items = q.read(key).then((all) => all
        .filter((it) => { const t = q.position(it).t; return t >= lo && t <= hi; })
        .sort((a, b) => order(q.position(a), q.position(b))));
      loaded.set(key, items);
    }
    return items;
  };
  // The segments a range cuts are counted exactly: at most two bucket reads.
  const counts = await Promise.all(segments.map(async (s) => (s.cut ? (await load(s.key)).length : s.count)));
  const total = counts.reduce((sum, n) => sum + n, 0);

  // Where the page starts: after the cursor's record, or `offset` records in.
  let i = 0;
  let skip = Math.max(0, Math.floor(q.offset ?? 0));
  let afterCursor: ((it: T) => boolean) | undefined;
  if (q.after) {
    const after = q.after;
    skip = 0;
    i = segments.findIndex((s) => after.hour.startsWith(s.key) || (asc ? s.key > after.hour : s.key < after.hour));
    if (i < 0) i = segments.length;
    else if (after.hour.startsWith(segments[i]!.key)) afterCursor = (it) => order({ t: after.t, id: after.id }, q.position(it)) < 0;
  } else {
    while (i < segments.length && skip >= counts[i]!) { skip -= counts[i]!; i += 1; }
  }
  // The segments the page needs (one record more, to know whether a next page exists), read together.
  const needed: number[] = [];
  for (let want = skip + q.limit + 1, j = i; j < segments.length && want > 0; j += 1) {
    needed.push(j);
    want -= counts[j]!;
  }
  const read = await Promise.all(needed.map((j) => load(segments[j]!.key)));
  const items: T[] = [];
  read.forEach((bucket, k) => {
    const rest = k === 0 && afterCursor ? bucket.filter(afterCursor) : bucket;
    items.push(...(k === 0 ? rest.slice(skip) : rest));
  });
  // A count above the truth (a write that died between its count and its record) can leave the
  // planned segments short: read on until the page is full or the list ends.
  for (let j = (needed[needed.length - 1] ?? i - 1) + 1; items.length <= q.limit && j < segments.length; j += 1) {
    items.push(...(await load(segments[j]!.key)));
  }
  const page = items.slice(0, q.limit);
  const last = page[page.length - 1];
  const next = items.length > q.limit && last ? { hour: hourBucket(new Date(q.position(last).t)), ...q.position(last) } : undefined;
  return { items: page, total, ...(next ? { next } : {}) };
}
