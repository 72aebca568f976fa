/**
 * The media list's overhead: `GET /api/herald/media` against the simulator's own answer to the
 * same upstream call (the list the adapter asks for, sent straight to the simulator with a token
 * of the same account), same concurrency, same client, phases alternating so that load from
 * elsewhere on the machine colours them alike. Two networks of different shapes: Bluesky (XRPC
 * getAuthorFeed) and Threads (Graph /{user}/threads). Goal: Herald's p99 within 10 ms of the
 * simulator's p99 at 20 clients.
 *
 * Knobs: BENCH_CONCURRENCY (20), BENCH_SECONDS per phase and round (5), BENCH_ROUNDS (4),
 * BENCH_WARMUP requests per phase (2000), BENCH_POSTS published per network first (30),
 * BENCH_TIMING_REQUESTS for the Server-Timing breakdown (1000; 0 skips it), BENCH_CLIENT (`http`
 * or `fetch`: the load client's HTTP client, test/bench/load-client.ts), BENCH_VARIANT_ENV.
 */
import {
  blueskySession, connectNetworks, describeEnvironment, envInt, heading, comparedPath, listBenchKnobs, listOf, variantPath, reportOverhead, runAlternating, runMain, say, startBenchStack, threadsAccess,
  timingBreakdown, type ComparedPath,
} from './support';

const { CONCURRENCY, SECONDS, ROUNDS, WARMUP, LIMIT, GOAL_MS, TIMING_REQUESTS } = listBenchKnobs();
const POSTS = envInt('BENCH_POSTS', 30);

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
  const bluesky = await blueskySession(b);
  const threads = threadsAccess(b);
  const api = (platform: string) => `${b.stack.apiUrl}/api/herald/media?platform=${platform}&user=bench&limit=${LIMIT}`;
  const herald = { Authorization: b.auth };
  const apiPid = b.stack.api.child.pid;
  const paths: ComparedPath[] = [
    comparedPath({
      label: 'bluesky simulator: getAuthorFeed',
      url: `${bluesky.base}/xrpc/app.bsky.feed.getAuthorFeed?${new URLSearchParams({ actor: bluesky.did, limit: String(LIMIT), filter: 'posts_no_replies' })}`,
      headers: { authorization: `Bearer ${bluesky.accessJwt}` }, check: listOf('feed', LIMIT),
    }),
    comparedPath({ label: 'GET /media platform=bluesky', url: api('bluesky'), headers: herald, apiPid, check: listOf('media', LIMIT) }),
    comparedPath({
      label: 'threads simulator: /{user}/threads',
      url: `${threads.graph}/${threads.userId}/threads?${new URLSearchParams({ fields: 'id,media_type,media_url,permalink,text,timestamp,thumbnail_url', limit: String(LIMIT) })}`,
      headers: { authorization: `Bearer ${threads.token}` }, check: listOf('data', LIMIT),
    }),
    comparedPath({ label: 'GET /media platform=threads', url: api('threads'), headers: herald, apiPid, check: listOf('media', LIMIT) }),
  ];
  const variant = await variantPath(b, paths[3]!);
  if (variant) paths.push(variant);
  await runAlternating('media-library', paths, { rounds: ROUNDS, warmup: WARMUP, concurrency: CONCURRENCY, seconds: SECONDS });
  reportOverhead(`media list (ms), ${CONCURRENCY} concurrent clients, loopback, limit ${LIMIT}`, paths, [[0, 1, 'bluesky'], [2, 3, 'threads'], ...(variant ? [[2, 4, 'threads, variant'] as const] : [])], GOAL_MS);
  // Where Herald's time goes: a second API process with HERALD_DEBUG_TIMING answers the same lists.
  await timingBreakdown(b, [paths[1]!, paths[3]!], { requests: TIMING_REQUESTS, concurrency: CONCURRENCY });
}

runMain('media-library', main);
