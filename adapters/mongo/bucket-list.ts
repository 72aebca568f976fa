import type { PagePosition } from '../../core/domain/page-cursor';
import { hourBucket, laneHours, type HourCounts } from './list-counters';

/**
 * One page of a list stored in time buckets (docs/storage/lists.md). The records carry an
 * equality key per list and bucket at three sizes (month `YYYY-MM`, day `YYYY-MM-DD`, hour
 * `YYYY-MM-DDTHH`); the list's counters say how many records each hour holds. A page reads the
 * counters (one query), finds from them the hours its records are in, and reads those hours'
 * records together in the cheapest way: a whole day or month bucket where that costs less than
 * its hours one by one (a query costs about BUCKET_QUERY_COST records), the hours otherwise.
 * Its cost is the page size plus at most a few queries' worth of records, whatever the list holds.
 */
export const BUCKET_QUERY_COST = 8;
/**
 * The most records a page reads beyond its own (limit + 1) and the range's two edge hours: each
 * record more than needed was worth a query saved, and a page saves fewer queries than it has
 * records. Tests bound their reads with it.
 */
export const bucketReadBound = (limit: number) => (limit + 1) * (BUCKET_QUERY_COST + 1);

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
  /** The list's records carry ten-minute slot keys and its counters count the slots (see SLOTS). */
  slotted?: boolean;
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

/** Hours (with their counts, in list order) grouped by month or day: [key, hours, records]. */
function group(items: Array<[string, number]>, width: number): Array<[string, Array<[string, number]>, number]> {
  const out: Array<[string, Array<[string, number]>, number]> = [];
  for (const it of items) {
    const key = it[0].slice(0, width);
    const last = out[out.length - 1];
    if (last && last[0] === key) { last[1].push(it); last[2] += it[1]; } else out.push([key, [it], it[1]]);
  }
  return out;
}

/**
 * The buckets to read for the hours `wanted` (a run of the list's hours): per month, the month
 * bucket or the best of its days; per day, the day bucket or its wanted hours. `all` holds every
 * hour of the lane (a month or day bucket returns all of them).
 */
function cover(wanted: Array<[string, number]>, all: Map<string, number>): string[] {
  const total = (prefix: string) => {
    let n = 0;
    for (const [h, c] of all) if (h.startsWith(prefix)) n += c;
    return n;
  };
  const out: string[] = [];
  for (const [month, inMonth] of group(wanted, 7)) {
    const days = group(inMonth, 10).map(([day, inDay]) => {
      const hoursCost = inDay.reduce((sum, [, c]) => sum + BUCKET_QUERY_COST + c, 0);
      const dayCost = BUCKET_QUERY_COST + total(day);
      return dayCost <= hoursCost ? { keys: [day], cost: dayCost } : { keys: inDay.map(([h]) => h), cost: hoursCost };
    });
    const daysCost = days.reduce((sum, d) => sum + d.cost, 0);
    if (BUCKET_QUERY_COST + total(month) <= daysCost) out.push(month);
    else for (const d of days) out.push(...d.keys);
  }
  return out;
}

/**
 * Ten-minute slots (optional, per list): a list whose records also carry the key
 * `<list>#<YYYY-MM-DDTHH>:<slot>` (slot 0 = minutes 0-9 … 5 = minutes 50-59) and whose writers
 * count each record in the lane `slotLane(lane, slot)` too lets a page read only the slots of a
 * dense hour it needs (a burst of 90 records in one hour: the 20 of page 1 in two slots, not the
 * hour), and count a range's edge hour by reading only the slot the range cuts.
 * An hour is read by slots only where its slot counts add up to its count (every record of the
 * hour has a slot key: records stored before the list had them have none until migrated).
 */
export const SLOTS = 6;
const SLOT_MS = 3600_000 / SLOTS;
const SLOT_NAMES = 'abcdef';
/** The slot (0-5) of a time. */
export const slotOf = (at: Date): number => Math.floor(at.getUTCMinutes() / 10);
/** The slot bucket key of a time: `YYYY-MM-DDTHH:<slot>`. */
export const slotBucket = (at: Date): string => `${hourBucket(at)}:${slotOf(at)}`;
/** The counter lane a lane's records of one slot are counted in (lanes are plain words). */
export const slotLane = (lane: string, slot: number): string => `${lane}_${SLOT_NAMES[slot]}`;
/** An hour is split into its slots when it holds more than this (or when a range cuts it). */
const SPLIT_ABOVE = 2 * BUCKET_QUERY_COST;

/** What a page walks: an hour bucket, or one slot of a split hour, in list order. */
interface Unit { key: string; hour: string; n: number; lo: number; hi: number }

export async function bucketPage<T>(q: BucketPageQuery<T>): Promise<BucketPage<T>> {
  const asc = q.order === 'asc';
  /** Negative when `a` comes first in the list's order. */
  const order = (a: Position, b: Position) => (asc ? -newestFirst(a, b) : newestFirst(a, b));
  const lo = q.from?.getTime() ?? -Infinity;
  const hi = q.to?.getTime() ?? Infinity;
  const inRange = (it: T) => { const t = q.position(it).t; return t >= lo && t <= hi; };
  const hourOf = (it: T) => hourBucket(new Date(q.position(it).t));
  const lane = laneHours(q.counts, q.lane);
  const all = new Map(lane);
  // The range's hours, in list order; the two it cuts are read and counted exactly.
  const loHour = q.from ? hourBucket(q.from) : '';
  const hiHour = q.to ? hourBucket(q.to) : '\uffff';
  const hours = lane.filter(([h]) => h >= loHour && h <= hiHour);
  if (asc) hours.reverse();
  const edgeHours = new Set([q.from, q.to].filter((d): d is Date => d !== undefined).map(hourBucket));

  // The units walked: each hour, or the slots of an hour split (dense, or cut by the range).
  const split = new Set<string>();
  const units: Unit[] = [];
  for (const [h, n] of hours) {
    const start = Date.parse(`${h}:00:00.000Z`);
    const slots = q.slotted && (n > SPLIT_ABOVE || edgeHours.has(h))
      ? Array.from({ length: SLOTS }, (_, k) => q.counts.get(slotLane(q.lane, k))?.get(h) ?? 0) : undefined;
    if (!slots || slots.reduce((sum, c) => sum + c, 0) !== n) {
      units.push({ key: h, hour: h, n, lo: start, hi: start + 3600_000 - 1 });
      continue;
    }
    split.add(h);
    for (let x = 0; x < SLOTS; x += 1) {
      const k = asc ? x : SLOTS - 1 - x;
      const u = { key: `${h}:${k}`, hour: h, n: slots[k]!, lo: start + k * SLOT_MS, hi: start + (k + 1) * SLOT_MS - 1 };
      if (u.n > 0 && u.hi >= lo && u.lo <= hi) units.push(u);
    }
  }
  const unitOf = (it: T) => {
    const t = q.position(it).t;
    const h = hourBucket(new Date(t));
    return split.has(h) ? `${h}:${slotOf(new Date(t))}` : h;
  };

  const loaded = new Map<string, Promise<T[]>>();
  const load = (key: string): Promise<T[]> => {
    let items = loaded.get(key);
    if (!items) {
      items = q.read(key).then((found) => found.filter(inRange));
      loaded.set(key, items);
    }
    return items;
  };
  const isEdge = (u: Unit) => (q.from !== undefined && lo >= u.lo && lo <= u.hi) || (q.to !== undefined && hi >= u.lo && hi <= u.hi);
  const counts = await Promise.all(units.map(async (u) => (isEdge(u) ? (await load(u.key)).length : u.n)));
  const total = counts.reduce((sum, n) => sum + n, 0);

  // Where the page starts: the unit of the cursor's record (records after it), or `offset` records in.
  let i = 0;
  let skip = Math.max(0, Math.floor(q.offset ?? 0));
  let afterCursor: ((it: T) => boolean) | undefined;
  if (q.after) {
    const after = q.after;
    skip = 0;
    i = units.findIndex((u) => (asc ? u.hi >= after.t : u.lo <= after.t));
    if (i < 0) i = units.length;
    else if (units[i]!.lo <= after.t && after.t <= units[i]!.hi) afterCursor = (it) => order({ t: after.t, id: after.id }, q.position(it)) < 0;
  } else {
    while (i < units.length && skip >= counts[i]!) { skip -= counts[i]!; i += 1; }
  }
  // The units the page needs (one record more, to know whether a next page exists).
  let j = i;
  for (let want = skip + q.limit + 1; j < units.length && want > 0; j += 1) want -= counts[j]!;
  const first = units[i]?.key;
  const pick = async (from: number, to: number): Promise<T[]> => {
    if (from >= to) return [];
    const wanted = units.slice(from, to);
    const keep = new Set(wanted.map((u) => u.key));
    // Per hour: its wanted slots, or the whole hour where one query for it costs less.
    const wholeHours: Array<[string, number]> = [];
    const slotKeys: string[] = [];
    for (const [hour, us] of group(wanted.map((u) => [u.key, u.n] as [string, number]), 13)) {
      if (!split.has(hour)) {
        if (!loaded.has(hour)) wholeHours.push([hour, us[0]![1]]);
        continue;
      }
      const unread = us.filter(([k]) => !loaded.has(k));
      const slotCost = unread.reduce((sum, [, n]) => sum + BUCKET_QUERY_COST + n, 0);
      if (unread.length > 1 && BUCKET_QUERY_COST + all.get(hour)! < slotCost) wholeHours.push([hour, all.get(hour)!]);
      else slotKeys.push(...unread.map(([k]) => k));
    }
    // A unit read already (a range's edge) is not read again inside a bigger bucket.
    const buckets = [...cover(wholeHours, all), ...slotKeys];
    const read = await Promise.all([...buckets.map(load), ...wanted.filter((u) => loaded.has(u.key)).map((u) => load(u.key))]);
    const seen = new Set<string>();
    const items = read.flat().filter((it) => {
      const p = q.position(it);
      const id = `${p.t}\u0000${p.id}`;
      if (seen.has(id) || !keep.has(unitOf(it))) return false;
      seen.add(id);
      return true;
    });
    return items.sort((a, b) => order(q.position(a), q.position(b)));
  };
  let items = await pick(i, j);
  if (afterCursor) items = items.filter((it) => unitOf(it) !== first || afterCursor!(it));
  items = items.slice(skip);
  // A count above the truth (a write that died between its count and its record) can leave the
  // planned units short: read on until the page is full or the list ends.
  while (items.length <= q.limit && j < units.length) {
    const from = j;
    for (let want = q.limit + 1 - items.length; j < units.length && want > 0; j += 1) want -= counts[j]!;
    items.push(...(await pick(from, j)));
  }
  const page = items.slice(0, q.limit);
  const last = page[page.length - 1];
  const next = items.length > q.limit && last ? { hour: hourOf(last), ...q.position(last) } : undefined;
  return { items: page, total, ...(next ? { next } : {}) };
}
