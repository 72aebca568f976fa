/**
 * What one list call reads, on a database the scale bench seeded (SCALE_HOLD=true keeps it):
 * per call, the commands sent, the documents they returned (per collection) and the time, on the
 * small and on the large account, calling the repositories the API calls.
 *
 *   node dist/test/bench/scale/probe.js <mongodb uri with the bench's database> [repeats]
 *
 * The accounts are found by the bench's operator emails (bench-scale@herald.dev, scale-large-0@herald.dev).
 */
import { performance } from 'node:perf_hooks';
import { MongoClient, type Document } from 'mongodb';
import { createMongoUploads } from '../../../adapters/mongo/uploads';
import { createMongoMediaJobs } from '../../../adapters/mongo/media-jobs';
import { createMongoMediaUsage } from '../../../adapters/mongo/media-usage';
import { createListCounters } from '../../../adapters/mongo/list-counters';
import { quotaMonth } from '../../../core/domain/media-job';

interface Tally { commands: number; docs: Record<string, number> }

async function main(): Promise<void> {
  const uri = process.argv[2];
  const repeats = Number(process.argv[3] ?? '5');
  if (!uri) throw new Error('usage: probe.js <mongodb uri> [repeats]');
  const client = new MongoClient(uri, { monitorCommands: true });
  await client.connect();
  const db = client.db();
  let tally: Tally = { commands: 0, docs: {} };
  const names = new Map<number, string>();
  client.on('commandStarted', (e) => {
    const c = e.command[e.commandName] as unknown;
    names.set(e.requestId, typeof c === 'string' ? c : String(e.command.collection ?? '-'));
  });
  client.on('commandSucceeded', (e) => {
    tally.commands += 1;
    const reply = e.reply as Document;
    const batch = (reply.cursor?.firstBatch ?? reply.cursor?.nextBatch) as unknown[] | undefined;
    const n = batch ? batch.length : reply.value ? 1 : 0;
    const name = names.get(e.requestId) ?? '-';
    names.delete(e.requestId);
    tally.docs[name] = (tally.docs[name] ?? 0) + n;
  });
  const counters = await createListCounters(db);
  const uploads = await createMongoUploads(db, counters);
  const jobs = await createMongoMediaJobs(db, counters);
  const usage = await createMongoMediaUsage(db, counters);
  const idOf = async (email: string) => String((await db.collection('operator_accounts').findOne({ email }))!._id);
  const accounts = { small: await idOf('bench-scale@herald.dev'), large: await idOf('scale-large-0@herald.dev') };
  const month = quotaMonth(new Date());
  const start = new Date(Date.now() - 30 * 24 * 3600_000);
  const calls: Array<[string, (a: string) => Promise<unknown>]> = [
    ['history page 1', (a) => uploads.history({ accountId: a, page: 1, limit: 20 })],
    ['history last 30 days', (a) => uploads.history({ accountId: a, page: 1, limit: 20, start })],
    ['history status=pending', (a) => uploads.history({ accountId: a, page: 1, limit: 20, status: 'pending' })],
    ['media jobs page 1', (a) => jobs.list(a, { limit: 20, skip: 0 })],
    ['media jobs page 3', (a) => jobs.list(a, { limit: 20, skip: 40 })],
    ['consumption newest 100', (a) => usage.history(a, month, { limit: 100 })],
  ];
  for (const [name, call] of calls) {
    for (const [role, id] of Object.entries(accounts)) {
      await call(id); // warm
      const times: number[] = [];
      let last: Tally = tally;
      for (let i = 0; i < repeats; i += 1) {
        tally = { commands: 0, docs: {} };
        const t0 = performance.now();
        await call(id);
        times.push(performance.now() - t0);
        last = tally;
      }
      times.sort((x, y) => x - y);
      const docs = Object.entries(last.docs).map(([c, n]) => `${c}=${n}`).join(' ');
      console.log(`${name.padEnd(26)} ${role.padEnd(6)} ${times[Math.floor(times.length / 2)]!.toFixed(1).padStart(7)} ms  ${String(last.commands).padStart(3)} commands  ${docs}`);
    }
  }
  counters.stop();
  await client.close();
}

main().catch((err) => { console.error(err); process.exit(1); });
