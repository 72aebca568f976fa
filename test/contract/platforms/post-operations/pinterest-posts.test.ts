/**
 * Pinterest post operations against the Pinterest simulator: save a Pin to a board (the spec's
 * repin; any account's Pin, to one of the caller's boards) and delete the account's own Pin.
 */
import { PlatformError } from '../../../../core/domain/errors';
import type { PublishContext } from '../../../../core/ports/platform';
import { createPinterestPlatform, type PinterestPlatform } from '../../../../adapters/platforms/pinterest';
import { startPinterestSimulator, type PinterestSimulator } from '../../../../ops/simulators/pinterest';
import { drivePublish, mediaFixtures, type MediaFixtures, FIXTURE_TIMEOUT_MS } from '../../../support/platform-harness';

let sim: PinterestSimulator;
let fixtures: MediaFixtures;
let pinterest: PinterestPlatform;
let app: { clientId: string; clientSecret: string };
let n = 0;

beforeAll(async () => {
  sim = await startPinterestSimulator({ seed: 'posts', processingMs: 20 });
  app = sim.createApp({ name: 'Herald', redirectUris: ['https://herald.example/cb'] });
  pinterest = createPinterestPlatform({ clientId: app.clientId, clientSecret: app.clientSecret, apiBase: sim.apiBase, authBase: sim.origin, timeoutMs: 5000 });
  fixtures = await mediaFixtures();
}, FIXTURE_TIMEOUT_MS);
afterAll(async () => {
  await sim.close();
  await fixtures.close();
});

function connected() {
  n += 1;
  const account = sim.createAccount({ username: `saver_${n}`, businessName: `Saver ${n}` });
  const board = sim.createBoard(account.id, { name: 'Ideas' });
  const section = sim.createBoardSection(board.id, 'Later');
  const tokens = sim.issueTokens(account.id, { clientId: app.clientId });
  const ctx: PublishContext = { credentials: { access_token: tokens.accessToken, refresh_token: tokens.refreshToken, expires_at: tokens.expiresAt.toISOString() }, idempotencyKey: `k${n}`, media: fixtures.access };
  return { account, board, section, ctx };
}
async function publishedPin(who: ReturnType<typeof connected>) {
  const { outcome } = await drivePublish(pinterest, who.ctx, { kind: 'photo', title: `A pin ${n}`, media: [fixtures.images[0]!], settings: { pinterest_board_id: who.board.id } }, { maxWaitMs: 20 });
  return outcome.postId;
}
async function refusal(p: Promise<unknown>): Promise<PlatformError> {
  try { await p; } catch (err) { if (err instanceof PlatformError) return err; throw err; }
  throw new Error('expected a refusal');
}

it("saves another account's pin to one of the caller's boards, into a section", async () => {
  const author = connected();
  const saver = connected();
  const pinId = await publishedPin(author);
  const saved = await pinterest.postEditor!.save!(saver.ctx, { id: pinId }, { boardId: saver.board.id, sectionId: saver.section.id });
  expect(saved).toEqual({ id: expect.stringMatching(/^\d+$/), url: `https://www.pinterest.com/pin/${saved.id}/` });
  expect(sim.pins(saver.account.id).map((p) => p.pin)).toEqual([expect.objectContaining({ id: saved.id, parent_pin_id: pinId, board_id: saver.board.id, board_section_id: saver.section.id })]);
  const body = sim.requests.find((r) => r.method === 'POST' && r.path === `/v5/pins/${pinId}/save`)!.body;
  expect(body).toEqual({ board_id: saver.board.id, board_section_id: saver.section.id });
});

it("refuses a board that is not the caller's, and an unknown pin", async () => {
  const author = connected();
  const saver = connected();
  const pinId = await publishedPin(author);
  expect((await refusal(pinterest.postEditor!.save!(saver.ctx, { id: pinId }, { boardId: author.board.id }))).failure).toEqual({ kind: 'invalid_content', code: 'board_not_found' });
  expect((await refusal(pinterest.postEditor!.save!(saver.ctx, { id: '123456789' }, { boardId: saver.board.id }))).failure).toEqual({ kind: 'rejected', code: 'not_found' });
});

it('deletes only its own pins', async () => {
  const author = connected();
  const other = connected();
  const pinId = await publishedPin(author);
  expect((await refusal(pinterest.postEditor!.unpublish!(other.ctx, { id: pinId }))).failure).toEqual({ kind: 'rejected', code: 'not_found' });
  await pinterest.postEditor!.unpublish!(author.ctx, { id: pinId });
  expect(sim.pins(author.account.id)).toEqual([]);
});
