/**
 * Total impressions over 365 days for 10 networks, on FerretDB, with BENCH_PROFILES profiles of
 * snapshots stored (1,000 by default: 10 networks × 366 days each, 3.66 M documents). Measures the
 * read the endpoint makes (the repository's range read: one `_id` get of a year document per
 * network and year, then the sums with breakdowns) and prints its p50/p99 beside two figures of the same run: a bare
 * equality find of one network's month (the floor: one indexed round trip), and the same year
 * read as one `$in` query over the 130 month series (the alternative the design avoids).
 *
 * Seeding inserts the adapter's own documents (snapshotDocument, yearDocument) with insertMany, then runs
 * ops/ferretdb-tune.sh on the bench database (the GIN indexes FerretDB's equality pushdown needs),
 * as ops/start.sh does for Herald's database.
 *
 * Knobs: BENCH_PROFILES (1000), BENCH_NETWORKS (10), BENCH_DAYS (366), BENCH_REQUESTS (200),
 * BENCH_CONCURRENCY (1: latency of one reader; raise to see contention), BENCH_KEEP_DB (unset:
 * the database is dropped afterwards), BENCH_READ_CONCURRENCY (8: finds in flight per request).
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { MongoClient, type Document } from 'mongodb';
import { addDays, computeTotals, dayOf, type AnalyticsSnapshot } from '../../core/domain/analytics-history';
import type { Platform } from '../../core/domain/platforms';
import {
  ANALYTICS_SNAPSHOTS_COLLECTION, ANALYTICS_YEARS_COLLECTION, createMongoAnalyticsSnapshots, snapshotDocument, snapshotSeries, yearDocument,
} from '../../adapters/mongo/analytics-history';
import { boundedLoop, describeEnvironment, envInt, heading, ms, onCleanup, ROOT, runMain, say, summarize, table } from './support';

const PROFILES = envInt('BENCH_PROFILES', 1000);
const NETWORKS = envInt('BENCH_NETWORKS', 10);
const DAYS = envInt('BENCH_DAYS', 366);
const REQUESTS = envInt('BENCH_REQUESTS', 200);
const CONCURRENCY = envInt('BENCH_CONCURRENCY', 1);
const READ_CONCURRENCY = envInt('BENCH_READ_CONCURRENCY', 8);
const GOAL_MS = 50;
const PLATFORMS: Platform[] = (['instagram', 'facebook', 'linkedin', 'youtube', 'tiktok', 'threads', 'x', 'pinterest', 'bluesky', 'google_business'] as Platform[]).slice(0, NETWORKS);
const ACCOUNT = 'acct-bench';
const END = dayOf(new Date());
const START = addDays(END, -(DAYS - 1));

async function main(): Promise<void> {
  heading(`total impressions: ${DAYS} days × ${PLATFORMS.length} networks, ${PROFILES} profiles of snapshots on ${process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017'}`);
  say(describeEnvironment());
  const uri = process.env.MONGODB_URI ?? 'mongodb://127.0.0.1:27017/herald';
  const dbName = `herald_bench_ti_${randomBytes(4).toString('hex')}`;
  const client = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 10_000, maxPoolSize: 32 });
  const db = client.db(dbName);
  onCleanup(async () => {
    if (!process.env.BENCH_KEEP_DB) await db.dropDatabase().catch(() => undefined);
    await client.close();
  });
  const snapshots = await createMongoAnalyticsSnapshots(db, { concurrency: READ_CONCURRENCY });
  const col = db.collection<Document>(ANALYTICS_SNAPSHOTS_COLLECTION);
  const years = db.collection<Document>(ANALYTICS_YEARS_COLLECTION);

  // Seed: one document per profile, network and day, in batches.
  const expiresAt = new Date(Date.now() + 400 * 86_400_000);
  const days = Array.from({ length: DAYS }, (_, i) => addDays(START, i));
  const seedStarted = performance.now();
  let inserted = 0;
  const batches: Document[][] = [];
  const flush = async () => {
    const batch = batches.shift();
    if (batch) { await col.insertMany(batch, { ordered: false }); inserted += batch.length; }
  };
  let batch: Document[] = [];
  for (let p = 0; p < PROFILES; p += 1) {
    const yearDocs: Document[] = [];
    for (const platform of PLATFORMS) {
      const snaps = days.map((date): AnalyticsSnapshot => ({
        accountId: ACCOUNT, profileUsername: `profile-${p}`, platform, connectionId: `conn-${p}-${platform}`, date,
        metrics: { reach: (p + date.charCodeAt(9)) % 500, views: 100, impressions: 120, followers: 1000 + p, likes: 7 }, capturedAt: new Date(`${date}T23:50:00Z`),
      }));
      for (const s of snaps) {
        batch.push(snapshotDocument(s, expiresAt));
        if (batch.length === 2000) { batches.push(batch); batch = []; }
      }
      for (const y of new Set(days.map((d) => d.slice(0, 4)))) yearDocs.push(yearDocument(snaps.filter((s) => s.date.startsWith(y)), expiresAt));
    }
    await years.insertMany(yearDocs, { ordered: false });
    // Four batches in flight at most.
    while (batches.length >= 4) await Promise.all([flush(), flush(), flush(), flush()]);
    if (p > 0 && p % 100 === 0) say(`  seeded ${p} profiles (${inserted} documents, ${(inserted / ((performance.now() - seedStarted) / 1000)).toFixed(0)} docs/s)`);
  }
  if (batch.length) batches.push(batch);
  while (batches.length) await Promise.all([flush(), flush(), flush(), flush()]);
  const seedS = (performance.now() - seedStarted) / 1000;
  say(`seeded ${inserted} documents in ${seedS.toFixed(1)} s (${(inserted / seedS).toFixed(0)} docs/s)`);
  try {
    const out = execFileSync('bash', [path.join(ROOT, 'ops/ferretdb-tune.sh'), dbName], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    say(out.trim() || 'ferretdb-tune: done');
    const pgIndexes = execFileSync('psql', ['-h', process.env.PGHOST ?? '127.0.0.1', '-U', process.env.PGUSER ?? 'postgres', '-d', process.env.HERALD_FERRETDB_PG_DATABASE ?? 'ferretdb', '-Atc',
      `SELECT count(*) FROM pg_indexes WHERE schemaname = '${dbName}' AND indexname LIKE 'hgin%'`], { encoding: 'utf8' }).trim();
    say(`GIN indexes in the bench database: ${pgIndexes}`);
  } catch (err) {
    say(`ferretdb-tune failed (figures below are without its indexes): ${(err as Error).message.split('\n')[0]}`);
  }

  const profileOf = (i: number) => `profile-${(i * 7919) % PROFILES}`;
  const months = [...new Set(days.map((d) => d.slice(0, 7)))];
  const phases: Array<[string, (i: number) => Promise<number>]> = [
    ['baseline: one equality find (a network\'s month)', async (i) => (await col.find({ series: snapshotSeries(ACCOUNT, profileOf(i), PLATFORMS[i % PLATFORMS.length]!, months[i % months.length]!) }).toArray()).length],
    [`total impressions (${PLATFORMS.length * new Set(months.map((m) => m.slice(0, 4))).size} year documents by _id, ${READ_CONCURRENCY} in flight, + sums and breakdowns)`, async (i) => {
      const rows = await snapshots.range(ACCOUNT, profileOf(i), PLATFORMS, START, END);
      const totals = computeTotals(rows, { start: START, end: END, breakdown: true });
      if (!totals.total_impressions) throw new Error('no impressions read');
      return rows.length;
    }],
    [`alternative: one $in over the ${PLATFORMS.length * months.length} series`, async (i) => (await col.find({ series: { $in: PLATFORMS.flatMap((p) => months.map((m) => snapshotSeries(ACCOUNT, profileOf(i), p, m))) } }).toArray()).length],
  ];
  const rows: Array<Array<string | number>> = [];
  for (const [label, op] of phases) {
    await boundedLoop(Math.min(20, REQUESTS), CONCURRENCY, 120_000, (i) => op(i + 1000).then((n) => ({ ok: true, value: n })));
    const loop = await boundedLoop(REQUESTS, CONCURRENCY, 600_000, (i) => op(i).then((n) => ({ ok: true, value: n })));
    const ok = loop.outcomes.filter((o) => o.ok);
    const lat = summarize(ok.map((o) => o.latencyMs));
    const docs = ok.length ? (ok[0]!.value as number) : 0;
    rows.push([label, ok.length, docs, ms(lat.p50), ms(lat.p99), ms(lat.max)]);
    say(`  ${label}: p50 ${ms(lat.p50)} ms, p99 ${ms(lat.p99)} ms (${loop.outcomes.length - ok.length} failed)`);
  }
  heading('results');
  say(table(['read', 'n', 'documents', 'p50 ms', 'p99 ms', 'max ms'], rows));
  const p99 = Number(rows[1]![4]);
  say(`\ntotal impressions p99 ${rows[1]![4]} ms (goal ≤ ${GOAL_MS} ms: ${p99 <= GOAL_MS ? 'met' : 'NOT met'}); baseline equality find p99 ${rows[0]![4]} ms`);
}

runMain('total-impressions', main);
