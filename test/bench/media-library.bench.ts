/**
 * The media list's overhead: `GET /api/herald/media` against the simulator's own answer to the
 * same upstream call (the list the adapter asks for, sent straight to the simulator with a token
 * of the same account), same concurrency, same client, phases alternating so that load from
 * elsewhere on the machine colours them alike. Two networks of different shapes: Bluesky (XRPC
 * getAuthorFeed) and Threads (Graph /{user}/threads). Goal: Herald's p99 within 10 ms of the
 * simulator's p99 at 20 clients.
 *
 * Knobs: BENCH_CONCURRENCY (20), BENCH_SECONDS per phase and round (5), BENCH_ROUNDS (2),
 * BENCH_WARMUP requests per phase (200), BENCH_POSTS published per network first (30).
 */
import { performance } from 'node:perf_hooks';
import {
  boundedLoop, connectNetworks, describeEnvironment, envInt, errorCounts, heading, ms, runMain, say, ServerTiming, startBenchStack, startTimedApi, summarize, table, type Outcome,
} from './support';

const CONCURRENCY = envInt('BENCH_CONCURRENCY', 20);
const SECONDS = envInt('BENCH_SECONDS', 5);
const ROUNDS = envInt('BENCH_ROUNDS', 2);
const WARMUP = envInt('BENCH_WARMUP', 200, 0);
const POSTS = envInt('BENCH_POSTS', 30);
const LIMIT = 25;
const GOAL_MS = 10;
const TIMING_REQUESTS = envInt('BENCH_TIMING_REQUESTS', 1000, 0);

interface Path { label: string; url: string; headers: Record<string, string>; expect: (body: Record<string, unknown>) => boolean; outcomes: Array<Outcome<unknown>> }

async function get(p: Path): Promise<{ ok: boolean; error?: string }> {
  const res = await fetch(p.url, { headers: p.headers });
  const text = await res.text();
  if (res.status !== 200) return { ok: false, error: `HTTP ${res.status} ${text.slice(0, 120)}` };
  return p.expect(JSON.parse(text) as Record<string, unknown>) ? { ok: true } : { ok: false, error: `unexpected body ${text.slice(0, 120)}` };
}

async function main(): Promise<void> {
  heading('media list: GET /api/herald/media vs the simulator answering the same upstream call');
  say(describeEnvironment());
  say(`concurrency ${CONCURRENCY}, ${SECONDS} s per phase, ${ROUNDS} rounds, warm-up ${WARMUP}, ${POSTS} posts per network, limit ${LIMIT}`);
  const b = await startBenchStack({ name: 'media-library' });
  await connectNetworks(b, 'bench', ['bluesky', 'threads']);
  for (let i = 0; i < POSTS; i++) {
    const res = await b.api.post('/api/upload_text', { user: 'bench', 'platform[]': ['bluesky', 'threads'], title: `Media list bench post ${i}` });
    if (res.status !== 200 || res.body.all_succeeded !== true) throw new Error(`upload_text answered ${res.status}: ${JSON.stringify(res.body).slice(0, 300)}`);
  }

  // Straight to the simulators, as the adapters call them.
  const env = b.sandbox.env;
  const session = await fetch(`${env.BLUESKY_API_BASE}/xrpc/com.atproto.server.createSession`, {
    method: 'POST', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier: env.SANDBOX_BLUESKY_IDENTIFIER, password: env.SANDBOX_BLUESKY_APP_PASSWORD }),
  }).then((r) => r.json() as Promise<{ did: string; accessJwt: string }>);
  const threadsAccount = b.sandbox.accounts.threads;
  const threadsToken = b.sandbox.simulators.threads.issueToken(threadsAccount.accountId, { clientId: threadsAccount.clientId }).accessToken;
  const threadsSim = b.sandbox.simulators.threads;
  const api = (platform: string) => `${b.stack.apiUrl}/api/herald/media?platform=${platform}&user=bench&limit=${LIMIT}`;
  const herald = { Authorization: b.auth };
  const listed = (key: string) => (body: Record<string, unknown>) => Array.isArray(body[key]) && (body[key] as unknown[]).length === LIMIT;
  const paths: Path[] = [
    {
      label: 'bluesky simulator: getAuthorFeed',
      url: `${env.BLUESKY_API_BASE}/xrpc/app.bsky.feed.getAuthorFeed?${new URLSearchParams({ actor: session.did, limit: String(LIMIT), filter: 'posts_no_replies' })}`,
      headers: { authorization: `Bearer ${session.accessJwt}` }, expect: listed('feed'), outcomes: [],
    },
    { label: 'GET /media platform=bluesky', url: api('bluesky'), headers: herald, expect: listed('media'), outcomes: [] },
    {
      label: 'threads simulator: /{user}/threads',
      url: `${threadsSim.apiBase}/${threadsSim.apiVersion}/${threadsAccount.accountId}/threads?${new URLSearchParams({ fields: 'id,media_type,media_url,permalink,text,timestamp,thumbnail_url', limit: String(LIMIT) })}`,
      headers: { authorization: `Bearer ${threadsToken}` }, expect: listed('data'), outcomes: [],
    },
    { label: 'GET /media platform=threads', url: api('threads'), headers: herald, expect: listed('media'), outcomes: [] },
  ];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const p of paths) {
      await boundedLoop(WARMUP, CONCURRENCY, 60_000, () => get(p));
      const loop = await boundedLoop(Number.MAX_SAFE_INTEGER, CONCURRENCY, SECONDS * 1000, () => get(p));
      p.outcomes.push(...loop.outcomes);
      say(`[media-library] round ${round}: ${p.label}: ${loop.outcomes.filter((o) => o.ok).length} ok`);
    }
  }

  heading(`media list (ms), ${CONCURRENCY} concurrent clients, loopback, limit ${LIMIT}`);
  const lat = paths.map((p) => summarize(p.outcomes.filter((o) => o.ok).map((o) => o.latencyMs)));
  say(table(['path', 'ok', 'p50', 'p90', 'p99', 'max'], paths.map((p, i) => [p.label, p.outcomes.filter((o) => o.ok).length, ms(lat[i]!.p50), ms(lat[i]!.p90), ms(lat[i]!.p99), ms(lat[i]!.max)])));
  for (const [sim, mine, name] of [[0, 1, 'bluesky'], [2, 3, 'threads']] as const) {
    const overhead = lat[mine]!.p99 - lat[sim]!.p99;
    say(`${name}: Herald p99 ${ms(lat[mine]!.p99)} ms beside the simulator's own p99 ${ms(lat[sim]!.p99)} ms: overhead ${ms(overhead)} ms (goal ≤ ${GOAL_MS} ms: ${overhead <= GOAL_MS ? 'met' : 'NOT met'})`);
  }
  for (const p of paths) {
    const errors = errorCounts(p.outcomes);
    if (errors.length) say(`${p.label}: failures: ${errors.slice(0, 5).map(([e, n]) => `${n}× ${e}`).join('; ')}`);
  }

  if (TIMING_REQUESTS) {
    // Where Herald's time goes: a second API process with HERALD_DEBUG_TIMING answers the same lists.
    const timed = await startTimedApi(b);
    for (const p of [paths[1]!, paths[3]!]) {
      heading(`where the time of ${p.label} goes (HERALD_DEBUG_TIMING API, ${TIMING_REQUESTS} requests, ${CONCURRENCY} clients)`);
      const url = p.url.replace(b.stack.apiUrl, timed.url);
      const tally = new ServerTiming();
      await boundedLoop(TIMING_REQUESTS, CONCURRENCY, 120_000, async () => {
        const t0 = performance.now();
        const res = await fetch(url, { headers: p.headers });
        await res.text();
        tally.add(res.headers.get('server-timing'), performance.now() - t0);
        return res.status === 200 ? { ok: true } : { ok: false, error: `HTTP ${res.status}` };
      });
      say(tally.table());
    }
    await timed.stop();
  }
}

runMain('media-library', main);
