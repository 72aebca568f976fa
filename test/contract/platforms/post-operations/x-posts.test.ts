/**
 * X post operations against the X simulator: an edit is a new post id chained in
 * edit_history_tweet_ids, only within 30 minutes, at most 5 times, Premium accounts only, own posts
 * only; delete takes the whole chain; repost.
 */
import { PlatformError } from '../../../../core/domain/errors';
import type { PlatformAdapter, PlatformCredentials } from '../../../../core/ports/platform';
import { createXPlatform, X_SCOPES } from '../../../../adapters/platforms/x';
import { startXSimulator, type XSimAccount, type XSimulator } from '../../../../ops/simulators/x';

let sim: XSimulator;
let x: PlatformAdapter;
let premium: XSimAccount;
let basic: XSimAccount;
let client: { clientId: string; clientSecret: string | null };

beforeAll(async () => {
  sim = await startXSimulator({ seed: 'x-posts' });
  client = sim.createClient({ name: 'Herald', redirectUris: ['https://herald.example/cb'] });
  premium = sim.createAccount({ username: 'premium_poster', premium: true });
  basic = sim.createAccount({ username: 'basic_poster', premium: false });
  x = createXPlatform({ apiBase: sim.origin, authBase: sim.origin, clientId: client.clientId, clientSecret: client.clientSecret!, timeoutMs: 5000 });
});
afterAll(() => sim.close());
beforeEach(() => sim.reset());

function credentialsFor(who: XSimAccount): PlatformCredentials {
  const t = sim.issueTokens(who.id, { clientId: client.clientId });
  return { access_token: t.accessToken, refresh_token: t.refreshToken, expires_at: t.expiresAt.toISOString(), scope: X_SCOPES.join(' '), user_id: who.id, username: who.username };
}
const editor = () => x.postEditor!;
async function refusal(p: Promise<unknown>): Promise<PlatformError> {
  try { await p; } catch (err) { if (err instanceof PlatformError) return err; throw err; }
  throw new Error('expected a refusal');
}

it('an edit is a new post that replaces the old one; the chain grows with each edit', async () => {
  const ctx = { credentials: credentialsFor(premium) };
  const first = sim.createTweet(premium.id, 'First version');
  const second = await editor().edit!(ctx, { id: first }, { text: 'Second version' });
  expect(second).toMatchObject({ previousId: first, editHistory: [first, second.id], url: `https://x.com/premium_poster/status/${second.id}` });
  expect(second.id).not.toBe(first);
  const third = await editor().edit!(ctx, { id: second.id }, { text: 'Third version' });
  expect(third.editHistory).toEqual([first, second.id, third.id]);
  expect(sim.tweets(premium.id).find((t) => t.id === third.id)).toMatchObject({ text: 'Third version', edit_history_tweet_ids: [first, second.id, third.id] });
  // The request X got: POST /2/tweets with edit_options.previous_post_id.
  const bodies = sim.requests.filter((r) => r.method === 'POST' && r.path === '/2/tweets').map((r) => r.body);
  expect(bodies).toEqual([{ text: 'Second version', edit_options: { previous_post_id: first } }, { text: 'Third version', edit_options: { previous_post_id: second.id } }]);
  // An old version cannot be edited any more.
  expect((await refusal(editor().edit!(ctx, { id: first }, { text: 'Again' }))).failure).toEqual({ kind: 'rejected', code: 'edit_window_closed' });
});

it('at most 5 edits', async () => {
  const ctx = { credentials: credentialsFor(premium) };
  let id = sim.createTweet(premium.id, 'v0');
  for (let i = 1; i <= 5; i++) id = (await editor().edit!(ctx, { id }, { text: `v${i}` })).id;
  const err = await refusal(editor().edit!(ctx, { id }, { text: 'v6' }));
  expect(err.failure).toEqual({ kind: 'rejected', code: 'edit_limit_reached' });
});

it('only within 30 minutes of the original post', async () => {
  const ctx = { credentials: credentialsFor(premium) };
  const id = sim.createTweet(premium.id, 'Old news');
  sim.backdateTweet(id, 31 * 60_000);
  const err = await refusal(editor().edit!(ctx, { id }, { text: 'Fresh news' }));
  expect(err.failure).toEqual({ kind: 'rejected', code: 'edit_window_closed' });
  expect(sim.tweets(premium.id).map((t) => t.text)).toEqual(['Old news']);
});

it('premium accounts only, own posts only; unknown posts are not_found', async () => {
  const own = sim.createTweet(basic.id, 'Basic post');
  expect((await refusal(editor().edit!({ credentials: credentialsFor(basic) }, { id: own }, { text: 'x' }))).failure).toEqual({ kind: 'rejected', code: 'premium_required' });
  const others = sim.createTweet(basic.id, 'Not yours');
  expect((await refusal(editor().edit!({ credentials: credentialsFor(premium) }, { id: others }, { text: 'x' }))).failure).toEqual({ kind: 'rejected', code: 'not_owner' });
  expect((await refusal(editor().edit!({ credentials: credentialsFor(premium) }, { id: '1999999999999999999' }, { text: 'x' }))).failure).toEqual({ kind: 'rejected', code: 'not_found' });
  expect((await refusal(editor().edit!({ credentials: credentialsFor(premium) }, { id: own }, {}))).failure).toEqual({ kind: 'invalid_content', code: 'nothing_to_update' });
});

it('the simulator refuses an edit of a non-premium account itself (the adapter checks are not the only guard)', async () => {
  const id = sim.createTweet(basic.id, 'Direct');
  const t = sim.issueTokens(basic.id, { clientId: client.clientId });
  const res = await fetch(`${sim.origin}/2/tweets`, {
    method: 'POST', headers: { authorization: `Bearer ${t.accessToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'Edited', edit_options: { previous_post_id: id } }),
  });
  expect(res.status).toBe(403);
});

it('delete takes the whole edit chain; a repost is made as the account and goes with the original', async () => {
  const ctx = { credentials: credentialsFor(premium) };
  const first = sim.createTweet(premium.id, 'To be removed');
  const edited = await editor().edit!(ctx, { id: first }, { text: 'Removed soon' });
  const repost = await editor().repost!({ credentials: credentialsFor(basic) }, { id: edited.id });
  expect(sim.tweets(basic.id).find((t) => t.id === repost.id)).toMatchObject({ retweet_of: edited.id });
  await editor().unpublish!(ctx, { id: first });
  expect(sim.tweets()).toEqual([]);
  expect((await refusal(editor().unpublish!(ctx, { id: first }))).failure).toMatchObject({ kind: 'rejected' });
});

it('another account cannot delete the post', async () => {
  const id = sim.createTweet(premium.id, 'Mine');
  const err = await refusal(editor().unpublish!({ credentials: credentialsFor(basic) }, { id }));
  expect(err.failure.kind).toBe('rejected');
  expect(sim.tweets(premium.id)).toHaveLength(1);
});
