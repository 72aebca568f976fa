import { execFileSync } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PlatformError } from '../../../core/domain/errors';
import { resolveSettings } from '../../../core/domain/settings';
import type { MediaAccess, MediaRef, PlatformCredentials, PublishContext, PublishPost, PublishStep } from '../../../core/ports/platform';
import { createFfprobe } from '../../../adapters/media/ffprobe';
import {
  createPinterestPlatform, mapPinterestFailure, PINTEREST_VIDEO_NOT_READY_CODE, pinterestDescriptor, type PinterestPlatform,
} from '../../../adapters/platforms/pinterest';
import {
  PINTEREST_SIM_RATE_LIMIT_RESET_SECONDS, PINTEREST_SIM_VIDEO_NOT_READY_CODE, startPinterestSimulator,
  type PinterestSimApp, type PinterestSimulator,
} from '../../../ops/simulators/pinterest';
import { drivePublish, mediaFixtures, type MediaFixtures , FIXTURE_TIMEOUT_MS } from '../../support/platform-harness';

const REDIRECT = 'https://herald.test/oauth/pinterest/callback';
const SCOPES = 'boards:read,boards:write,pins:read,pins:write,user_accounts:read';

let sim: PinterestSimulator;
let fixtures: MediaFixtures;
let app: PinterestSimApp;
let pinterest: PinterestPlatform;
/** The fixtures' media plus a 4.5 s video: Pinterest videos last at least 4 s, the fixtures' 3 s. */
let access: MediaAccess;
let video5s: MediaRef;
let tmp: string;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  sim = await startPinterestSimulator({ seed: 'contract', processingMs: 50 });
  app = sim.createApp({ name: 'Herald', redirectUris: [REDIRECT] });
  pinterest = createPinterestPlatform({ clientId: app.clientId, clientSecret: app.clientSecret, apiBase: sim.apiBase, authBase: sim.origin, timeoutMs: 5000 });
  fixtures = await mediaFixtures();
  tmp = mkdtempSync(path.join(os.tmpdir(), 'herald-pinterest-'));
  const file = path.join(tmp, 'five-seconds.mp4');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=320x568:rate=15:duration=4.5',
    '-c:v', 'libx264', '-pix_fmt', 'yuv420p', file]);
  const info = await createFfprobe({ pathOf: () => file }).probe('five-seconds');
  video5s = { id: 'five-seconds', kind: 'video', contentType: 'video/mp4', size: statSync(file).size, filename: 'five-seconds.mp4', info };
  access = {
    read: (id, range) => (id === video5s.id
      ? createReadStream(file, range ? { start: range.start, end: range.end - 1 } : {})
      : fixtures.access.read(id, range)),
    publicUrl: (id) => fixtures.access.publicUrl(id),
    rendition: fixtures.access.rendition,
  };
}, FIXTURE_TIMEOUT_MS);
afterAll(async () => {
  await sim.close();
  await fixtures.close();
  rmSync(tmp, { recursive: true, force: true });
});
beforeEach(() => sim.reset());

let accountCount = 0;
/** A business account with a board and a section, connected to the app. */
function connected(scopes?: string[]) {
  const n = ++accountCount;
  const account = sim.createAccount({ username: `herald_pins_${n}`, businessName: `Herald Pins ${n}` });
  const board = sim.createBoard(account.id, { name: 'Launches' });
  const section = sim.createBoardSection(board.id, 'Spring');
  const tokens = sim.issueTokens(account.id, { clientId: app.clientId, ...(scopes ? { scopes } : {}) });
  const ctx: PublishContext = {
    credentials: { access_token: tokens.accessToken, refresh_token: tokens.refreshToken, expires_at: tokens.expiresAt.toISOString() },
    idempotencyKey: `idem-${n}`,
    media: access,
  };
  return { account, board, section, tokens, ctx };
}

const photoPost = (media: MediaRef[], settings: Record<string, unknown>, title = 'Spring launch', description?: string): PublishPost =>
  ({ kind: 'photo', title, ...(description ? { description } : {}), media, settings });
const videoPost = (settings: Record<string, unknown>, media: MediaRef[] = [video5s], title = 'Spring launch video'): PublishPost =>
  ({ kind: 'video', title, media, settings });
const calls = () => sim.requests.map((r) => `${r.method} ${r.path}`);
const resolve = (fields: Record<string, unknown>, endpoint: 'photo' | 'video', mediaCount: number) =>
  resolveSettings('pinterest', pinterestDescriptor.settings, fields, { endpoint, mediaCount });
const fieldsOf = (violations: Array<{ field: string }>) => violations.map((v) => v.field).sort();

async function rejection(p: Promise<unknown>): Promise<PlatformError> {
  try {
    await p;
  } catch (err) {
    return err as PlatformError;
  }
  throw new Error('expected a rejection');
}

describe('descriptor and settings', () => {
  it('declares an OAuth network with video and photo endpoints and Pinterest limits', () => {
    expect(pinterestDescriptor).toMatchObject({
      id: 'pinterest',
      connect: 'oauth',
      endpoints: ['video', 'photo'],
      limits: {
        textMaxChars: 100,
        video: { maxBytes: 2 * 1024 ** 3, minSeconds: 4, maxSeconds: 900, containers: ['mov,mp4,m4a,3gp,3g2,mj2'] },
        photo: { maxBytes: 20 * 1024 ** 2, maxCount: 5 },
      },
    });
    expect(pinterest.oauth!.pkce).toBe(false);
    expect(pinterest.comments).toBeUndefined();
  });

  it('reads AI disclosures as CSV, JSON or a list, carousel lists by their [] names, and converts types', () => {
    const csv = resolve({ pinterest_board_id: '123', pinterest_ai_disclosures: 'AI_MODIFIED, SYNTHETIC_PERFORMER' }, 'photo', 1);
    expect(csv).toMatchObject({ violations: [], values: { pinterest_board_id: '123', pinterest_ai_disclosures: ['AI_MODIFIED', 'SYNTHETIC_PERFORMER'] } });
    expect(resolve({ pinterest_board_id: '1', pinterest_ai_disclosures: '["AI_MODIFIED"]' }, 'photo', 1).values.pinterest_ai_disclosures).toEqual(['AI_MODIFIED']);
    expect(resolve({ pinterest_board_id: '1', 'pinterest_ai_disclosures[]': ['SYNTHETIC_PERFORMER'] }, 'photo', 1).values.pinterest_ai_disclosures).toEqual(['SYNTHETIC_PERFORMER']);

    const carousel = resolve({
      pinterest_board_id: '123',
      'pinterest_carousel_titles[]': ['Red, the first', 'Blue'],
      pinterest_carousel_descriptions: 'one, with a comma||two',
      pinterest_carousel_links: '["https://example.com/a"]',
      pinterest_carousel_index: '1',
      pinterest_link: 'https://example.com/launch',
    }, 'photo', 3);
    expect(carousel.violations).toEqual([]);
    expect(carousel.values).toEqual({
      pinterest_board_id: '123',
      pinterest_carousel_titles: ['Red, the first', 'Blue'],
      pinterest_carousel_descriptions: ['one, with a comma', 'two'],
      pinterest_carousel_links: ['https://example.com/a'],
      pinterest_carousel_index: 1,
      pinterest_link: 'https://example.com/launch',
    });
    expect(carousel.consumed).toEqual(expect.arrayContaining(['pinterest_carousel_titles[]', 'pinterest_carousel_descriptions']));

    const video = resolve({ pinterest_board_id: '9', pinterest_cover_image_key_frame_time: '2500' }, 'video', 1);
    expect(video).toMatchObject({ violations: [], values: { pinterest_cover_image_key_frame_time: 2500 } });
  });

  it('answers out-of-range values and bad enum values with violations naming the field', () => {
    const r = resolve({
      pinterest_board_id: '1',
      pinterest_alt_text: 'a'.repeat(501),
      pinterest_description: 'd'.repeat(801),
      pinterest_ai_disclosures: 'AI_GENERATED',
      pinterest_carousel_index: '-1',
      pinterest_link: 'ftp://example.com/x',
    }, 'photo', 3);
    expect(fieldsOf(r.violations)).toEqual(['pinterest_ai_disclosures', 'pinterest_alt_text', 'pinterest_carousel_index', 'pinterest_description', 'pinterest_link']);
    expect(r.violations.find((v) => v.field === 'pinterest_ai_disclosures')!.message).toMatch(/AI_MODIFIED, SYNTHETIC_PERFORMER/);

    const v = resolve({ pinterest_board_id: '1', pinterest_cover_image_key_frame_time: '-5', pinterest_cover_image_content_type: 'image/gif' }, 'video', 1);
    expect(fieldsOf(v.violations)).toEqual(['pinterest_cover_image_content_type', 'pinterest_cover_image_key_frame_time']);
  });

  it('requires a numeric board id on both endpoints', () => {
    expect(resolve({}, 'photo', 1).violations).toEqual([{ field: 'pinterest_board_id', message: expect.stringMatching(/required/) }]);
    expect(resolve({}, 'video', 1).violations.map((x) => x.field)).toEqual(['pinterest_board_id']);
    expect(resolve({ pinterest_board_id: 'my-board' }, 'photo', 1).violations[0]!.message).toMatch(/numeric/);
  });

  it('checks carousel fields against the number of photos (2 to 5)', () => {
    expect(fieldsOf(resolve({ pinterest_board_id: '1', pinterest_carousel_titles: ['a', 'b', 'c'] }, 'photo', 2).violations)).toEqual(['pinterest_carousel_titles']);
    expect(fieldsOf(resolve({ pinterest_board_id: '1', pinterest_carousel_titles: ['a'], pinterest_carousel_index: 0 }, 'photo', 1).violations))
      .toEqual(['pinterest_carousel_index', 'pinterest_carousel_titles']);
    expect(fieldsOf(resolve({ pinterest_board_id: '1' }, 'photo', 6).violations)).toEqual(['photos[]']);
    expect(fieldsOf(resolve({ pinterest_board_id: '1', pinterest_carousel_index: 2 }, 'photo', 2).violations)).toEqual(['pinterest_carousel_index']);
    expect(fieldsOf(resolve({ pinterest_board_id: '1', pinterest_carousel_links: 'https://ok.example||not a url' }, 'photo', 2).violations)).toEqual(['pinterest_carousel_links']);
    expect(resolve({ pinterest_board_id: '1', pinterest_carousel_titles: ['a', 'b'] }, 'photo', 5).violations).toEqual([]);
  });

  it('makes the cover sources mutually exclusive and requires content type and data together', () => {
    const both = resolve({ pinterest_board_id: '1', pinterest_cover_image_url: 'https://example.com/c.jpg', pinterest_cover_image_key_frame_time: 1000 }, 'video', 1);
    expect(fieldsOf(both.violations)).toEqual(['pinterest_cover_image_key_frame_time', 'pinterest_cover_image_url']);
    expect(both.violations[0]!.message).toMatch(/mutually exclusive/);
    expect(fieldsOf(resolve({ pinterest_board_id: '1', pinterest_cover_image_data: 'iVBORw0KGgo=' }, 'video', 1).violations)).toEqual(['pinterest_cover_image_content_type']);
    expect(fieldsOf(resolve({ pinterest_board_id: '1', pinterest_cover_image_content_type: 'image/png' }, 'video', 1).violations)).toEqual(['pinterest_cover_image_data']);
    expect(fieldsOf(resolve({ pinterest_board_id: '1', pinterest_cover_image_content_type: 'image/png', pinterest_cover_image_data: 'not base64!' }, 'video', 1).violations))
      .toEqual(['pinterest_cover_image_data']);
  });

  it('ignores fields of the other endpoint with a warning', () => {
    const onVideo = resolve({ pinterest_board_id: '1', pinterest_ai_disclosures: 'AI_MODIFIED', pinterest_board_section_id: '5' }, 'video', 1);
    expect(onVideo.values).toEqual({ pinterest_board_id: '1' });
    expect(onVideo.warnings).toEqual([
      'pinterest_board_section_id is not used by pinterest on this endpoint and was ignored.',
      'pinterest_ai_disclosures is not used by pinterest on this endpoint and was ignored.',
    ]);
    expect(resolve({ pinterest_board_id: '1', pinterest_cover_image_url: 'https://example.com/c.jpg' }, 'photo', 1).warnings).toHaveLength(1);
  });
});

describe('connect', () => {
  it('builds the authorize URL with the client id, scopes, redirect and state (no PKCE)', () => {
    const url = new URL(pinterest.oauth!.authorizeUrl({ state: 'st-123', redirectUri: REDIRECT, codeChallenge: 'ignored' }));
    expect(`${url.origin}${url.pathname}`).toBe(`${sim.origin}/oauth/`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: app.clientId, redirect_uri: REDIRECT, response_type: 'code', scope: SCOPES, state: 'st-123',
    });
    const real = createPinterestPlatform({ clientId: 'abc', clientSecret: 's' }).oauth!.authorizeUrl({ state: 's', redirectUri: REDIRECT });
    expect(real.startsWith('https://www.pinterest.com/oauth/?')).toBe(true);
  });

  it('approve page → code → tokens with Basic client auth → identity from /v5/user_account', async () => {
    const account = sim.createAccount({ username: 'herald_oauth', businessName: 'Herald OAuth', profileImage: 'https://i.pinimg.com/a.jpg' });
    const authorizeUrl = pinterest.oauth!.authorizeUrl({ state: 'st-1', redirectUri: REDIRECT });
    const page = await fetch(authorizeUrl);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('herald_oauth');

    const params = Object.fromEntries(new URL(authorizeUrl).searchParams);
    const approve = await fetch(`${sim.origin}/oauth/`, {
      method: 'POST', redirect: 'manual', body: new URLSearchParams({ ...params, account_id: account.id, decision: 'allow' }),
    });
    expect(approve.status).toBe(302);
    const back = new URL(approve.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get('state')).toBe('st-1');

    sim.reset();
    const before = Date.now();
    const { identity, credentials } = await pinterest.oauth!.exchangeCode({ code: back.searchParams.get('code')!, redirectUri: REDIRECT });
    expect(identity).toEqual({ platformUserId: account.id, handle: 'herald_oauth', displayName: 'Herald OAuth', avatarUrl: 'https://i.pinimg.com/a.jpg' });
    expect(credentials).toEqual({
      access_token: expect.stringMatching(/^pina_/),
      refresh_token: expect.stringMatching(/^pinr_/),
      expires_at: expect.any(String),
      refresh_token_expires_at: expect.any(String),
      scope: SCOPES,
      user_id: account.id,
      username: 'herald_oauth',
    });
    expect(Date.parse(credentials.expires_at!) - before).toBeGreaterThan(29 * 86400_000);
    expect(Date.parse(credentials.refresh_token_expires_at!) - before).toBeGreaterThan(59 * 86400_000);

    expect(calls()).toEqual(['POST /v5/oauth/token', 'GET /v5/user_account']);
    const [tokenReq, userReq] = sim.requests;
    expect(tokenReq!.headers.authorization).toBe(`Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString('base64')}`);
    expect(tokenReq!.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(tokenReq!.body).toEqual({ grant_type: 'authorization_code', code: back.searchParams.get('code'), redirect_uri: REDIRECT, continuous_refresh: 'true' });
    expect(userReq!.headers.authorization).toBe(`Bearer ${credentials.access_token}`);
  });

  it('a denied approval comes back with error=access_denied', async () => {
    const params = Object.fromEntries(new URL(pinterest.oauth!.authorizeUrl({ state: 'st-2', redirectUri: REDIRECT })).searchParams);
    const res = await fetch(`${sim.origin}/oauth/`, { method: 'POST', redirect: 'manual', body: new URLSearchParams({ ...params, decision: 'deny' }) });
    const back = new URL(res.headers.get('location')!);
    expect(Object.fromEntries(back.searchParams)).toEqual({ error: 'access_denied', state: 'st-2' });
  });

  it('a used code, or a code for another redirect URI, is refused as auth_expired', async () => {
    const account = sim.createAccount({ username: 'herald_code' });
    const code = sim.issueAuthCode(account.id, { clientId: app.clientId, redirectUri: REDIRECT });
    await pinterest.oauth!.exchangeCode({ code, redirectUri: REDIRECT });
    await expect(pinterest.oauth!.exchangeCode({ code, redirectUri: REDIRECT }))
      .rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'grant_rejected' }, upstream: { status: 400, code: 1 } });
    const other = sim.issueAuthCode(account.id, { clientId: app.clientId, redirectUri: REDIRECT });
    await expect(pinterest.oauth!.exchangeCode({ code: other, redirectUri: 'https://elsewhere.test/cb' }))
      .rejects.toMatchObject({ failure: { kind: 'auth_expired' } });
  });


  it('computes expires_at of a refreshed token from the injected clock', async () => {
    const clock = new Date('2001-02-03T04:05:06Z');
    const { ctx } = connected();
    const renewed = await createPinterestPlatform({ clientId: app.clientId, clientSecret: app.clientSecret, apiBase: sim.apiBase, now: () => clock })
      .refresher!.refresh(ctx.credentials);
    const at = Date.parse(renewed.expires_at!);
    expect(at).toBeGreaterThan(clock.getTime());
    expect(at).toBeLessThan(clock.getTime() + 400 * 86400_000);
  });

  it('refresh rotates the refresh token; the old one then stops working', async () => {
    const { ctx, account } = connected();
    const old: PlatformCredentials = { ...ctx.credentials, user_id: account.id };
    const renewed = await pinterest.refresher!.refresh(old);
    expect(renewed.access_token).not.toBe(old.access_token);
    expect(renewed.refresh_token).toMatch(/^pinr_/);
    expect(renewed.refresh_token).not.toBe(old.refresh_token);
    expect(renewed.user_id).toBe(account.id);
    expect(sim.requests.at(-1)!.body).toEqual({ grant_type: 'refresh_token', refresh_token: old.refresh_token });

    await expect(pinterest.listBoards(renewed)).resolves.toHaveLength(1);
    await expect(pinterest.refresher!.refresh(old)).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'grant_rejected' } });
    await expect(pinterest.refresher!.refresh(renewed)).resolves.toMatchObject({ access_token: expect.stringMatching(/^pina_/) });
  });

  it.each([
    ['revoked', (accountId: string) => sim.revokeTokens(accountId)],
    ['expired', (accountId: string) => sim.expireRefreshTokens(accountId)],
    ['refused (refresh_rejected)', () => sim.fail('refresh_rejected')],
  ])('refresh with a %s refresh token is auth_expired', async (_label, breakIt) => {
    const { ctx, account } = connected();
    breakIt(account.id);
    await expect(pinterest.refresher!.refresh(ctx.credentials)).rejects.toMatchObject({ failure: { kind: 'auth_expired' } });
  });

  it('a wrong client secret is refused as auth_expired too, and no credentials means reconnect', async () => {
    const { ctx } = connected();
    const wrong = createPinterestPlatform({ clientId: app.clientId, clientSecret: 'nope', apiBase: sim.apiBase });
    await expect(wrong.refresher!.refresh(ctx.credentials)).rejects.toMatchObject({ failure: { kind: 'auth_expired' }, upstream: { status: 401, code: 2 } });
    await expect(pinterest.refresher!.refresh({ access_token: 'x' })).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'refresh_token_missing' } });
  });
});

describe('boards lookup', () => {
  it('lists every board of the account across bookmark pages', async () => {
    const { ctx, account, board } = connected();
    for (let i = 0; i < 120; i++) sim.createBoard(account.id, { name: `Board ${i}`, privacy: i % 2 ? 'SECRET' : 'PUBLIC' });
    const boards = await pinterest.listBoards(ctx.credentials);
    expect(boards).toHaveLength(121);
    expect(boards[0]).toEqual({ id: board.id, name: 'Launches', description: '', privacy: 'PUBLIC' });
    expect(boards[2]).toMatchObject({ name: 'Board 1', privacy: 'SECRET' });
    expect(sim.requests.map((r) => r.query)).toEqual([{ page_size: '100' }, { page_size: '100', bookmark: expect.any(String) }]);
  });
});

describe('publish photos', () => {
  it('pins one photo from its public URL, mapping every setting onto the Pin', async () => {
    const { ctx, board, section, tokens } = connected();
    const image = fixtures.images[0]!;
    const step = await pinterest.publisher!.publish(ctx, photoPost([image], {
      pinterest_board_id: board.id,
      pinterest_board_section_id: section.id,
      pinterest_link: 'https://example.com/spring',
      pinterest_alt_text: 'A blue square',
      pinterest_ai_disclosures: ['AI_MODIFIED', 'SYNTHETIC_PERFORMER'],
    }, 'Spring launch', 'Remember to reshare on Monday'));
    expect(step.kind).toBe('done');

    const [stored] = sim.pins();
    expect(stored!.request).toEqual({
      board_id: board.id,
      board_section_id: section.id,
      title: 'Spring launch',
      description: 'Spring launch',
      link: 'https://example.com/spring',
      alt_text: 'A blue square',
      note: 'Remember to reshare on Monday',
      ai_disclosures: { values: ['AI_MODIFIED', 'SYNTHETIC_PERFORMER'] },
      media_source: { source_type: 'image_url', url: fixtures.access.publicUrl(image.id) },
    });
    expect(stored!.fetched).toEqual([{ url: fixtures.access.publicUrl(image.id), contentType: 'image/jpeg', size: image.size }]);
    expect(sim.requests.map((r) => r.headers.authorization)).toEqual([`Bearer ${tokens.accessToken}`]);
    expect(step.kind === 'done' && step.outcome).toEqual({
      postId: stored!.pin.id,
      url: `https://www.pinterest.com/pin/${String(stored!.pin.id)}/`,
      warnings: [],
      extra: { board_id: board.id, board_section_id: section.id, pin_type: 'image' },
    });
  });

  it('uses pinterest_description over the title, and sends no optional field that was not given', async () => {
    const { ctx, board } = connected();
    await pinterest.publisher!.publish(ctx, photoPost([fixtures.png], { pinterest_board_id: board.id, pinterest_description: 'The long story.' }, 'Short'));
    expect(sim.pins()[0]!.request).toEqual({
      board_id: board.id, title: 'Short', description: 'The long story.',
      media_source: { source_type: 'image_url', url: fixtures.access.publicUrl(fixtures.png.id) },
    });
    expect(sim.pins()[0]!.fetched[0]!.contentType).toBe('image/png');
  });

  it('pins 2-5 photos as a carousel with per-item titles, descriptions, links and the index', async () => {
    const { ctx, board } = connected();
    const images = fixtures.images.slice(0, 3);
    const outcome = (await drivePublish(pinterest, ctx, photoPost(images, {
      pinterest_board_id: board.id,
      pinterest_carousel_titles: ['First', 'Second'],
      pinterest_carousel_descriptions: ['One', 'Two', 'Three'],
      pinterest_carousel_links: ['https://example.com/1'],
      pinterest_carousel_index: 2,
    }))).outcome;
    const [stored] = sim.pins();
    expect(stored!.request.media_source).toEqual({
      source_type: 'multiple_image_urls',
      items: [
        { url: fixtures.access.publicUrl(images[0]!.id), title: 'First', description: 'One', link: 'https://example.com/1' },
        { url: fixtures.access.publicUrl(images[1]!.id), title: 'Second', description: 'Two' },
        { url: fixtures.access.publicUrl(images[2]!.id), description: 'Three' },
      ],
      index: 2,
    });
    expect(stored!.fetched.map((f) => f.size)).toEqual(images.map((i) => i.size));
    expect(stored!.pin.creative_type).toBe('CAROUSEL');
    expect(outcome.extra).toEqual({ board_id: board.id, pin_type: 'carousel' });
  });
});

describe('publish video', () => {
  it('registers the upload, posts every upload parameter with the file, polls, then pins the video', async () => {
    const { ctx, board } = connected();
    const { outcome, steps } = await drivePublish(pinterest, ctx, videoPost({
      pinterest_board_id: board.id, pinterest_link: 'https://example.com/v', pinterest_alt_text: 'Test pattern',
    }));
    expect(steps).toBeGreaterThanOrEqual(2);
    expect(calls()).toEqual(['POST /v5/media', 'POST /pinterest-media-upload/', 'GET /v5/media/' + String(outcome.extra!.media_id), 'POST /v5/pins']);

    const [registerReq, uploadReq] = sim.requests;
    expect(registerReq!.body).toEqual({ media_type: 'video' });
    const [media] = sim.media();
    expect(media).toMatchObject({ size: video5s.size, contentType: 'video/mp4', filename: 'five-seconds.mp4', broken: false });
    const uploaded = uploadReq!.body as { fields: Record<string, string>; files: Array<{ name: string; size: number }> };
    expect(uploaded.fields).toEqual(media!.uploadParameters);
    expect(Object.keys(uploaded.fields)).toEqual(expect.arrayContaining(['key', 'policy', 'x-amz-signature', 'x-amz-credential', 'Content-Type']));
    expect(uploaded.files).toEqual([{ name: 'file', filename: 'five-seconds.mp4', size: video5s.size }]);
    expect(uploadReq!.headers.authorization).toBeUndefined();

    expect(sim.pins()[0]!.request).toEqual({
      board_id: board.id, title: 'Spring launch video', description: 'Spring launch video', link: 'https://example.com/v', alt_text: 'Test pattern',
      media_source: { source_type: 'video_id', media_id: media!.id, cover_image_key_frame_time: 0 },
    });
    expect(outcome).toEqual({
      postId: sim.pins()[0]!.pin.id,
      url: `https://www.pinterest.com/pin/${String(sim.pins()[0]!.pin.id)}/`,
      warnings: [],
      extra: { board_id: board.id, pin_type: 'video', media_id: media!.id },
    });
  });

  it('waits while the media is processing, backing off between polls', async () => {
    const { ctx, board } = connected();
    const post = videoPost({ pinterest_board_id: board.id });
    const first = await pinterest.publisher!.publish(ctx, post);
    expect(first).toEqual({ kind: 'wait', afterMs: 2000, state: { stage: 'processing', mediaId: sim.media()[0]!.id, polls: 0 } });
    const second = await pinterest.publisher!.resume!(ctx, post, JSON.parse(JSON.stringify(first.kind === 'wait' && first.state)));
    expect(second).toEqual({ kind: 'wait', afterMs: 4000, state: { stage: 'processing', mediaId: sim.media()[0]!.id, polls: 1 } });
    expect(sim.pins()).toHaveLength(0);
  });

  it.each([
    [{ pinterest_cover_image_key_frame_time: 3000 }, { cover_image_key_frame_time: 3 }, []],
    [{ pinterest_cover_image_key_frame_time: 2500 }, { cover_image_key_frame_time: 2 }, ['pinterest_cover_image_key_frame_time 2500 ms was rounded down to 2 s: Pinterest takes whole seconds.']],
  ])('sends the key frame %j as whole seconds', async (settings, cover, warnings) => {
    const { ctx, board } = connected();
    const { outcome } = await drivePublish(pinterest, ctx, videoPost({ pinterest_board_id: board.id, ...settings }));
    expect(sim.pins()[0]!.request.media_source).toEqual({ source_type: 'video_id', media_id: sim.media()[0]!.id, ...cover });
    expect(outcome.warnings).toEqual(warnings);
  });

  it('sends a cover URL (fetched by Pinterest) or base64 cover data with its content type', async () => {
    const { ctx, board } = connected();
    const coverUrl = fixtures.access.publicUrl(fixtures.images[1]!.id);
    await drivePublish(pinterest, ctx, videoPost({ pinterest_board_id: board.id, pinterest_cover_image_url: coverUrl }));
    expect(sim.pins()[0]!.request.media_source).toEqual({ source_type: 'video_id', media_id: sim.media()[0]!.id, cover_image_url: coverUrl });
    expect(sim.pins()[0]!.fetched).toEqual([{ url: coverUrl, contentType: 'image/jpeg', size: fixtures.images[1]!.size }]);

    sim.reset();
    const png = (await collect(fixtures.access.read(fixtures.png.id))).toString('base64');
    await drivePublish(pinterest, ctx, videoPost({ pinterest_board_id: board.id, pinterest_cover_image_content_type: 'image/png', pinterest_cover_image_data: png }));
    expect(sim.pins()[0]!.request.media_source).toEqual({
      source_type: 'video_id', media_id: sim.media()[0]!.id, cover_image_content_type: 'image/png', cover_image_data: png,
    });
  });

  it('retries a "video not ready" save refusal twice, after 15 s and 30 s', async () => {
    const { ctx, board } = connected();
    const post = videoPost({ pinterest_board_id: board.id });
    sim.fail('video_not_ready', 2);
    const steps: PublishStep[] = [await pinterest.publisher!.publish(ctx, post)];
    while (steps.at(-1)!.kind === 'wait') {
      await sleep(80);
      const last = steps.at(-1) as Extract<PublishStep, { kind: 'wait' }>;
      steps.push(await pinterest.publisher!.resume!(ctx, post, JSON.parse(JSON.stringify(last.state))));
    }
    const mediaId = sim.media()[0]!.id;
    expect(steps.slice(1, 3)).toEqual([
      { kind: 'wait', afterMs: 15_000, state: { stage: 'save', mediaId, saveAttempts: 1 } },
      { kind: 'wait', afterMs: 30_000, state: { stage: 'save', mediaId, saveAttempts: 2 } },
    ]);
    expect(steps).toHaveLength(4);
    expect(calls().filter((c) => c === 'POST /v5/pins')).toHaveLength(3);
    expect(sim.pins()).toHaveLength(1);
  });

  it('fails as transient after the third refusal', async () => {
    const { ctx, board } = connected();
    sim.fail('video_not_ready', 3);
    const err = await rejection(drivePublish(pinterest, ctx, videoPost({ pinterest_board_id: board.id })));
    expect(err).toMatchObject({ failure: { kind: 'transient' }, upstream: { status: 409, code: PINTEREST_VIDEO_NOT_READY_CODE } });
    expect(err.message).toMatch(/after 2 retries/);
    expect(calls().filter((c) => c === 'POST /v5/pins')).toHaveLength(3);
    expect(sim.pins()).toHaveLength(0);
    // The adapter's expectation and the simulator's answer are the same (undocumented) code.
    expect(PINTEREST_SIM_VIDEO_NOT_READY_CODE).toBe(PINTEREST_VIDEO_NOT_READY_CODE);
  });

  it('a video Pinterest cannot process fails as invalid_content', async () => {
    const { ctx, board } = connected();
    // JPEG bytes presented as a video: the upload succeeds, the processing does not.
    const fake: MediaRef = { ...video5s, id: fixtures.images[0]!.id, size: fixtures.images[0]!.size };
    await expect(drivePublish(pinterest, ctx, videoPost({ pinterest_board_id: board.id }, [fake])))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'video_processing_failed' } });
    sim.fail('media_processing_failed');
    await expect(drivePublish(pinterest, ctx, videoPost({ pinterest_board_id: board.id })))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'video_processing_failed' } });
    expect(sim.pins()).toHaveLength(0);
  });

  it.each([
    ['upload_refused', { kind: 'transient' }, { status: 403, code: 'AccessDenied' }],
    ['upload_server_error', { kind: 'transient' }, { status: 503, code: 'SlowDown' }],
    ['upload_too_large', { kind: 'invalid_content', code: 'video_too_large' }, { status: 400, code: 'EntityTooLarge' }],
  ] as const)('the upload storage answering %s is mapped from its XML code', async (mode, failure, upstream) => {
    const { ctx, board } = connected();
    sim.fail(mode);
    await expect(pinterest.publisher!.publish(ctx, videoPost({ pinterest_board_id: board.id }))).rejects.toMatchObject({ failure, upstream });
    expect(calls()).toEqual(['POST /v5/media', 'POST /pinterest-media-upload/']);
  });
});

async function collect(chunks: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const c of chunks) parts.push(Buffer.from(c));
  return Buffer.concat(parts);
}

describe('failures', () => {
  const publishPhoto = (ctx: PublishContext, boardId: string, extra: Record<string, unknown> = {}) =>
    pinterest.publisher!.publish(ctx, photoPost([fixtures.images[0]!], { pinterest_board_id: boardId, ...extra }));

  it.each([
    ['expired_token', { kind: 'auth_expired', reason: 'token_invalid' }, { status: 401, code: 2 }],
    ['revoked_token', { kind: 'auth_expired', reason: 'token_invalid' }, { status: 401, code: 2 }],
    ['missing_scope', { kind: 'auth_expired', reason: 'scope_missing' }, { status: 401, code: 3 }],
    ['rate_limited', { kind: 'rate_limited', retryAfterMs: PINTEREST_SIM_RATE_LIMIT_RESET_SECONDS * 1000 }, { status: 429, code: 8 }],
    ['server_error', { kind: 'transient' }, { status: 500 }],
    ['bad_gateway', { kind: 'transient' }, { status: 502 }],
    ['forbidden', { kind: 'rejected', code: 'forbidden' }, { status: 403, code: 29 }],
    ['board_not_found', { kind: 'invalid_content', code: 'board_not_found' }, { status: 404, code: 40 }],
    ['board_section_not_found', { kind: 'invalid_content', code: 'board_section_not_found' }, { status: 404, code: 2031 }],
    ['image_too_small', { kind: 'invalid_content', code: 'image_too_small' }, { status: 403, code: 233 }],
    ['image_broken', { kind: 'invalid_content', code: 'image_broken' }, { status: 403, code: 235 }],
    ['invalid_parameters', { kind: 'invalid_content', code: 'invalid_parameters' }, { status: 400, code: 1 }],
  ] as const)('%s is mapped to %j and nothing is pinned', async (mode, failure, upstream) => {
    const { ctx, board, tokens } = connected();
    sim.fail(mode);
    const err = await rejection(publishPhoto(ctx, board.id));
    expect(err).toBeInstanceOf(PlatformError);
    expect(err).toMatchObject({ failure, upstream });
    expect(err.message).not.toContain(tokens.accessToken);
    expect(sim.pins()).toHaveLength(0);
  });

  it('real token state: expired and revoked access tokens are auth_expired', async () => {
    const a = connected();
    sim.expireAccessTokens(a.account.id);
    await expect(publishPhoto(a.ctx, a.board.id)).rejects.toMatchObject({ failure: { kind: 'auth_expired' }, upstream: { status: 401 } });
    const b = connected();
    sim.revokeTokens(b.account.id);
    await expect(publishPhoto(b.ctx, b.board.id)).rejects.toMatchObject({ failure: { kind: 'auth_expired' } });
    const c = connected(['boards:read', 'user_accounts:read']);
    await expect(publishPhoto(c.ctx, c.board.id)).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'scope_missing' } });
  });

  it('real board state: another account\'s board, or an unknown section, is invalid_content', async () => {
    const a = connected();
    const b = connected();
    await expect(publishPhoto(a.ctx, b.board.id)).rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'board_not_found' } });
    await expect(publishPhoto(a.ctx, a.board.id, { pinterest_board_section_id: '123456' }))
      .rejects.toMatchObject({ failure: { kind: 'invalid_content', code: 'board_section_not_found' } });
  });

  it('an image URL Pinterest cannot fetch fails the Pin', async () => {
    const { ctx, board } = connected();
    const unreachable: PublishContext = { ...ctx, media: { ...access, publicUrl: (id) => `${fixtures.publicBase}/media/${'0'.repeat(64)}?id=${id}` } };
    await expect(publishPhoto(unreachable, board.id)).rejects.toMatchObject({ failure: { kind: 'invalid_content' }, upstream: { status: 400, code: 1 } });
  });

  it('a timeout is transient with an unknown outcome', async () => {
    const { ctx, board, tokens } = connected();
    const impatient = createPinterestPlatform({ clientId: app.clientId, clientSecret: app.clientSecret, apiBase: sim.apiBase, timeoutMs: 100 });
    sim.setLatency(400);
    const err = await rejection(impatient.publisher!.publish(ctx, photoPost([fixtures.images[0]!], { pinterest_board_id: board.id })));
    expect(err).toMatchObject({ failure: { kind: 'transient' } });
    expect(err.message).toMatch(/100 ms.*outcome is unknown/);
    expect(err.message).not.toContain(tokens.accessToken);
    await sleep(500);
    expect(sim.pins()).toHaveLength(0);
  });

  it('reads the rate-limit wait from Retry-After or x-ratelimit-reset, and a 2xx without a Pin is not transient', () => {
    // The reset as an epoch time is read against the clock given, not the machine's.
    const now = new Date('2025-01-15T20:00:00Z');
    const answer = (status: number, headers: Record<string, string>, body: unknown = { code: 8, message: 'slow down' }) =>
      mapPinterestFailure({ kind: 'response', status, headers: new Headers(headers), body }, { call: 'api', timeoutMs: 1000, now });
    expect(answer(429, { 'retry-after': '12' }).failure).toEqual({ kind: 'rate_limited', retryAfterMs: 12_000 });
    expect(answer(429, { 'x-ratelimit-reset': String(now.getTime() / 1000 + 60) }).failure).toEqual({ kind: 'rate_limited', retryAfterMs: 60_000 });
    expect(answer(429, { 'x-ratelimit-reset': '30' }).failure).toEqual({ kind: 'rate_limited', retryAfterMs: 30_000 });
    expect((answer(429, {}).failure as { retryAfterMs: number }).retryAfterMs).toBe(60_000);
    expect(mapPinterestFailure({ kind: 'malformed', status: 201, what: 'the created Pin' }, { call: 'api', timeoutMs: 1000, now }).failure)
      .toEqual({ kind: 'rejected', code: 'unexpected_response' });
  });
});

describe('validation before sending', () => {
  const rejects = async (post: PublishPost, code: string, message?: RegExp) => {
    const { ctx } = connected();
    sim.reset();
    const err = await rejection(pinterest.publisher!.publish(ctx, post));
    expect(err).toMatchObject({ failure: { kind: 'invalid_content', code } });
    if (message) expect(err.message).toMatch(message);
    expect(sim.requests).toHaveLength(0);
  };

  it('refuses a missing or non-numeric board id', async () => {
    await rejects(photoPost([fixtures.images[0]!], {}), 'invalid_settings', /pinterest_board_id is required/);
    await rejects(videoPost({ pinterest_board_id: 'launches' }), 'invalid_settings', /numeric/);
  });

  it('refuses a video outside 4 s to 15 min (the 3 s fixture), and a photo-endpoint video', async () => {
    await rejects(videoPost({ pinterest_board_id: '1' }, [fixtures.video]), 'video_too_short', /4 s to 15 minutes; this one lasts 3\.0 s/);
    await rejects(photoPost([fixtures.video], { pinterest_board_id: '1' }), 'video_not_allowed');
    await rejects(videoPost({ pinterest_board_id: '1' }, [video5s, video5s]), 'media_invalid');
  });

  it('refuses a title over 100 characters and more than 5 photos', async () => {
    await rejects(photoPost([fixtures.images[0]!], { pinterest_board_id: '1' }, 't'.repeat(101)), 'title_too_long', /100 characters/);
    await rejects(photoPost(fixtures.images.slice(0, 6), { pinterest_board_id: '1' }), 'too_many_photos');
  });

  it('refuses carousel fields on one photo and two cover sources', async () => {
    await rejects(photoPost([fixtures.images[0]!], { pinterest_board_id: '1', pinterest_carousel_titles: ['a'] }), 'invalid_settings', /carousel of 2 to 5/);
    await rejects(videoPost({ pinterest_board_id: '1', pinterest_cover_image_url: 'https://example.com/c.jpg', pinterest_cover_image_key_frame_time: 0 }),
      'invalid_settings', /mutually exclusive/);
  });

  it('refuses text posts as unsupported', async () => {
    const { ctx } = connected();
    sim.reset();
    await expect(pinterest.publisher!.publish(ctx, { kind: 'text', title: 'hi', media: [], settings: {} }))
      .rejects.toMatchObject({ failure: { kind: 'unsupported' } });
    expect(sim.requests).toHaveLength(0);
  });
});

describe('simulator', () => {
  it('keeps a route-bound failure armed until its route is called, also when queued over HTTP', async () => {
    const { ctx, board } = connected();
    await fetch(`${sim.origin}/__sim/failures`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ mode: 'board_not_found' }) });
    await pinterest.listBoards(ctx.credentials);
    expect(sim.state()).toMatchObject({ failures: [], armedFailures: ['board_not_found'] });
    await expect(pinterest.publisher!.publish(ctx, photoPost([fixtures.images[0]!], { pinterest_board_id: board.id })))
      .rejects.toMatchObject({ failure: { code: 'board_not_found' } });
    expect(sim.state()).toMatchObject({ armedFailures: [] });
  });

  it('refuses an upload whose parameters were altered, with S3 XML', async () => {
    const { ctx } = connected();
    const res = await fetch(`${sim.apiBase}/media`, {
      method: 'POST', headers: { authorization: `Bearer ${ctx.credentials.access_token}`, 'content-type': 'application/json' }, body: '{"media_type":"video"}',
    });
    const registered = await res.json() as { upload_url: string; upload_parameters: Record<string, string> };
    expect(res.status).toBe(201);
    const form = new FormData();
    for (const [k, v] of Object.entries(registered.upload_parameters)) form.append(k, k === 'policy' ? `${v}x` : v);
    form.append('file', new Blob([readFileSync(path.join(tmp, 'five-seconds.mp4'))], { type: 'video/mp4' }), 'v.mp4');
    const upload = await fetch(registered.upload_url, { method: 'POST', body: form });
    expect(upload.status).toBe(403);
    expect(await upload.text()).toMatch(/<Code>AccessDenied<\/Code>.*policy/s);
  });

  it('hands out the same ids and tokens for the same seed', async () => {
    const a = await startPinterestSimulator({ seed: 'fixed' });
    const b = await startPinterestSimulator({ seed: 'fixed' });
    try {
      const make = (s: PinterestSimulator) => {
        const client = s.createApp();
        const account = s.createAccount({ username: 'same' });
        return { client, account, board: s.createBoard(account.id, { name: 'b' }).id, tokens: s.issueTokens(account.id, { clientId: client.clientId }).accessToken };
      };
      expect(make(a)).toEqual(make(b));
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
