import { BUCKET_QUERY_COST, bucketPage, bucketReadBound, bucketsOf, slotBucket, slotLane, slotOf } from '../../adapters/mongo/bucket-list';
import { hourBucket, type HourCounts } from '../../adapters/mongo/list-counters';
import type { PagePosition } from '../../core/domain/page-cursor';
import { seededRandom } from '../support/seeded-random';

/**
 * The page walker (adapters/mongo/bucket-list.ts) on records held in memory, against the plain
 * answer (filter, sort, slice), over lists of every density: sparse months, dense days, a burst
 * hour. Each read is counted: a page never costs more than reading its hours one by one would
 * (a query counted as BUCKET_QUERY_COST records), and never more than bucketReadBound records
 * beyond the range's two edge hours.
 */
interface Rec { id: string; t: number }

const HOUR = 3600_000;
const START = Date.parse('2026-01-01T00:00:00Z');

function makeList(seed: number): Rec[] {
  const r = seededRandom(seed);
  const out: Rec[] = [];
  let n = 0;
  const add = (t: number) => out.push({ id: `r${(n++).toString(36).padStart(5, '0')}`, t: Math.floor(t) });
  // Sparse: 40 records over three months.
  for (let i = 0; i < 40; i += 1) add(START + r() * 90 * 24 * HOUR);
  // Dense: 600 records over four days in February.
  for (let i = 0; i < 600; i += 1) add(Date.parse('2026-02-10T00:00:00Z') + r() * 4 * 24 * HOUR);
  // A burst: 150 records in one hour; and ties (the same millisecond).
  for (let i = 0; i < 150; i += 1) add(Date.parse('2026-03-05T14:00:00Z') + r() * HOUR);
  for (let i = 0; i < 5; i += 1) add(Date.parse('2026-03-20T09:30:00Z'));
  return out;
}

/** The counts of the list; `slotted`: its ten-minute slots counted too (lanes slotLane('all', slot)). */
function countsOf(recs: Rec[], slotted = false): HourCounts {
  const out: HourCounts = new Map([['all', new Map<string, number>()]]);
  const add = (lane: string, h: string) => {
    const m = out.get(lane) ?? out.set(lane, new Map()).get(lane)!;
    m.set(h, (m.get(h) ?? 0) + 1);
  };
  for (const rec of recs) {
    const h = hourBucket(new Date(rec.t));
    add('all', h);
    if (slotted) add(slotLane('all', slotOf(new Date(rec.t))), h);
  }
  return out;
}

const newestFirst = (a: Rec, b: Rec) => b.t - a.t || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

describe.each([false, true])('bucketPage against the plain answer (ten-minute slots: %s)', (slotted) => {
  const recs = makeList(27);
  const counts = countsOf(recs, slotted);
  const byBucket = new Map<string, Rec[]>();
  for (const rec of recs) {
    for (const b of [...bucketsOf(new Date(rec.t)), ...(slotted ? [slotBucket(new Date(rec.t))] : [])]) (byBucket.get(b) ?? byBucket.set(b, []).get(b)!).push(rec);
  }
  const hourSize = (t: number) => counts.get('all')!.get(hourBucket(new Date(t))) ?? 0;

  async function page(opts: { limit: number; offset?: number; after?: PagePosition; from?: Date; to?: Date; order?: 'asc' | 'desc' }) {
    const reads = { queries: 0, docs: 0 };
    const result = await bucketPage<Rec>({
      counts, lane: 'all', limit: opts.limit, slotted,
      ...(opts.after ? { after: opts.after } : { offset: opts.offset ?? 0 }),
      ...(opts.from ? { from: opts.from } : {}), ...(opts.to ? { to: opts.to } : {}), ...(opts.order ? { order: opts.order } : {}),
      read: async (bucket) => {
        const found = byBucket.get(bucket) ?? [];
        reads.queries += 1;
        reads.docs += found.length;
        return [...found];
      },
      position: (rec) => ({ t: rec.t, id: rec.id }),
    });
    return { result, reads };
  }

  /** The plain answer, and what reading exactly the hours of the page (and the range's edge hours) costs. */
  function expected(opts: { limit: number; offset?: number; after?: PagePosition; from?: Date; to?: Date; order?: 'asc' | 'desc' }) {
    const lo = opts.from?.getTime() ?? -Infinity;
    const hi = opts.to?.getTime() ?? Infinity;
    const sorted = recs.filter((x) => x.t >= lo && x.t <= hi).sort(newestFirst);
    if (opts.order === 'asc') sorted.reverse();
    let from = opts.offset ?? 0;
    if (opts.after) {
      const a = opts.after;
      const before = opts.order === 'asc' ? (x: Rec) => x.t > a.t || (x.t === a.t && x.id > a.id) : (x: Rec) => x.t < a.t || (x.t === a.t && x.id < a.id);
      from = sorted.findIndex(before);
      if (from < 0) from = sorted.length;
    }
    const items = sorted.slice(from, from + opts.limit);
    const touched = new Set(sorted.slice(from, from + opts.limit + 1).map((x) => hourBucket(new Date(x.t))));
    if (opts.after) touched.add(opts.after.hour);
    const edges = [opts.from, opts.to].filter((d): d is Date => d !== undefined).map((d) => d.getTime());
    const exactCost = [...touched].reduce((sum, h) => sum + BUCKET_QUERY_COST + (counts.get('all')!.get(h) ?? 0), 0)
      + edges.reduce((sum, t) => sum + BUCKET_QUERY_COST + hourSize(t), 0);
    return { items, total: sorted.length, exactCost, edgeDocs: edges.reduce((sum, t) => sum + hourSize(t), 0) };
  }

  const cases: Array<{ name: string; opts: Parameters<typeof page>[0] }> = [];
  for (const limit of [1, 7, 20, 100]) {
    for (const offset of [0, 3, 35, 60, 300, 640, 700, 780, 790, 1000]) cases.push({ name: `limit ${limit}, offset ${offset}`, opts: { limit, offset } });
    for (const offset of [0, 41, 650]) cases.push({ name: `asc, limit ${limit}, offset ${offset}`, opts: { limit, offset, order: 'asc' } });
  }
  cases.push(
    { name: 'a range cutting two hours', opts: { limit: 20, offset: 10, from: new Date('2026-02-11T05:20:00Z'), to: new Date('2026-02-12T17:45:00Z') } },
    { name: 'a range inside the burst hour', opts: { limit: 10, offset: 5, from: new Date('2026-03-05T14:10:00Z'), to: new Date('2026-03-05T14:50:00Z') } },
    { name: 'a range over sparse months, ascending', opts: { limit: 5, offset: 2, from: new Date('2026-01-03T00:00:00Z'), to: new Date('2026-03-01T00:00:00Z'), order: 'asc' } },
  );

  it.each(cases)('$name: the same records and total, at no more than the hours cost', async ({ opts }) => {
    const { result, reads } = await page(opts);
    const want = expected(opts);
    expect(result.items.map((x) => x.id)).toEqual(want.items.map((x) => x.id));
    expect(result.total).toBe(want.total);
    expect(reads.docs + BUCKET_QUERY_COST * reads.queries).toBeLessThanOrEqual(want.exactCost);
    expect(reads.docs).toBeLessThanOrEqual(Math.max(bucketReadBound(opts.limit), want.exactCost) + want.edgeDocs);
  });

  it('walks every record once by cursor, newest first and soonest first, each page within its cost', async () => {
    for (const order of ['desc', 'asc'] as const) {
      const seen: string[] = [];
      let after: PagePosition | undefined;
      for (let guard = 0; guard < 200; guard += 1) {
        const opts = { limit: 17, order, ...(after ? { after } : {}) };
        const { result, reads } = await page(opts);
        const want = expected(opts);
        expect(result.items.map((x) => x.id)).toEqual(want.items.map((x) => x.id));
        expect(reads.docs + BUCKET_QUERY_COST * reads.queries).toBeLessThanOrEqual(want.exactCost);
        seen.push(...result.items.map((x) => x.id));
        if (!result.next) break;
        after = result.next;
      }
      const all = [...recs].sort(newestFirst);
      if (order === 'asc') all.reverse();
      expect(seen).toEqual(all.map((x) => x.id));
    }
  });

  it('reads a sparse month whole, and the hours of a dense day one by one', async () => {
    // The oldest records are sparse (January holds only a dozen): one query for the month.
    const sparse = await page({ limit: 5, offset: 0, order: 'asc' });
    expect(sparse.reads).toEqual({ queries: 1, docs: recs.filter((x) => new Date(x.t).getUTCMonth() === 0).length });
    // The newest are sparse too but share March with the burst hour: the hours, one by one.
    const late = await page({ limit: 5, offset: 0 });
    expect(late.reads.docs).toBeLessThan(20);
    // Deep in the dense days (~6 an hour): hours, not the day's 150.
    const dense = await page({ limit: 10, offset: 500 });
    expect(dense.reads.docs).toBeLessThan(60);
  });

  it('reads a burst hour by the slots the page needs (slotted lists), whole otherwise', async () => {
    // Offset 20 lands in the burst hour (150 records in 2026-03-05T14).
    const burst = await page({ limit: 10, offset: 20 });
    expect(burst.result.items.every((x) => hourBucket(new Date(x.t)) === '2026-03-05T14')).toBe(true);
    if (slotted) expect(burst.reads.docs).toBeLessThan(75);
    else expect(burst.reads.docs).toBeGreaterThanOrEqual(150);
    // A range cutting the burst hour counts it by reading the slot it cuts, not the hour.
    const cut = await page({ limit: 5, offset: 0, from: new Date('2026-03-05T14:25:00Z'), to: new Date('2026-03-05T14:42:00Z') });
    expect(cut.result.total).toBe(recs.filter((x) => x.t >= Date.parse('2026-03-05T14:25:00Z') && x.t <= Date.parse('2026-03-05T14:42:00Z')).length);
    if (slotted) expect(cut.reads.docs).toBeLessThan(75);
  });

  it('reads an hour whole when its slot counts miss records (stored before the list had slots)', async () => {
    if (!slotted) return;
    // One record of the burst hour has no slot key and is not counted in a slot.
    const lacking = recs.find((x) => hourBucket(new Date(x.t)) === '2026-03-05T14')!;
    const partial: HourCounts = new Map([...counts].map(([lane, m]) => [lane, new Map(m)]));
    const lane = partial.get(slotLane('all', slotOf(new Date(lacking.t))))!;
    lane.set('2026-03-05T14', lane.get('2026-03-05T14')! - 1);
    const slotKey = slotBucket(new Date(lacking.t));
    const want = [...recs].sort(newestFirst);
    for (const offset of [15, 20, 60, 120]) {
      const result = await bucketPage<Rec>({
        counts: partial, lane: 'all', limit: 10, offset, slotted,
        read: async (bucket) => (byBucket.get(bucket) ?? []).filter((x) => bucket !== slotKey || x !== lacking),
        position: (rec) => ({ t: rec.t, id: rec.id }),
      });
      expect(result.items.map((x) => x.id)).toEqual(want.slice(offset, offset + 10).map((x) => x.id));
    }
  });

  it('reads on when the counters say more than the buckets hold (a write that died after its count)', async () => {
    const inflated: HourCounts = new Map([...counts].map(([lane, m]) => [lane, new Map(m)]));
    const h = hourBucket(new Date(Date.parse('2026-03-20T09:30:00Z')));
    inflated.get('all')!.set(h, 50); // 5 there really
    const result = await bucketPage<Rec>({
      counts: inflated, lane: 'all', limit: 20, offset: 0, slotted,
      read: async (bucket) => [...(byBucket.get(bucket) ?? [])],
      position: (rec) => ({ t: rec.t, id: rec.id }),
    });
    expect(result.items.map((x) => x.id)).toEqual([...recs].sort(newestFirst).slice(0, 20).map((x) => x.id));
  });
});
