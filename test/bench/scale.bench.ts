/**
 * Scale: every list and per-request check costs the same at 1,000,000 stored uploads as at a
 * handful (issue "Data that grows", docs/storage/lists.md). `npm run bench -- scale`.
 *
 * 1. Starts the API on its own database (no worker: accepted uploads wait in Temporal), with a
 *    small account (the bench key's), a large one and SCALE_OTHERS more, each with profiles and
 *    connected accounts.
 * 2. Step 1: seeds the small account alone (SCALE_SMALL uploads) and measures every request
 *    of every plugin (test/bench/scale/*.ts) on it: the figures on a database holding nothing else.
 * 3. Step 2: seeds the large account (SCALE_LARGE_SHARE of SCALE_UPLOADS) and the others (the
 *    rest, evenly), with the other plugins' records in proportion, tunes FerretDB's indexes, and
 *    measures again on the small and the large account.
 *    The accepts (which add uploads) run on the small account's twin (seeded alike) and on the
 *    large account after its reads, so that no measured list holds what an earlier check added.
 * 4. Prints p50/p99 at SCALE_CLIENTS clients and p50 at one client, beside the small account's
 *    figures, with the goals: large ≤ 2× small (≤ 1.2× for the async accept), none above 50 ms
 *    p50 at one client, small after ≤ 1.5× small before.
 *
 * Seeding uses bulk writes of the documents the repositories write (their exported builders and
 * counter deltas); it takes minutes at full size. Measuring takes seconds per request.
 *
 * Knobs: SCALE_UPLOADS (1000000), SCALE_LARGE_SHARE (0.3), SCALE_OTHERS (50), SCALE_SMALL (2000),
 * SCALE_MONTHS (13), SCALE_CLIENTS (20), SCALE_REQUESTS (requests per figure at SCALE_CLIENTS, 200),
 * SCALE_SERIAL (requests per figure at one client, 30), SCALE_PLUGINS (all: uploads,notifications,media,analytics),
 * SCALE_SEED_WRITE (copy: COPY into FerretDB's tables, see scale/pg-copy.ts; driver), SCALE_SEED_PARALLEL
 * (batches written at once, 6), SCALE_RECORD (true: write docs/benchmarks/scale.md), SCALE_HOLD (true: keep
 * the stack running after the figures, its address and keys printed, until interrupted: for probing).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { MongoClient, type Db, type Document } from 'mongodb';
import { createListCounters } from '../../adapters/mongo/list-counters';
import { bulkWriter, psqlArgs } from './scale/pg-copy';
import type { ScaleList, SeedContext, SeededAccount, MeasuredRequest } from './scale/plugin';
import { uploadsScale } from './scale/uploads';
import { seededRandom } from '../support/seeded-random';
import {
  connectNetworks, describeEnvironment, envInt, envList, harness, heading, ms, onCleanup, percentile, ROOT, runMain, say, startBenchStack, table, type BenchStack,
} from './support';

const UPLOADS = envInt('SCALE_UPLOADS', 1_000_000);
const LARGE_SHARE = Number(process.env.SCALE_LARGE_SHARE ?? '0.3');
const OTHERS = envInt('SCALE_OTHERS', 50);
// The small account is the smallest whose every measured page is full (2 % of its uploads pending,
// a tenth with an external id, a thirteenth in the last 30 days: 20 rows each or more; each plugin
// measures the last *full* page, and seeds what a page of the small account needs, see
// scale/*.ts): beside a page of 0 or 1 rows, a full page on the large account measures the
// answer's size, not the history's cost. The `rows` column shows each answer's length.
const SMALL = envInt('SCALE_SMALL', 2_000);
const MONTHS = envInt('SCALE_MONTHS', 13);
const CLIENTS = envInt('SCALE_CLIENTS', 20);
const REQUESTS = envInt('SCALE_REQUESTS', 200);
const SERIAL = envInt('SCALE_SERIAL', 30);

/** The plugins that exist in this checkout (each list family adds its own file). */
async function plugins(): Promise<ScaleList[]> {
  const wanted = envList('SCALE_PLUGINS', ['uploads', 'notifications', 'media', 'analytics']);
  const out: ScaleList[] = [];
  for (const name of wanted) {
    if (name === 'uploads') { out.push(uploadsScale); continue; }
    const file = path.join(__dirname, 'scale', `${name}.js`);
    if (!existsSync(file)) { say(`(no scale plugin ${name} in this checkout)`); continue; }
    const mod = (await import(file)) as Record<string, unknown>;
    const plugin = Object.values(mod).find((v): v is ScaleList => typeof v === 'object' && v !== null && 'seed' in v && 'requests' in v);
    if (plugin) out.push(plugin);
  }
  return out;
}

let agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });

/**
 * A request; one more try when a kept-alive socket was closed by the server meanwhile. The agent
 * is replaced only by the first request that failed on it: requests in flight on the new one
 * (other clients' retries) are not cut off by a later failure on the old one.
 */
async function send(base: string, key: string, r: MeasuredRequest): Promise<{ status: number; body: string }> {
  const used = agent;
  try {
    return await sendOnce(base, key, r, used);
  } catch (err) {
    if (!/socket hang up|ECONNRESET/.test((err as Error).message)) throw err;
    if (agent === used) {
      agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
      used.destroy();
    }
    return sendOnce(base, key, r, agent);
  }
}

function sendOnce(base: string, key: string, r: MeasuredRequest, agent: http.Agent): Promise<{ status: number; body: string }> {
  const url = new URL(r.path, base);
  const payload = r.body === undefined ? undefined : JSON.stringify(r.body);
  return new Promise((resolve, reject) => {
    const req = http.request(url, {
      method: r.method ?? 'GET', agent,
      headers: { authorization: `Apikey ${key}`, ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}) },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

interface Figure { p50: number; p99: number; serialP50: number; errors: number; rows: number | undefined }

/** How many records an answer holds: the length of its longest top-level list (undefined when it has none). */
function rowsIn(body: string): number | undefined {
  try {
    const parsed = JSON.parse(body) as unknown;
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const lengths = Object.values(parsed).filter(Array.isArray).map((a) => (a as unknown[]).length);
    return lengths.length ? Math.max(...lengths) : undefined;
  } catch {
    return undefined;
  }
}

/** p50/p99 of `count` requests with `clients` in flight, and p50 of SERIAL requests one at a time. */
async function measure(base: string, key: string, r: MeasuredRequest, fresh: (i: number) => MeasuredRequest = () => r): Promise<Figure> {
  const want = r.status ?? 200;
  let errors = 0;
  let rows: number | undefined;
  const one = async (i: number): Promise<number> => {
    const started = performance.now();
    const res = await send(base, key, fresh(i));
    const took = performance.now() - started;
    if (i === -1) rows = rowsIn(res.body);
    if (res.status !== want) {
      errors += 1;
      if (errors <= 2) say(`  ${r.name}: ${res.status} ${res.body.slice(0, 200)}`);
    }
    return took;
  };
  for (let i = 0; i < 3; i += 1) await one(-1 - i); // warm-up
  const serial: number[] = [];
  for (let i = 0; i < SERIAL; i += 1) serial.push(await one(i));
  const latencies: number[] = [];
  let next = SERIAL;
  await Promise.all(Array.from({ length: CLIENTS }, async () => {
    while (next < SERIAL + REQUESTS) {
      const i = next++;
      latencies.push(await one(i));
    }
  }));
  const sorted = latencies.sort((a, b) => a - b);
  const serialSorted = serial.sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p99: percentile(sorted, 99), serialP50: percentile(serialSorted, 50), errors, rows };
}

/** An async text upload to discord (no daily cap): the accept path's checks (monthly quota, duplicate window, idempotency, rate limit). */
const acceptRequest = (account: SeededAccount, tag: string) => (i: number): MeasuredRequest => ({
  name: 'async accept', method: 'POST', path: '/api/upload_text', status: 202,
  body: { user: account.profiles[0], 'platform[]': ['discord'], title: `scale ${tag} ${i} ${Math.random().toString(36).slice(2)}`, async_upload: true },
});
/** A post scheduled on x (daily cap 50) on one of 300 days ahead: the daily-cap check over the connection's history. */
const scheduleRequest = (account: SeededAccount, tag: string) => (i: number): MeasuredRequest => ({
  name: 'scheduled accept (cap check)', method: 'POST', path: '/api/upload_text', status: 202,
  body: {
    user: account.profiles[0], 'platform[]': ['x'], title: `scale ${tag} ${i} ${Math.random().toString(36).slice(2)}`,
    scheduled_date: new Date(Date.now() + (2 + (i + 3) % 300) * 24 * 3600_000 + Math.floor(Math.random() * 3600_000)).toISOString(),
  },
});

/** Every plugin's reads on one account. */
async function measureReads(b: BenchStack, account: SeededAccount, lists: ScaleList[]): Promise<Map<string, Figure>> {
  const out = new Map<string, Figure>();
  const get = async (p: string) => {
    const res = await send(b.stack.apiUrl, account.apiKey, { name: 'probe', path: p });
    if (res.status !== 200) throw new Error(`${p} answered ${res.status}: ${res.body.slice(0, 300)}`);
    return JSON.parse(res.body) as Record<string, unknown>;
  };
  for (const list of lists) {
    for (const r of await list.requests(account, get)) {
      out.set(`${list.name}: ${r.name}`, await measure(b.stack.apiUrl, account.apiKey, r));
    }
  }
  return out;
}

/**
 * The per-request checks (accepts: quota, caps, duplicates) on one account. They add uploads, so
 * they run on an account no read is measured on afterwards: on the small account's twin, and on
 * the large account after its reads.
 */
async function measureChecks(b: BenchStack, account: SeededAccount, tag: string): Promise<Map<string, Figure>> {
  const out = new Map<string, Figure>();
  const accept = acceptRequest(account, tag);
  out.set('checks: async accept', await measure(b.stack.apiUrl, account.apiKey, accept(0), accept));
  const scheduled = scheduleRequest(account, tag);
  out.set('checks: scheduled accept (cap check)', await measure(b.stack.apiUrl, account.apiKey, scheduled(0), scheduled));
  return out;
}

async function makeAccount(b: BenchStack, role: SeededAccount['role'], n: number, db: ReturnType<MongoClient['db']>, real: boolean): Promise<SeededAccount> {
  // The first small account is the bench key's own; its twin (n = 1) takes the accept checks.
  const own = role === 'small' && n === 0;
  const email = own ? 'bench-scale@herald.dev' : `scale-${role}-${n}@herald.dev`;
  const apiKey = own ? b.key : await b.stack.newApiKey(email);
  const operator = await db.collection('operator_accounts').findOne({ email });
  if (!operator) throw new Error(`no operator account ${email}`);
  const profiles = role === 'large' ? ['brand', 'shop', 'news'] : [role === 'small' ? 'bench' : `p${n}`];
  const connections: SeededAccount['connections'] = {};
  for (const profile of profiles) {
    if (!own || profile !== 'bench') {
      const res = await send(b.stack.apiUrl, apiKey, { name: 'profile', method: 'POST', path: '/api/herald/users', body: { username: profile } });
      if (res.status !== 201) throw new Error(`profile ${profile}: ${res.status} ${res.body}`);
    }
    if (real && profile === profiles[0]) {
      await connectNetworks({ ...b, key: apiKey, api: harness.apiClient(b.stack.apiUrl, apiKey) }, profile, ['bluesky', 'discord', 'x']);
    }
    const stored = await db.collection('connected_accounts').find({ accountId: String(operator._id), profileUsername: profile }).toArray();
    connections[profile] = [
      ...stored.map((c) => ({ platform: String(c.platform), connectionId: String(c._id) })),
      // Networks only the seeded history used (their connections are gone since): ids only.
      ...['linkedin', 'threads'].map((platform) => ({ platform, connectionId: `seeded-${String(operator._id)}-${profile}-${platform}` })),
      ...(real ? [] : ['x', 'bluesky'].map((platform) => ({ platform, connectionId: `seeded-${String(operator._id)}-${profile}-${platform}` }))),
    ];
  }
  return { id: String(operator._id), role, apiKey, profiles, connections };
}

/**
 * Drops the GIN indexes ops/ferretdb-tune.sh made on this database (FerretDB on PostgreSQL), so
 * a bulk seed does not update them row by row; `tune` builds them again afterwards. The counters
 * keep theirs: the seed writes them by `_id`, which without its index is a scan of the table each.
 */
function untune(dbName: string): void {
  const psql = psqlArgs();
  try {
    const names = execFileSync('psql', [...psql, '-c', `SELECT indexname FROM pg_indexes WHERE schemaname = '${dbName.replace(/'/g, '')}' AND indexname LIKE 'hgin\\_%' AND tablename NOT LIKE 'list\\_counters\\_%' AND tablename NOT LIKE 'counter\\_writers\\_%'`], { encoding: 'utf8' })
      .split('\n').filter(Boolean);
    if (names.length) execFileSync('psql', [...psql, '-c', names.map((n) => `DROP INDEX IF EXISTS "${dbName}"."${n}";`).join(' ')], { stdio: 'pipe' });
  } catch (err) {
    say(`(indexes kept during the seed: ${(err as Error).message.split('\n')[0]})`);
  }
}

function tune(dbName: string): void {
  try {
    execFileSync('bash', [path.join(ROOT, 'ops/ferretdb-tune.sh'), dbName], { stdio: 'pipe' });
  } catch (err) {
    say(`ferretdb-tune failed: ${(err as Error).message}`);
  }
  // Fresh statistics, as autovacuum leaves them a little after a restore: without them PostgreSQL
  // plans the first minutes after a bulk load from the sizes before it (a scan of the whole table
  // for every equality lookup: measured 10× on the small account's schedule at 10,000 uploads).
  try {
    const psql = psqlArgs();
    const tables = execFileSync('psql', [...psql, '-c', `SELECT tablename FROM pg_tables WHERE schemaname = '${dbName.replace(/'/g, '')}'`], { encoding: 'utf8' }).split('\n').filter(Boolean);
    execFileSync('psql', [...psql, '-c', tables.map((t) => `ANALYZE "${dbName}"."${t}";`).join(' ')], { stdio: 'pipe' });
  } catch (err) {
    say(`(statistics not refreshed: ${(err as Error).message.split('\n')[0]})`);
  }
}

/**
 * The repositories' own secondary indexes (not `_id`, not unique ones, which keep the seed honest)
 * are dropped through the driver during a bulk seed and made again after, as a restore would:
 * PostgreSQL then builds each once instead of updating it row by row.
 */
async function dropSecondaryIndexes(db: Db): Promise<Array<{ collection: string; key: Document; options: Document }>> {
  const out: Array<{ collection: string; key: Document; options: Document }> = [];
  for (const { name } of await db.listCollections({}, { nameOnly: true }).toArray()) {
    for (const ix of await db.collection(name).indexes()) {
      if (ix.name === '_id_' || ix.unique) continue;
      const { key, name: ixName, v: _v, ...rest } = ix as Document & { key: Document; name: string };
      void _v;
      out.push({ collection: name, key, options: { ...rest, name: ixName } });
      await db.collection(name).dropIndex(ixName);
    }
  }
  return out;
}

async function recreateIndexes(db: Db, specs: Array<{ collection: string; key: Document; options: Document }>): Promise<void> {
  const started = performance.now();
  for (const s of specs) await db.collection(s.collection).createIndex(s.key, s.options);
  say(`secondary indexes made again: ${specs.length} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

async function main(): Promise<void> {
  heading(`scale: lists and checks at ${UPLOADS.toLocaleString('en')} stored uploads`);
  say(describeEnvironment());
  const lists = await plugins();
  say(`plugins: ${lists.map((l) => l.name).join(', ')}`);
  const b = await startBenchStack({ name: 'scale', worker: false, profile: 'bench' });
  const client = await MongoClient.connect(b.stack.env.MONGODB_URI!);
  onCleanup(() => client.close());
  const db = client.db();
  const dbName = db.databaseName;
  const counters = await createListCounters(db);
  const write = bulkWriter(db, say);
  onCleanup(() => counters.stop());
  const random = seededRandom(27);
  const small = await makeAccount(b, 'small', 0, db, true);
  const smallTwin = await makeAccount(b, 'small', 1, db, true);
  const large = await makeAccount(b, 'large', 0, db, true);
  say('accounts: creating the others');
  const others: SeededAccount[] = [];
  for (let n = 0; n < OTHERS; n += 1) others.push(await makeAccount(b, 'other', n, db, false));
  const largeUploads = Math.round(UPLOADS * LARGE_SHARE);
  const perOther = OTHERS ? Math.floor((UPLOADS - largeUploads - 2 * SMALL) / OTHERS) : 0;
  const uploadsOf = (a: SeededAccount) => (a.role === 'small' ? SMALL : a.role === 'large' ? largeUploads : perOther);
  const ctx = (accounts: SeededAccount[]): SeedContext => ({
    db, write, counters, accounts, uploadsOf, now: new Date(), months: MONTHS, random, say: (line) => say(`  ${line}`),
  });

  let seedSeconds = 0;
  const seed = async (accounts: SeededAccount[]) => {
    const seedStart = performance.now();
    untune(dbName);
    const dropped = await dropSecondaryIndexes(db);
    for (const list of lists) {
      const started = performance.now();
      const { written } = await list.seed(ctx(accounts));
      say(`seeded ${list.name}: ${written.toLocaleString('en')} records in ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
    await recreateIndexes(db, dropped);
    tune(dbName);
    seedSeconds += Math.round((performance.now() - seedStart) / 1000);
  };

  heading('step 1: the small account alone');
  await seed([small, smallTwin]);
  const before = new Map([...await measureReads(b, small, lists), ...await measureChecks(b, smallTwin, 'before')]);

  heading(`step 2: ${largeUploads.toLocaleString('en')} uploads on the large account, ${(perOther * OTHERS).toLocaleString('en')} over ${OTHERS} others`);
  await seed([large, ...others]);
  const after = await measureReads(b, small, lists);
  const big = await measureReads(b, large, lists);
  for (const [name, f] of await measureChecks(b, smallTwin, 'after')) after.set(name, f);
  for (const [name, f] of await measureChecks(b, large, 'large')) big.set(name, f);

  heading('figures (ms): p50 and p99 at ' + `${CLIENTS} clients, p50 at 1 client`);
  const rows: Array<Array<string | number>> = [];
  const failed: string[] = [];
  for (const [name, s0] of before) {
    const s1 = after.get(name);
    const l = big.get(name);
    if (!s1 || !l) continue;
    const largeRatio = l.p50 / s1.p50;
    const smallRatio = s1.p50 / s0.p50;
    const largeGoal = name.includes('accept') ? 1.2 : 2;
    const ok = largeRatio <= largeGoal && smallRatio <= 1.5 && l.serialP50 <= 50 && s1.serialP50 <= 50 && l.errors + s1.errors + s0.errors === 0;
    if (!ok) failed.push(name);
    rows.push([name, ms(s0.p50), ms(s1.p50), `${smallRatio.toFixed(2)}×`, ms(l.p50), `${largeRatio.toFixed(2)}× (≤ ${largeGoal})`,
      `${ms(s1.p99)} / ${ms(l.p99)}`, `${ms(s1.serialP50)} / ${ms(l.serialP50)}`, `${s1.rows ?? '-'} / ${l.rows ?? '-'}`, l.errors + s1.errors + s0.errors, ok ? 'ok' : 'MISSED']);
  }
  const headers = ['request', 'small empty p50', 'small full p50', 'full/empty (≤1.5)', 'large p50', 'large/small', 'p99 small/large', '1-client p50 small/large', 'rows small/large', 'errors', 'goal'];
  say(table(headers, rows));
  say(failed.length ? `\ngoals missed: ${failed.join('; ')}` : '\nevery goal met');
  if (process.env.SCALE_RECORD === 'true') recordRun(headers, rows, { uploads: UPLOADS, large: largeUploads, others: OTHERS, failed, seedSeconds });
  if (process.env.SCALE_HOLD === 'true') {
    say(`\nholding: API ${b.stack.apiUrl}, small key ${small.apiKey}, large key ${large.apiKey}, database ${dbName}; interrupt to stop`);
    await new Promise<void>((resolve) => process.once('SIGINT', () => resolve()));
  }
}

/**
 * SCALE_RECORD=true: the run's table becomes docs/benchmarks/scale.md (written by the bench, never
 * by hand), with the date, the commit measured, the sizes and the load.
 */
function recordRun(headers: string[], rows: Array<Array<string | number>>, run: { uploads: number; large: number; others: number; failed: string[]; seedSeconds: number }): void {
  const commit = (() => {
    try {
      const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
      const dirty = execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).trim();
      return dirty ? `${head} (with uncommitted changes)` : head;
    } catch {
      return 'unknown';
    }
  })();
  const cell = (v: string | number) => String(v).replace(/\|/g, '\\|');
  const md = [
    '# scale',
    '',
    '`npm run bench -- scale` (test/bench/scale.bench.ts): every list and per-request check on a small',
    'account before and after the database fills, and on the large account, in one run. Goals: large',
    '≤ 2× small (≤ 1.2× for the async accept), small full ≤ 1.5× small empty, none above 50 ms p50 at',
    'one client. This page is written by the bench (`SCALE_RECORD=true`); the design is in',
    '[docs/storage/lists.md](../storage/lists.md).',
    '',
    '| Date | Commit | Uploads | Large account | Other accounts | Seeding | Machine | Goals missed |',
    '|---|---|---|---|---|---|---|---|',
    `| ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC | ${commit} | ${run.uploads.toLocaleString('en')} | ${run.large.toLocaleString('en')} | ${run.others} | ${run.seedSeconds} s | ${cell(describeEnvironment())} | ${run.failed.length} of ${rows.length} |`,
    '',
    `Figures in ms: p50 and p99 at ${CLIENTS} clients (${REQUESTS} requests each), p50 at one client (${SERIAL} requests).`,
    `The small account holds ${SMALL.toLocaleString('en')} uploads, the smallest whose every measured page is full; \`rows\` is`,
    'the length of each answer\'s list on the small and the large account: where they differ, the figures',
    'compare answers of different sizes, not the cost of history.',
    '',
    `| ${headers.map(cell).join(' | ')} |`,
    `|${headers.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
    '',
  ].join('\n');
  writeFileSync(path.join(ROOT, 'docs/benchmarks/scale.md'), md);
  say('(written to docs/benchmarks/scale.md)');
}

runMain('scale', main);
