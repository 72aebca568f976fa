import { randomUUID } from 'node:crypto';
import type { Collection, Db, Document } from 'mongodb';
import { isDuplicateKey } from './collections';

/**
 * Counts of listed records per list, lane and hour, kept so that a list's totals, its pages'
 * offsets and its non-empty hour buckets are known without reading the records: the shape every
 * growing list uses (docs/storage/lists.md).
 *
 * FerretDB loses concurrent updates of one document, so each counter document has one writer:
 * `_id` = `<list>|<YYYY-MM>|<writer>`, where the writer is a slot this process holds
 * (`counter_writers`, a unique-key insert renewed while the process lives). Within the process the
 * updates of one document run one after another and the ones queued meanwhile go together in
 * the next write. A read sums the documents of every writer.
 *
 * Fields: `ck` (the list, equality key), `m` (the month), `s`: the counts as one JSON string,
 * `{<lane>: {<DDHH>: count}}`. One string and not a field per hour because FerretDB decodes a
 * document field by field: 14 documents of 9,000 counter fields took 300-500 ms to read, the
 * same counts as strings a few. The writer keeps its own documents in memory (it is their only
 * writer), so a write needs no read. A lane is a subset of the list (`all`, or a status) and a
 * plain lower-case word.
 */
export const LIST_COUNTERS = 'list_counters';
export const COUNTER_WRITERS = 'counter_writers';

export interface CounterDelta {
  list: string;
  lane: string;
  /** The record's sort time: its hour is the bucket counted. */
  at: Date;
  by: number;
}

/** Per lane, per hour bucket (`YYYY-MM-DDTHH`): the count, summed over writers. */
export type HourCounts = Map<string, Map<string, number>>;

export interface ListCounters {
  /** Applies the deltas; resolves once they are stored. */
  add(deltas: CounterDelta[]): Promise<void>;
  hours(list: string): Promise<HourCounts>;
  /**
   * Writes the counts of the lists as this process's writer, in bulk (the migration, the scale
   * bench's seeding). With `clear`, every count the lists held before is deleted first (a recount).
   */
  replace(lists: string[], counts: CounterDelta[], opts?: { clear?: boolean }): Promise<void>;
}

export const hourBucket = (d: Date): string => d.toISOString().slice(0, 13);
const LANE = /^[a-z_]+$/;
const WRITER_TTL_MS = 60_000;

interface DocState {
  pending: Map<string, number>;
  waiters: Array<{ resolve: () => void; reject: (err: unknown) => void }>;
  meta: { ck: string; m: string };
}

/** A counter document's counts: lane → `DDHH` → count (zero counts left out). */
type Counts = Record<string, Record<string, number>>;
const parseCounts = (doc: Document | null | undefined): Counts => {
  if (!doc || typeof doc.s !== 'string') return {};
  try {
    return JSON.parse(doc.s) as Counts;
  } catch {
    return {};
  }
};
/** How many counter documents of its own a process keeps in memory (each is written by it alone). */
const CACHED_DOCS = 20_000;

/**
 * The process's writer slot: the lowest free `w<n>`. An expired slot (its process died or
 * stalled past the lease) is taken over; a process that finds its slot taken takes another.
 */
function writerSlot(col: Collection<Document>, ttlMs: number, now: () => number) {
  const owner = randomUUID();
  let held: Promise<string> | null = null;
  let timer: NodeJS.Timeout | null = null;

  const claim = async (): Promise<string> => {
    for (let n = 0; ; n += 1) {
      const _id = `w${n}`;
      for (let attempt = 0; attempt < 2; attempt += 1) {
        try {
          await col.insertOne({ _id: _id as unknown as Document['_id'], owner, expiresAt: new Date(now() + ttlMs) });
          return _id;
        } catch (err) {
          if (!isDuplicateKey(err)) throw err;
        }
        const doc = await col.findOne({ _id: _id as unknown as Document['_id'] });
        if (!doc || (doc.expiresAt as Date).getTime() > now()) break;
        await col.deleteOne({ _id: _id as unknown as Document['_id'], owner: doc.owner, expiresAt: doc.expiresAt });
      }
    }
  };
  const renew = async () => {
    if (!held) return;
    const id = await held.catch(() => null);
    if (!id) return;
    const res = await col.updateOne({ _id: id as unknown as Document['_id'], owner }, { $set: { expiresAt: new Date(now() + ttlMs) } });
    if (res.matchedCount === 0) held = null; // taken over after a stall: the next write claims another slot
  };
  return {
    id(): Promise<string> {
      if (!held) {
        held = claim();
        held.catch(() => { held = null; });
        if (!timer) {
          timer = setInterval(() => { void renew().catch(() => undefined); }, Math.max(1000, Math.floor(ttlMs / 3)));
          timer.unref();
        }
      }
      return held;
    },
    stop() {
      if (timer) clearInterval(timer);
      timer = null;
    },
  };
}

export async function createListCounters(db: Db, opts: { writerTtlMs?: number; now?: () => number } = {}): Promise<ListCounters & { stop(): void }> {
  const counters = db.collection<Document>(LIST_COUNTERS);
  const writers = db.collection<Document>(COUNTER_WRITERS);
  await counters.createIndex({ ck: 1 }, { name: 'ck' });
  const slot = writerSlot(writers, opts.writerTtlMs ?? WRITER_TTL_MS, opts.now ?? Date.now);
  const states = new Map<string, DocState>();

  /**
   * The documents this process writes, as it last wrote them: one writer per document, so the
   * next write needs no read. A document is read once, the first time this process touches it
   * (its slot may have been another process's before).
   */
  const own = new Map<string, Counts>();
  const ownCounts = async (docId: string): Promise<Counts> => {
    let counts = own.get(docId);
    if (!counts) {
      counts = parseCounts(await counters.findOne({ _id: docId as unknown as Document['_id'] }));
      if (own.size >= CACHED_DOCS) own.delete(own.keys().next().value as string);
      own.set(docId, counts);
    }
    return counts;
  };

  /**
   * One flush at a time for the whole process: every document with counts queued goes into one
   * bulk write (one command however many lists and uploads changed meanwhile), and the changes
   * queued while it runs go together in the next one.
   */
  let flushing = false;
  const flush = async () => {
    while (states.size > 0) {
      const batch = [...states];
      states.clear();
      const next = new Map<string, Counts>();
      const ops: Array<{ updateOne: { filter: Document; update: Document; upsert: boolean } }> = [];
      try {
        for (const [docId, s] of batch) {
          if (![...s.pending.values()].some((n) => n !== 0)) continue;
          const counts = structuredClone(await ownCounts(docId));
          for (const [field, n] of s.pending) {
            const [lane, hour] = field.split('.') as [string, string];
            const lanes = (counts[lane] ??= {});
            const v = (lanes[hour] ?? 0) + n;
            if (v === 0) delete lanes[hour];
            else lanes[hour] = v;
            if (Object.keys(lanes).length === 0) delete counts[lane];
          }
          ops.push({ updateOne: { filter: { _id: docId as unknown as Document['_id'] }, update: { $set: { ...s.meta, s: JSON.stringify(counts) } }, upsert: true } });
          next.set(docId, counts);
        }
        if (ops.length > 0) await counters.bulkWrite(ops, { ordered: false });
        for (const [docId, counts] of next) own.set(docId, counts);
        for (const [, s] of batch) for (const w of s.waiters) w.resolve();
      } catch (err) {
        // Some of the documents may be written: each is read again before its next write.
        for (const [docId, s] of batch) {
          own.delete(docId);
          for (const w of s.waiters) w.reject(err);
        }
      }
    }
    flushing = false;
  };

  const enqueue = (docId: string, meta: DocState['meta'], fields: Map<string, number>): Promise<void> => {
    let s = states.get(docId);
    if (!s) {
      s = { pending: new Map(), waiters: [], meta };
      states.set(docId, s);
    }
    for (const [field, n] of fields) s.pending.set(field, (s.pending.get(field) ?? 0) + n);
    const state = s;
    return new Promise<void>((resolve, reject) => {
      state.waiters.push({ resolve, reject });
      // After the current task's other enqueues (one add's documents go in one write).
      if (!flushing) {
        flushing = true;
        queueMicrotask(() => void flush());
      }
    });
  };

  const group = (writer: string, deltas: CounterDelta[]) => {
    const docs = new Map<string, { meta: DocState['meta']; fields: Map<string, number> }>();
    for (const d of deltas) {
      if (!LANE.test(d.lane)) throw new Error(`counter lane "${d.lane}" is not a plain word`);
      if (d.by === 0) continue;
      const iso = d.at.toISOString();
      const m = iso.slice(0, 7);
      const docId = `${d.list}|${m}|${writer}`;
      let g = docs.get(docId);
      if (!g) docs.set(docId, (g = { meta: { ck: d.list, m }, fields: new Map() }));
      const field = `${d.lane}.${iso.slice(8, 10)}${iso.slice(11, 13)}`;
      g.fields.set(field, (g.fields.get(field) ?? 0) + d.by);
    }
    return docs;
  };

  return {
    async add(deltas) {
      if (deltas.length === 0) return;
      const writer = await slot.id();
      await Promise.all([...group(writer, deltas)].map(([docId, g]) => enqueue(docId, g.meta, g.fields)));
    },
    async hours(list) {
      const out: HourCounts = new Map();
      for (const doc of await counters.find({ ck: list }).toArray()) {
        const m = doc.m as string;
        for (const [lane, hours] of Object.entries(parseCounts(doc))) {
          let laneCounts = out.get(lane);
          if (!laneCounts) out.set(lane, (laneCounts = new Map()));
          for (const [h, n] of Object.entries(hours)) {
            const key = `${m}-${h.slice(0, 2)}T${h.slice(2, 4)}`;
            laneCounts.set(key, (laneCounts.get(key) ?? 0) + n);
          }
        }
      }
      return out;
    },
    async replace(lists, counts, opts = {}) {
      if (opts.clear) for (const list of lists) await counters.deleteMany({ ck: list });
      const writer = await slot.id();
      const ops = [...group(writer, counts)].map(([docId, g]) => {
        const c: Counts = {};
        for (const [field, n] of g.fields) {
          const [lane, h] = field.split('.') as [string, string];
          if (n !== 0) (c[lane] ??= {})[h] = n;
        }
        own.set(docId, c);
        return { replaceOne: { filter: { _id: docId as unknown as Document['_id'] }, replacement: { ...g.meta, s: JSON.stringify(c) }, upsert: true } };
      });
      for (let i = 0; i < ops.length; i += 500) await counters.bulkWrite(ops.slice(i, i + 500), { ordered: false });
    },
    stop: () => slot.stop(),
  };
}

/** The counts of one lane within [from, to] (whole hours), newest hour first, zero hours left out. */
export function laneHours(counts: HourCounts, lane: string, from?: Date, to?: Date): Array<[string, number]> {
  const lo = from ? hourBucket(from) : '';
  const hi = to ? hourBucket(to) : '\uffff';
  return [...(counts.get(lane) ?? new Map<string, number>())]
    .filter(([h, n]) => n > 0 && h >= lo && h <= hi)
    .sort((a, b) => (a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0));
}

const perDb = new WeakMap<Db, Promise<ListCounters & { stop(): void }>>();

/** The process's list counters of `db`: one writer slot and one queue per database, shared by every repository. */
export function listCountersFor(db: Db): Promise<ListCounters & { stop(): void }> {
  let counters = perDb.get(db);
  if (!counters) {
    counters = createListCounters(db);
    counters.catch(() => perDb.delete(db));
    perDb.set(db, counters);
  }
  return counters;
}

/** Adds deltas into `into`, one entry per (list, lane, hour): what a bulk write of counts must hold (migration, seeding). */
export function sumDeltas(into: Map<string, CounterDelta>, deltas: CounterDelta[]): void {
  for (const d of deltas) {
    const hour = hourBucket(d.at);
    const k = `${d.list}\u0000${d.lane}\u0000${hour}`;
    const prev = into.get(k);
    if (prev) prev.by += d.by;
    else into.set(k, { ...d, at: new Date(`${hour}:00:00.000Z`) });
  }
}
