/**
 * `GET /api/herald/total-impressions/{profile}` over 10 networks, through the real API daemon at
 * BENCH_CONCURRENCY clients, each request a random profile of BENCH_PROFILES (1,000) and a random
 * period (`last_year` for 70 %, the shorter ones for the rest; BENCH_BREAKDOWN_PERCENT with
 * breakdowns), beside a bare equality find (one series document by `_id`, straight through the
 * driver: the floor of one FerretDB round trip) and the endpoint at one client (its latency
 * without queueing) and `GET /me` (the API's floor: no database read) in the same run, phases
 * alternating; with the API's CPU per request. Goal: p99 ≤ 50 ms at 20 clients. Then where the time goes: the same requests on a HERALD_DEBUG_TIMING API (Server-Timing
 * per repository call and MongoDB command), and the read alone from this process: the
 * repository's parallel `_id` gets beside one `find({_id: {$in: …}})` of the same documents.
 *
 * Seeding writes what the endpoint reads, with bounded concurrency: the profiles (the storage
 * adapter's insert) and each profile's series documents (the adapter's own seriesDocument,
 * insertMany: per year and series, BENCH_SERIES plus the default impressions figure, each holding
 * the ten networks), so 1,000 profiles take a minute or two, not the half hour of 3.66 M day
 * documents. Day documents only for
 * the stack's own profile `bench`: BENCH_PUT_DAYS days of every network through the repository's
 * `put` (the snapshot round's write path, timed), whose total the API must then answer exactly.
 * ops/ferretdb-tune.sh indexes the bench database after seeding, as ops/start.sh does Herald's.
 *
 * Knobs: BENCH_PROFILES (1000), BENCH_CONCURRENCY (20), BENCH_SECONDS per phase and round (10),
 * BENCH_ROUNDS (2), BENCH_WARMUP requests per phase (100), BENCH_SERIES (reach,views,impressions,
 * followers,likes), BENCH_PUT_DAYS (14), BENCH_BREAKDOWN_PERCENT (10), BENCH_TIMING_REQUESTS (1000),
 * BENCH_IN_REQUESTS (5, one at a time: each is a scan), BENCH_SEED_CONCURRENCY (4 profiles in flight).
 */
import { NETWORK_IMPRESSIONS } from '../../adapters/platforms';
import { execFileSync } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import Redis from 'ioredis';
import { MongoClient, type Db } from 'mongodb';
import { addDays, dayOf, HISTORY_METRICS, type AnalyticsSnapshot, type HistoryMetric } from '../../core/domain/analytics-history';
import { IMPRESSIONS_SERIES, SERIES_DAYS, dayOfYear, yearSpans, type SeriesName } from '../../core/domain/analytics-series';
import type { Platform } from '../../core/domain/platforms';
import {
  analyticsSeriesCounterDeltas, ANALYTICS_SERIES_COLLECTION, createMongoAnalyticsSnapshots, seriesDocument, seriesId,
} from '../../adapters/mongo/analytics-history';
import { listCountersFor } from '../../adapters/mongo/list-counters';
import type { IdDoc } from '../../adapters/mongo/collections';
import { createMongoStorage } from '../../adapters/mongo/storage';
import {
  boundedLoop, describeEnvironment, envInt, envList, errorCounts, heading, ms, onCleanup, procCpuMs, ROOT, runMain, say, ServerTiming, startBenchStack,
  startTimedApi, summarize, table, type Outcome,
} from './support';
import { seededRandom } from '../support/seeded-random';

const PROFILES = envInt('BENCH_PROFILES', 1000);
const CONCURRENCY = envInt('BENCH_CONCURRENCY', 20);
const SECONDS = envInt('BENCH_SECONDS', 10);
const ROUNDS = envInt('BENCH_ROUNDS', 2);
const WARMUP = envInt('BENCH_WARMUP', 100, 0);
const PUT_DAYS = envInt('BENCH_PUT_DAYS', 14, 0);
const BREAKDOWN_PERCENT = envInt('BENCH_BREAKDOWN_PERCENT', 10, 0);
const TIMING_REQUESTS = envInt('BENCH_TIMING_REQUESTS', 1000, 0);
const IN_REQUESTS = envInt('BENCH_IN_REQUESTS', 5, 0);
const SEED_CONCURRENCY = envInt('BENCH_SEED_CONCURRENCY', 4);
const METRICS = envList('BENCH_SERIES', ['reach', 'views', 'impressions', 'followers', 'likes']).filter((m): m is HistoryMetric => (HISTORY_METRICS as readonly string[]).includes(m));
const GOAL_MS = 50;
const PLATFORMS: Platform[] = ['instagram', 'facebook', 'linkedin', 'youtube', 'tiktok', 'threads', 'x', 'pinterest', 'bluesky', 'google_business'];
const TODAY = dayOf(new Date());
/** The years `last_year` reaches (two: last year's end and this year to today). */
const YEARS = yearSpans(addDays(TODAY, -365), TODAY).map((s) => s.year);
const PERIODS: Array<[string, number]> = [['last_year', 70], ['last_3months', 10], ['last_month', 10], ['last_week', 5], ['last_day', 5]];

interface Ask { profile: string; period: string; breakdown: boolean }

function requestOf(rnd: () => number): Ask {
  let roll = rnd() * 100;
  const period = PERIODS.find(([, share]) => (roll -= share) < 0)?.[0] ?? 'last_year';
  return { profile: `profile-${Math.floor(rnd() * PROFILES)}`, period, breakdown: rnd() * 100 < BREAKDOWN_PERCENT };
}

/** A year of one series of one profile's network: a figure every day up to today, NaN after. */
function yearValues(year: number, seed: number, level: boolean): Float64Array {
  const values = new Float64Array(SERIES_DAYS).fill(NaN);
  const last = year < Number(TODAY.slice(0, 4)) ? SERIES_DAYS - 1 : dayOfYear(TODAY);
  for (let d = 0; d <= last; d += 1) values[d] = level ? 1000 + (seed % 997) + d : (seed * 31 + d * 7) % 500;
  if (year % 4 !== 0 || (year % 100 === 0 && year % 400 !== 0)) values[365] = NaN;
  return values;
}

async function seed(db: Db, accountId: string): Promise<void> {
  const storage = await createMongoStorage(db);
  const started = performance.now();
  const names: SeriesName[] = [IMPRESSIONS_SERIES, ...METRICS];
  const expiresAt = new Date(Date.now() + 400 * 86_400_000);
  const col = db.collection<IdDoc>(ANALYTICS_SERIES_COLLECTION);
  const counters = await listCountersFor(db);
  let next = 0;
  let profiles = 0;
  let documents = 0;
  const lane = async () => {
    while (next < PROFILES) {
      const p = next++;
      const username = `profile-${p}`;
      await storage.profiles.insert({ accountId, username, createdAt: new Date(), uiLabels: {} });
      const docs = YEARS.flatMap((year) => names.map((name, k) => seriesDocument(accountId, username, year, name,
        new Map(PLATFORMS.map((platform, n) => [platform, yearValues(year, p * 100 + n * 10 + k, name === 'followers')])), expiresAt)));
      // Counted in their expiry list as the repository counts them (adapters/mongo/expiry-list.ts).
      await counters.add(docs.flatMap((d) => analyticsSeriesCounterDeltas(d)));
      await col.insertMany(docs, { ordered: false });
      profiles += 1;
      documents += docs.length;
      if (profiles % 100 === 0) say(`  seeded ${profiles} profiles (${documents} series documents, ${(documents / ((performance.now() - started) / 1000)).toFixed(0)} docs/s)`);
    }
  };
  await Promise.all(Array.from({ length: SEED_CONCURRENCY }, lane));
  const seconds = (performance.now() - started) / 1000;
  say(`seeded ${profiles} profiles and ${documents} series documents (${YEARS.length} years × ${names.length} series each, ${PLATFORMS.length} networks in each) in ${seconds.toFixed(1)} s (${(documents / seconds).toFixed(0)} docs/s)`);
}

async function get(url: string, headers: Record<string, string>): Promise<{ ok: boolean; value?: string; error?: string }> {
  const res = await fetch(url, { headers });
  const text = await res.text();
  if (res.status !== 200) return { ok: false, error: `HTTP ${res.status} ${text.slice(0, 120)}` };
  const body = JSON.parse(text) as { total_impressions?: number };
  return typeof body.total_impressions === 'number' ? { ok: true, value: res.headers.get('server-timing') ?? '' } : { ok: false, error: `no total_impressions: ${text.slice(0, 120)}` };
}

const urlOf = (base: string, r: Ask) =>
  `${base}/api/herald/total-impressions/${r.profile}?period=${r.period}&platform=${PLATFORMS.join(',')}${r.breakdown ? '&breakdown=true' : ''}`;

async function main(): Promise<void> {
  heading(`total impressions: ${PLATFORMS.length} networks, ${PROFILES} profiles, ${CONCURRENCY} clients through the API`);
  say(describeEnvironment());
  const b = await startBenchStack({ name: 'total-impressions', worker: false });
  const uri = b.stack.env.MONGODB_URI!;
  const client = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 10_000, maxPoolSize: 64 });
  onCleanup(() => client.close());
  const db = client.db();
  const storage = await createMongoStorage(db);
  const account = await storage.operators.findByEmail('bench-total-impressions@herald.dev');
  if (!account) throw new Error('the bench operator account is missing');

  await seed(db, account.id);
  // FerretDB's _id lookups scan the table without these GIN indexes (ops/ferretdb-tune.sh).
  try {
    const dbName = new URL(uri).pathname.slice(1);
    const out = execFileSync('bash', [`${ROOT}/ops/ferretdb-tune.sh`, dbName], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    say(out.trim() || 'ferretdb-tune: done');
  } catch (err) {
    say(`ferretdb-tune failed (figures below are without its indexes): ${(err as Error).message.split('\n')[0]}`);
  }

  // The write path: the snapshot round's put (day document, then the year's series), timed.
  const snapshots = await createMongoAnalyticsSnapshots(db, { impressions: NETWORK_IMPRESSIONS });
  const putMs: number[] = [];
  let expected = 0;
  for (let d = PUT_DAYS - 1; d >= 0; d -= 1) {
    for (const platform of PLATFORMS) {
      const date = addDays(TODAY, -d);
      const metrics = Object.fromEntries(METRICS.map((m, k) => [m, 10 + d + k]));
      const s: AnalyticsSnapshot = { accountId: account.id, profileUsername: 'bench', platform, connectionId: `conn-${platform}`, date, metrics, capturedAt: new Date() };
      expected += NETWORK_IMPRESSIONS(platform).map((m) => metrics[m]).find((v) => typeof v === 'number') ?? 0;
      const t0 = performance.now();
      await snapshots.put(s, new Date(Date.now() + 400 * 86_400_000));
      putMs.push(performance.now() - t0);
    }
  }
  if (PUT_DAYS) {
    const put = summarize(putMs);
    say(`snapshot put (day document + ${METRICS.length + 1} series read-modify-written): ${put.n} puts, p50 ${ms(put.p50)} ms, p99 ${ms(put.p99)} ms`);
  }

  const auth = { Authorization: b.auth };
  if (PUT_DAYS) {
    const answer = await b.api.get(`/api/herald/total-impressions/bench?period=last_year&platform=${PLATFORMS.join(',')}`);
    if (answer.status !== 200 || answer.body.total_impressions !== expected) {
      throw new Error(`total impressions of the profile written by put: expected ${expected}, got ${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`);
    }
    say(`check: the API answers ${expected} for the ${PUT_DAYS} days put (exact)`);
  }

  // Phases alternate so that load from elsewhere on the machine colours them alike.
  const probe = seriesId(account.id, 'profile-0', YEARS[YEARS.length - 1]!, IMPRESSIONS_SERIES);
  const series = db.collection<{ _id: string }>(ANALYTICS_SERIES_COLLECTION);
  const rnd = seededRandom(12);
  /** One API request; its outcome's value says which kind it was. */
  const ask = async (base: string) => {
    const r = requestOf(rnd);
    const res = await get(urlOf(base, r), auth);
    return { ...res, value: `${r.period}${r.breakdown ? ' breakdown' : ''}` };
  };
  const apiPid = b.stack.api.child.pid!;
  interface Phase { label: string; clients: number; run: (i: number) => Promise<{ ok: boolean; value?: string; error?: string }>; outcomes: Array<Outcome<string>>; wallMs: number; cpuMs: number }
  const phase = (label: string, clients: number, run: Phase['run']): Phase => ({ label, clients, run, outcomes: [], wallMs: 0, cpuMs: 0 });
  const phases: Phase[] = [
    phase('baseline: one series document by _id (driver, no API)', CONCURRENCY, async (i) =>
      ((await series.findOne({ _id: i % 2 ? probe : seriesId(account.id, `profile-${i % PROFILES}`, YEARS[0]!, IMPRESSIONS_SERIES) })) ? { ok: true } : { ok: false, error: 'not found' })),
    phase(`GET /total-impressions (${PLATFORMS.length} networks)`, CONCURRENCY, () => ask(b.stack.apiUrl)),
    phase('GET /total-impressions, one client', 1, () => ask(b.stack.apiUrl)),
    // The API's own floor on this machine: key check, rate limit, logging, no database read.
    phase('GET /me (the API without a database read)', CONCURRENCY, async () => {
      const res = await fetch(`${b.stack.apiUrl}/api/herald/me`, { headers: auth });
      await res.text();
      return res.status === 200 ? { ok: true } : { ok: false, error: `HTTP ${res.status}` };
    }),
  ];
  let offset = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    for (const p of phases) {
      await boundedLoop(WARMUP, p.clients, 60_000, (i) => p.run(1_000_000 + offset + i));
      const cpu0 = procCpuMs(apiPid) ?? NaN;
      const loop = await boundedLoop(Number.MAX_SAFE_INTEGER, p.clients, SECONDS * 1000, (i) => p.run(offset + i));
      p.cpuMs += (procCpuMs(apiPid) ?? NaN) - cpu0;
      offset += loop.outcomes.length;
      p.outcomes.push(...loop.outcomes);
      p.wallMs += loop.wallMs;
      say(`[total-impressions] round ${round}: ${p.label}: ${loop.outcomes.filter((o) => o.ok).length} ok in ${(loop.wallMs / 1000).toFixed(1)} s`);
    }
  }

  heading('results (ms), loopback');
  const rowOf = (label: string, p: Phase, outcomes: Array<Outcome<string>>) => {
    const lat = summarize(outcomes.map((o) => o.latencyMs));
    const apiCpu = p === phases[0] ? '-' : (p.cpuMs / Math.max(1, p.outcomes.length)).toFixed(2);
    return [label, p.clients, lat.n, (p.outcomes.length / (p.wallMs / 1000)).toFixed(0), ms(lat.p50), ms(lat.p90), ms(lat.p99), ms(lat.max), apiCpu];
  };
  const ok = (p: Phase) => p.outcomes.filter((o) => o.ok);
  const api = phases[1]!;
  const lastYear = ok(api).filter((o) => o.value === 'last_year');
  say(table(['read', 'clients', 'ok', 'per s', 'p50', 'p90', 'p99', 'max', 'API CPU ms/req'], [
    ...phases.map((p) => rowOf(p.label, p, ok(p))),
    rowOf(`  of which (${CONCURRENCY} clients) last_year without breakdown`, api, lastYear),
  ]));
  for (const p of phases) {
    const errors = errorCounts(p.outcomes);
    if (errors.length) say(`${p.label}: failures: ${errors.slice(0, 5).map(([e, n]) => `${n}× ${e}`).join('; ')}`);
  }
  const p99 = summarize(ok(api).map((o) => o.latencyMs)).p99;
  say(`\ntotal impressions at ${CONCURRENCY} clients: p99 ${ms(p99)} ms (goal ≤ ${GOAL_MS} ms: ${p99 <= GOAL_MS ? 'met' : 'NOT met'}); last_year p99 ${ms(summarize(lastYear.map((o) => o.latencyMs)).p99)} ms; ` +
    `bare findOne by _id p99 ${ms(summarize(ok(phases[0]!).map((o) => o.latencyMs)).p99)} ms`);

  if (TIMING_REQUESTS) {
    heading(`where a request's time goes (HERALD_DEBUG_TIMING API, ${TIMING_REQUESTS} requests, ${CONCURRENCY} clients)`);
    const timed = await startTimedApi(b);
    const tally = new ServerTiming();
    const trnd = seededRandom(99);
    await boundedLoop(WARMUP, CONCURRENCY, 60_000, () => get(urlOf(timed.url, requestOf(trnd)), auth));
    await boundedLoop(TIMING_REQUESTS, CONCURRENCY, 180_000, async () => {
      const t0 = performance.now();
      const r = await get(urlOf(timed.url, requestOf(trnd)), auth);
      tally.add(r.value ?? null, performance.now() - t0);
      return r;
    });
    say(tally.table());
    await timed.stop();
  }

  // The read alone, from this process: what the repository does (parallel _id gets) and the $in alternative.
  heading(`the read alone (driver): last_year of ${PLATFORMS.length} networks = ${YEARS.length} series documents`);
  const start = addDays(TODAY, -365);
  const reads = await createMongoAnalyticsSnapshots(db, { impressions: NETWORK_IMPRESSIONS });
  const idsOf = (i: number) => YEARS.map((y) => seriesId(account.id, `profile-${(i * 7919) % PROFILES}`, y, IMPRESSIONS_SERIES));
  const alone: Array<[string, number, number, (i: number) => Promise<{ ok: boolean }>]> = [
    [`repository series(): ${YEARS.length} parallel _id gets, ${CONCURRENCY} clients`, 200, CONCURRENCY,
      async (i) => ({ ok: (await reads.series(account.id, `profile-${(i * 7919) % PROFILES}`, PLATFORMS, [IMPRESSIONS_SERIES], start, TODAY)).length === PLATFORMS.length })],
    ['repository series(), one client', 50, 1,
      async (i) => ({ ok: (await reads.series(account.id, `profile-${(i * 7919) % PROFILES}`, PLATFORMS, [IMPRESSIONS_SERIES], start, TODAY)).length === PLATFORMS.length })],
    ['one find({_id: {$in: ids}}), one client', IN_REQUESTS, 1, async (i) => ({ ok: (await series.find({ _id: { $in: idsOf(i) } }).toArray()).length === YEARS.length })],
  ];
  const aloneRows: Array<Array<string | number>> = [];
  for (const [label, count, clients, run] of alone) {
    if (!count) continue;
    const loop = await boundedLoop(count, clients, 300_000, run);
    const lat = summarize(loop.outcomes.filter((o) => o.ok).map((o) => o.latencyMs));
    aloneRows.push([label, lat.n, ms(lat.p50), ms(lat.p99), ms(lat.max)]);
  }
  say(table(['read', 'ok', 'p50', 'p99', 'max'], aloneRows));
  say(`series documents in the collection: ${await series.estimatedDocumentCount()}`);

  // What one round trip costs the client process itself (each request of the endpoint makes ~3 to FerretDB).
  const redis = new Redis(b.stack.env.REDIS_URL!);
  onCleanup(() => { redis.disconnect(); });
  const cpuPerCall = async (fn: () => Promise<unknown>, n = 300) => {
    for (let i = 0; i < 30; i += 1) await fn();
    const c0 = process.cpuUsage();
    for (let i = 0; i < n; i += 1) await fn();
    const c = process.cpuUsage(c0);
    return ((c.user + c.system) / 1000 / n).toFixed(2);
  };
  say(`client CPU per round trip, one at a time: MongoDB ping (FerretDB) ${await cpuPerCall(() => db.command({ ping: 1 }))} ms, ` +
    `findOne of a series document ${await cpuPerCall(() => series.findOne({ _id: probe }))} ms, Redis PING ${await cpuPerCall(() => redis.ping())} ms`);
}

runMain('total-impressions', main);
