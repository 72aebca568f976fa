/**
 * The Temporal dev server's SQLite file with and without the write-ahead log: bare workflow starts
 * (no worker) at the same concurrency against two throwaway dev servers of this bench's own (own
 * ports, own database file in a temporary directory; the shared one is not touched), one with
 * SQLite's defaults and one with the pragmas ops/infra.sh passes
 * (`--sqlite-pragma journal_mode=wal --sqlite-pragma synchronous=normal`). The variants alternate
 * over the rounds so that other load on the machine colours them alike.
 *
 * Knobs: BENCH_REQUESTS per round (600), BENCH_CONCURRENCY (20), BENCH_ROUNDS (2), BENCH_WARMUP (50).
 */
import { Client, Connection } from '@temporalio/client';
import {
  boundedLoop, describeEnvironment, envInt, errorCounts, heading, ms, runMain, say, sleep, OPS_TEMPORAL_PRAGMAS, startOwnTemporal, summarize, table, type Outcome,
} from './support';

const REQUESTS = envInt('BENCH_REQUESTS', 600);
const CONCURRENCY = envInt('BENCH_CONCURRENCY', 20);
const ROUNDS = envInt('BENCH_ROUNDS', 2);
const WARMUP = envInt('BENCH_WARMUP', 50, 0);

const VARIANTS: Record<string, string[]> = {
  'SQLite defaults (rollback journal, synchronous=full)': [],
  'journal_mode=wal, synchronous=normal (ops/infra.sh)': OPS_TEMPORAL_PRAGMAS,
};

/** The dev server answers before it has registered the default namespace: start until it works. */
async function ready(client: Client, taskQueue: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  for (let i = 0; ; i++) {
    try {
      await client.workflow.start('BenchNoopWorkflow', { taskQueue, workflowId: `ready-${i}`, workflowExecutionTimeout: '1 minute' });
      return;
    } catch (err) {
      if (Date.now() > deadline) throw new Error(`dev server not ready after 90 s: ${(err as Error).message}`);
      await sleep(500);
    }
  }
}

async function main(): Promise<void> {
  heading('temporal-sqlite: bare workflow starts, dev server SQLite defaults vs WAL');
  say(describeEnvironment());
  say(`${REQUESTS} starts per round after ${WARMUP} warm-up, ${CONCURRENCY} clients, ${ROUNDS} rounds per variant (alternating)`);
  const results = new Map<string, { outcomes: Array<Outcome<unknown>>; wallMs: number }>();
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [label, pragmas] of Object.entries(VARIANTS)) {
      const server = await startOwnTemporal(pragmas);
      const connection = await Connection.connect({ address: server.address });
      const client = new Client({ connection, namespace: 'default' });
      const taskQueue = `bench-unused-${round}`;
      await ready(client, taskQueue);
      const start = (tag: string) => (i: number) =>
        client.workflow.start('BenchNoopWorkflow', { taskQueue, workflowId: `${tag}-${i}`, workflowExecutionTimeout: '10 minutes' }).then(() => ({ ok: true }));
      await boundedLoop(WARMUP, CONCURRENCY, 60_000, start('warm'));
      const loop = await boundedLoop(REQUESTS, CONCURRENCY, 300_000, start('measured'));
      await connection.close();
      await server.stop();
      const r = results.get(label) ?? { outcomes: [], wallMs: 0 };
      r.outcomes.push(...loop.outcomes);
      r.wallMs += loop.wallMs;
      results.set(label, r);
      const okThisRound = loop.outcomes.filter((o) => o.ok).length;
      say(`[temporal-sqlite] round ${round}, ${label}: ${(okThisRound / (loop.wallMs / 1000)).toFixed(0)} starts/s`);
      const errors = errorCounts(loop.outcomes);
      if (errors.length) say(`  failures: ${errors.slice(0, 3).map(([e, n]) => `${n}× ${e}`).join('; ')}`);
    }
  }
  heading(`bare workflow starts, ${CONCURRENCY} clients (ms)`);
  const rows = [...results].map(([label, r]) => {
    const ok = r.outcomes.filter((o) => o.ok);
    const lat = summarize(ok.map((o) => o.latencyMs));
    return [label, ok.length, (ok.length / (r.wallMs / 1000)).toFixed(0), ms(lat.p50), ms(lat.p90), ms(lat.p99)];
  });
  say(table(['dev server', 'ok', 'starts/s', 'p50', 'p90', 'p99'], rows));
  const [base, wal] = rows.map((r) => Number(r[2]));
  say(`WAL: ${(wal! / base!).toFixed(1)}× the starts per second of SQLite's defaults`);
}

runMain('temporal-sqlite', main);
