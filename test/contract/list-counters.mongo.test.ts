import { randomBytes } from 'node:crypto';
import { MongoClient, type Db } from 'mongodb';
import { COUNTER_WRITERS, createListCounters, LIST_COUNTERS } from '../../adapters/mongo/list-counters';
import { at } from '../support/mothers';

/**
 * The list counters on the MongoDB-wire server: FerretDB loses concurrent updates of one
 * document, so each process writes only documents of its own writer slot, one write at a time,
 * and a read sums every writer's documents.
 */
const uri = process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017/herald';
let client: MongoClient;
let db: Db;
const made: Array<{ stop(): void }> = [];

beforeAll(async () => {
  client = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 3000 });
});
beforeEach(() => {
  db = client.db(`herald_test_${randomBytes(6).toString('hex')}`);
});
afterEach(async () => {
  for (const c of made.splice(0)) c.stop();
  await db.dropDatabase();
});
afterAll(async () => {
  await client.close();
});

const counters = async (opts: Parameters<typeof createListCounters>[1] = {}) => {
  const c = await createListCounters(db, opts);
  made.push(c);
  return c;
};
const laneTotal = (counts: Map<string, Map<string, number>>, lane: string) => [...(counts.get(lane) ?? new Map()).values()].reduce((a, b) => a + b, 0);

it('keeps every one of 400 concurrent increments of one hour, from two processes at once', async () => {
  const a = await counters();
  const b = await counters();
  await Promise.all(Array.from({ length: 400 }, (_, i) => (i % 2 ? a : b).add([
    { list: 'L', lane: 'all', at: at(5), by: 1 },
    { list: 'L', lane: i % 4 === 0 ? 'pending' : 'done', at: at(5 + (i % 3) * 60), by: 1 },
  ])));
  const counts = await a.hours('L');
  expect(laneTotal(counts, 'all')).toBe(400);
  expect(laneTotal(counts, 'pending') + laneTotal(counts, 'done')).toBe(400);
  expect(laneTotal(counts, 'pending')).toBe(100);
  // Two writer slots, one document each for the month: never one document with two writers.
  const ids = (await db.collection(LIST_COUNTERS).find({ ck: 'L' }).toArray()).map((d) => String(d._id)).sort();
  expect(ids).toEqual([`L|${at(5).toISOString().slice(0, 7)}|w0`, `L|${at(5).toISOString().slice(0, 7)}|w1`]);
});

it('counts by hour and month, leaves zero counts out, and moves counts between lanes', async () => {
  const c = await counters();
  await c.add([{ list: 'L', lane: 'all', at: at(0), by: 3 }, { list: 'L', lane: 'all', at: at(24 * 60 * 40), by: 2 }, { list: 'L', lane: 'x', at: at(0), by: 1 }]);
  await c.add([{ list: 'L', lane: 'x', at: at(0), by: -1 }, { list: 'L', lane: 'y', at: at(0), by: 1 }]);
  const counts = await c.hours('L');
  expect([...counts.get('all')!.entries()].sort()).toEqual([[at(0).toISOString().slice(0, 13), 3], [at(24 * 60 * 40).toISOString().slice(0, 13), 2]]);
  expect(counts.get('x')).toBeUndefined();
  expect(laneTotal(counts, 'y')).toBe(1);
  expect(await c.hours('other')).toEqual(new Map());
});

it('a process that takes over a slot goes on from the counts stored under it', async () => {
  const first = await counters({ writerTtlMs: 1000 });
  await first.add([{ list: 'L', lane: 'all', at: at(0), by: 5 }]);
  first.stop();
  // The first process is gone: its lease runs out and a new process takes the slot over.
  await db.collection(COUNTER_WRITERS).updateOne({ _id: 'w0' as never }, { $set: { expiresAt: new Date(Date.now() - 1) } });
  const second = await counters();
  await second.add([{ list: 'L', lane: 'all', at: at(0), by: 2 }]);
  expect(await db.collection(COUNTER_WRITERS).countDocuments({})).toBe(1);
  expect(laneTotal(await second.hours('L'), 'all')).toBe(7);
});

it('a recount replaces what a list held; a bulk write adds nothing twice', async () => {
  const c = await counters();
  await c.add([{ list: 'L', lane: 'all', at: at(0), by: 9 }]);
  await c.replace(['L'], [{ list: 'L', lane: 'all', at: at(0), by: 4 }, { list: 'L', lane: 'all', at: at(120), by: 1 }], { clear: true });
  expect(laneTotal(await c.hours('L'), 'all')).toBe(5);
  await c.add([{ list: 'L', lane: 'all', at: at(0), by: 1 }]);
  expect(laneTotal(await c.hours('L'), 'all')).toBe(6);
});

it('writes one add over several lists, and every add queued while a write runs, in one command each', async () => {
  const watched = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 3000, monitorCommands: true });
  try {
    const updates: number[] = [];
    watched.on('commandStarted', (e) => {
      if (e.commandName === 'update' && e.command.update === LIST_COUNTERS) updates.push((e.command.updates as unknown[]).length);
    });
    const c = await createListCounters(watched.db(db.databaseName));
    made.push(c);
    await c.add([{ list: 'A', lane: 'all', at: at(0), by: 1 }, { list: 'B', lane: 'all', at: at(0), by: 1 }, { list: 'C', lane: 'all', at: at(0), by: 1 }]);
    expect(updates).toEqual([3]);
    // 30 adds at once: the first write carries what was queued when it started, the next all the rest.
    await Promise.all(Array.from({ length: 30 }, (_, i) => c.add([{ list: `L${i % 5}`, lane: 'all', at: at(0), by: 1 }, { list: 'A', lane: 'all', at: at(0), by: 1 }])));
    expect(updates.length).toBeLessThanOrEqual(3);
    expect(updates.slice(1).reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(12);
    expect(laneTotal(await c.hours('A'), 'all')).toBe(31);
    for (let i = 0; i < 5; i += 1) expect(laneTotal(await c.hours(`L${i}`), 'all')).toBe(6);
  } finally {
    await watched.close();
  }
});
