/**
 * The comment list's overhead: `GET /api/herald/comments` on one post with BENCH_COMMENTS comments
 * by other users, against the simulator's own answer to the same upstream call (what the adapter
 * asks for, sent straight to the simulator with a token of the same account), same concurrency,
 * same client, phases alternating (test/bench/support.ts, as the media-list bench). Two networks
 * of different shapes: Bluesky (XRPC getPostThread, the whole thread, paged by Herald) and Threads
 * (Graph /{post}/conversation, paged by the network). Goal: Herald's p99 within 10 ms of the
 * simulator's p99 at 20 clients.
 *
 * Knobs: BENCH_CONCURRENCY (20), BENCH_SECONDS per phase and round (5), BENCH_ROUNDS (4),
 * BENCH_WARMUP requests per phase (2000), BENCH_COMMENTS seeded under each post (30),
 * BENCH_TIMING_REQUESTS for the Server-Timing breakdown (1000; 0 skips it), BENCH_CLIENT (`http`
 * or `fetch`: the load client's HTTP client, test/bench/load-client.ts), BENCH_VARIANT_ENV.
 */
import {
  blueskySession, connectNetworks, describeEnvironment, envInt, heading, comparedPath, listBenchKnobs, listOf, variantPath, reportOverhead, runAlternating, runMain, say, startBenchStack, threadsAccess,
  timingBreakdown, type ComparedPath,
} from './support';
import type { BodyCheck } from './load-client';

const { CONCURRENCY, SECONDS, ROUNDS, WARMUP, LIMIT, GOAL_MS, TIMING_REQUESTS } = listBenchKnobs();
const COMMENTS = envInt('BENCH_COMMENTS', 30);

/** Bluesky's getPostThread answers every reply of the thread at once: `thread.replies` holds them all. */
const threadOf = (replies: number): BodyCheck => ({ array: ['thread', 'replies'], length: replies });

async function main(): Promise<void> {
  heading('comment list: GET /api/herald/comments vs the simulator answering the same upstream call');
  say(describeEnvironment());
  say(`concurrency ${CONCURRENCY}, ${SECONDS} s per phase, ${ROUNDS} rounds, warm-up ${WARMUP}, ${COMMENTS} comments per post, limit ${LIMIT}`);
  const b = await startBenchStack({ name: 'comments' });
  await connectNetworks(b, 'bench', ['bluesky', 'threads']);
  const published = await b.api.post('/api/upload_text', { user: 'bench', 'platform[]': ['bluesky', 'threads'], title: 'Comment list bench post' });
  if (published.status !== 200 || published.body.all_succeeded !== true) throw new Error(`upload_text answered ${published.status}: ${JSON.stringify(published.body).slice(0, 300)}`);
  const posts = { bluesky: published.body.results.bluesky.post_id as string, threads: published.body.results.threads.post_id as string };
  const sims = b.sandbox.simulators;
  for (let i = 0; i < COMMENTS; i++) {
    sims.bluesky.seedComment({ postId: posts.bluesky, text: `Bluesky reader comment ${i}`, authorName: `reader-${i}.bsky.social` });
    sims.threads.seedComment({ postId: posts.threads, text: `Threads reader comment ${i}` });
  }
  const page = Math.min(LIMIT, COMMENTS);

  // Straight to the simulators, as the adapters call them (adapters/platforms/{bluesky,threads}/comments.ts).
  const bluesky = await blueskySession(b);
  const threads = threadsAccess(b, ['threads_basic', 'threads_content_publish', 'threads_manage_replies', 'threads_read_replies']);
  const api = (platform: keyof typeof posts) => `${b.stack.apiUrl}/api/herald/comments?platform=${platform}&user=bench&post_id=${encodeURIComponent(posts[platform])}&limit=${LIMIT}`;
  const herald = { Authorization: b.auth };
  const apiPid = b.stack.api.child.pid;
  const paths: ComparedPath[] = [
    comparedPath({
      label: 'bluesky simulator: getPostThread',
      url: `${bluesky.base}/xrpc/app.bsky.feed.getPostThread?${new URLSearchParams({ uri: posts.bluesky, depth: '10', parentHeight: '0' })}`,
      headers: { authorization: `Bearer ${bluesky.accessJwt}` }, check: threadOf(COMMENTS),
    }),
    comparedPath({ label: 'GET /comments platform=bluesky', url: api('bluesky'), headers: herald, apiPid, check: listOf('comments', page) }),
    comparedPath({
      label: 'threads simulator: /{post}/conversation',
      url: `${threads.graph}/${posts.threads}/conversation?${new URLSearchParams({
        fields: 'id,text,timestamp,username,replied_to,root_post,is_reply_owned_by_me,hide_status', limit: String(LIMIT), reverse: 'false',
      })}`,
      headers: { authorization: `Bearer ${threads.token}` }, check: listOf('data', page),
    }),
    comparedPath({ label: 'GET /comments platform=threads', url: api('threads'), headers: herald, apiPid, check: listOf('comments', page) }),
  ];
  const variant = await variantPath(b, paths[3]!);
  if (variant) paths.push(variant);
  await runAlternating('comments', paths, { rounds: ROUNDS, warmup: WARMUP, concurrency: CONCURRENCY, seconds: SECONDS });
  reportOverhead(`comment list (ms), ${CONCURRENCY} concurrent clients, loopback, ${COMMENTS} comments, limit ${LIMIT}`, paths, [[0, 1, 'bluesky'], [2, 3, 'threads'], ...(variant ? [[2, 4, 'threads, variant'] as const] : [])], GOAL_MS);
  // Where Herald's time goes: a second API process with HERALD_DEBUG_TIMING answers the same lists.
  await timingBreakdown(b, [paths[1]!, paths[3]!], { requests: TIMING_REQUESTS, concurrency: CONCURRENCY });
}

runMain('comments', main);
