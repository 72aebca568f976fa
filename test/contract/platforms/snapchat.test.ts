/**
 * Snapchat Public Profile adapter against its simulator: the shared platform contract, then the
 * network's own cases (the encrypted, chunked upload flow, Stories and Spotlight, delete, Snap's refusals).
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PlatformError } from '../../../core/domain/errors';
import { resolveSettings } from '../../../core/domain/settings';
import type { MediaAccess, MediaRef, PlatformAdapter, PublishPost, VerifiedConnection } from '../../../core/ports/platform';
import { createSnapchatPlatform, mapSnapchatFailure } from '../../../adapters/platforms/snapchat';
import { mp4DurationSeconds, startSnapchatSimulator, type SnapchatSimulator } from '../../../ops/simulators/snapchat';
import { drivePublish, FIXTURE_TIMEOUT_MS, mediaFixtures, type MediaFixtures } from '../../support/platform-harness';
import { platformContract, type PlatformHarness } from './shared-contract';

const REDIRECT = 'https://herald.example/api/herald/oauth/snapchat/callback';
/** Small parts, so the contract's 6 s video goes up in several. */
const PART_BYTES = 64 * 1024;

let fx: MediaFixtures;
let dir: string;
/** A 6 s vertical MP4 (Snap takes 5 to 60 s), served by a media access of its own. */
let clip: MediaRef;
let clipAccess: MediaAccess;
beforeAll(async () => {
  fx = await mediaFixtures();
  dir = mkdtempSync(path.join(os.tmpdir(), 'herald-snap-'));
  const file = path.join(dir, 'clip.mp4');
  execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=540x960:rate=30:duration=6', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', file]);
  const id = 'snapclip';
  clip = { id, kind: 'video', contentType: 'video/mp4', size: statSync(file).size, filename: 'clip.mp4', info: { durationSeconds: 6, width: 540, height: 960, frameRate: 30, videoCodec: 'h264', audioCodec: null, container: 'mov,mp4,m4a,3gp,3g2,mj2' } };
  clipAccess = {
    read: (mediaId, range) => (mediaId === id ? createReadStream(file, range ? { start: range.start, end: range.end - 1 } : {}) : fx.access.read(mediaId, range)),
    publicUrl: (mediaId) => fx.access.publicUrl(mediaId),
    rendition: (mediaId, as) => fx.access.rendition(mediaId, as),
  };
}, FIXTURE_TIMEOUT_MS);
afterAll(async () => {
  await fx?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

let serial = 0;
const post = (adapter: PlatformAdapter, title: string, media: MediaRef[], fields: Record<string, unknown> = {}): PublishPost => {
  const r = resolveSettings('snapchat', adapter.descriptor.settings, fields, { endpoint: 'video', mediaCount: media.length });
  if (r.violations.length) throw new Error(JSON.stringify(r.violations));
  return { kind: 'video', title: `${title} #${++serial}`, media, settings: r.values };
};

async function oauthConnect(adapter: PlatformAdapter, userId: string): Promise<VerifiedConnection> {
  const state = `st-${randomBytes(6).toString('hex')}`;
  const verifier = randomBytes(32).toString('base64url');
  const authorize = new URL(adapter.oauth!.authorizeUrl({ state, redirectUri: REDIRECT, codeChallenge: createHash('sha256').update(verifier).digest('base64url') }));
  const page = await fetch(authorize);
  expect(page.status).toBe(200);
  await page.text();
  const approved = await fetch(`${authorize.origin}${authorize.pathname}`, {
    method: 'POST', redirect: 'manual', body: new URLSearchParams({ ...Object.fromEntries(authorize.searchParams), account_id: userId, decision: 'approve' }),
  });
  const back = new URL(approved.headers.get('location')!);
  return adapter.oauth!.exchangeCode({ code: back.searchParams.get('code')!, redirectUri: REDIRECT, codeVerifier: verifier });
}

let sim: SnapchatSimulator;
let adapter: PlatformAdapter;
let profile: { id: string; userId: string };

const harness: PlatformHarness = {
  name: 'snapchat',
  async start() {
    sim = await startSnapchatSimulator();
    const client = sim.createClient({ redirectUris: [REDIRECT] });
    profile = sim.createProfile({ displayName: 'Contract Snaps', username: 'contractsnaps' });
    adapter = createSnapchatPlatform({ ...client, apiBase: sim.apiBase, authBase: sim.authBase, partBytes: PART_BYTES, timeoutMs: 5000 });
  },
  stop: () => sim.close(),
  reset: () => sim.reset(),
  get adapter() { return adapter; },
  connect: () => oauthConnect(adapter, profile.userId),
  refresh: { model: 'after_expiry', expireAccessToken: () => sim.expireAccessTokens(profile.userId) },
  publishable: { video: () => post(adapter, 'Contract spotlight', [clip], { snapchat_post_type: 'SPOTLIGHT' }) },
  media: () => clipAccess,
  networkHas: async (o) => sim.posts(profile.id).some((p) => p.id === o.postId),
  publishedCount: () => sim.posts().length,
  requestCount: () => sim.requests.length,
  failures: [
    { mode: 'token_expired', arm: () => sim.fail('token_expired'), expect: { kind: 'auth_expired' } },
    { mode: 'real:access_token_expired', arm: () => sim.expireAccessTokens(profile.userId), expect: { kind: 'auth_expired' } },
    { mode: 'rate_limited', arm: () => sim.fail('rate_limited'), expect: { kind: 'rate_limited', retryAfterMs: 10_000 } },
    { mode: 'server_error', arm: () => sim.fail('server_error'), expect: { kind: 'transient' } },
    { mode: 'service_unavailable', arm: () => sim.fail('service_unavailable'), expect: { kind: 'transient' } },
    { mode: 'not_allowlisted', arm: () => sim.fail('not_allowlisted'), expect: { kind: 'rejected', code: 'permission_denied' } },
    { mode: 'media_rejected', arm: () => sim.fail('media_rejected'), expect: { kind: 'invalid_content', code: 'media_rejected' } },
  ],
};

platformContract(harness, () => fx);

describe('snapchat: network-specific', () => {
  beforeAll(() => harness.start());
  afterAll(() => harness.stop());
  beforeEach(() => sim.reset());

  const publish = async (credentials: Record<string, string>, p: PublishPost) =>
    (await drivePublish(adapter, { credentials, idempotencyKey: 'k', media: clipAccess }, p)).outcome;

  it('connects a Public Profile: its id is the identity and goes with the credentials', async () => {
    const { identity, credentials } = await harness.connect();
    expect(identity).toEqual({ platformUserId: profile.id, handle: '@contractsnaps', displayName: 'Contract Snaps', avatarUrl: expect.stringMatching(/^https:/) });
    expect(credentials).toMatchObject({ profile_id: profile.id, refresh_token: expect.any(String), expires_at: expect.any(String) });
  });

  it('uploads the video encrypted, in ordered parts, finalizes, then posts a Story (its text dropped with a warning)', async () => {
    const { credentials } = await harness.connect();
    const outcome = await publish(credentials, post(adapter, 'Not sent', [clip]));
    const adds = sim.requests.filter((r) => (r.body as { fields?: Record<string, string> })?.fields?.action === 'ADD');
    expect(adds.length).toBe(Math.ceil((clip.size + 1) / PART_BYTES));
    expect(adds.map((r) => (r.body as { fields: Record<string, string> }).fields.part_number)).toEqual(adds.map((_, i) => String(i + 1)));
    const [media] = sim.media();
    // The simulator decrypted the parts with the key and iv of the media creation: the bytes are the file's.
    expect(media).toMatchObject({ state: 'READY', size: clip.size, type: 'VIDEO' });
    expect(media!.durationSeconds).toBeCloseTo(6, 0);
    expect(sim.posts(profile.id)).toEqual([expect.objectContaining({ id: outcome.postId, kind: 'story', mediaId: media!.id })]);
    expect(outcome.warnings).toEqual([expect.stringMatching(/Stories carry no text/)]);
  });

  it('a Spotlight carries the text as its description and locale', async () => {
    const { credentials } = await harness.connect();
    const outcome = await publish(credentials, post(adapter, 'Spotlight #fun', [clip], { snapchat_post_type: 'SPOTLIGHT', snapchat_locale: 'fr_FR' }));
    expect(sim.posts()).toEqual([expect.objectContaining({ id: outcome.postId, kind: 'spotlight', description: expect.stringMatching(/^Spotlight #fun/), locale: 'fr_FR' })]);
    expect(outcome.extra).toMatchObject({ snapchat_post_type: 'SPOTLIGHT' });
  });

  it('deletes a Spotlight', async () => {
    const { credentials } = await harness.connect();
    const outcome = await publish(credentials, post(adapter, 'Gone soon', [clip], { snapchat_post_type: 'SPOTLIGHT' }));
    await adapter.postEditor!.unpublish!({ credentials }, { id: outcome.postId, ...(outcome.extra ? { extra: outcome.extra } : {}) });
    expect(sim.posts()).toHaveLength(0);
  });

  it('the simulator refuses what Snap refuses: a 3 s video, bytes not encrypted with the given key, posting unfinished media', async () => {
    const { credentials } = await harness.connect();
    const short = await drivePublish(adapter, { credentials, idempotencyKey: 'k', media: fx.access }, { ...post(adapter, 'Short', [clip]), media: [fx.video] })
      .then(() => undefined, (err: unknown) => err as PlatformError);
    expect(short).toMatchObject({ failure: { kind: 'invalid_content', code: 'media_invalid' } });
    expect(short!.message).toMatch(/5 to 60 seconds/);
    expect(sim.posts()).toHaveLength(0);

    const auth = { authorization: `Bearer ${credentials.access_token}` };
    const create = await fetch(`${sim.apiBase}/v1/public_profiles/${profile.id}/media`, {
      method: 'POST', headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'VIDEO', name: 'raw', key: randomBytes(32).toString('base64'), iv: randomBytes(16).toString('base64') }),
    });
    const { media_id: mediaId, add_path: addPath, finalize_path: finalizePath } = await create.json() as Record<string, string>;
    const early = await fetch(`${sim.apiBase}/v1/public_profiles/${profile.id}/stories`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ media_id: mediaId }) });
    expect(early.status).toBe(400);
    const add = new FormData();
    add.append('action', 'ADD');
    add.append('part_number', '1');
    add.append('file', new Blob([Buffer.alloc(4096, 7)]), 'p');
    expect((await fetch(`${sim.apiBase}${addPath}`, { method: 'POST', headers: auth, body: add })).status).toBe(200);
    const fin = new FormData();
    fin.append('action', 'FINALIZE');
    const finalized = await fetch(`${sim.apiBase}${finalizePath}`, { method: 'POST', headers: auth, body: fin });
    expect(finalized.status).toBe(400);
    expect(await finalized.json()).toMatchObject({ request_status: 'ERROR', error_code: 'E2001' });
  });

  it('a rotated refresh token is stored; the old one is refused afterwards', async () => {
    const { credentials } = await harness.connect();
    const renewed = await adapter.refresher!.refresh(credentials);
    expect(renewed.refresh_token).not.toBe(credentials.refresh_token);
    await expect(adapter.refresher!.refresh(credentials)).rejects.toMatchObject({ failure: { kind: 'auth_expired', reason: 'invalid_grant' } });
    expect(mapSnapchatFailure({ kind: 'response', status: 403, headers: new Headers(), body: { request_status: 'ERROR', error_code: 'E1003', display_message: 'no' } }, { timeoutMs: 1, now: new Date() }))
      .toMatchObject({ failure: { kind: 'rejected', code: 'permission_denied' } });
  });

  it('reads an MP4 duration from its mvhd box', () => {
    const box = Buffer.alloc(40);
    box.write('mvhd', 4, 'latin1');
    box.writeUInt32BE(1000, 20);
    box.writeUInt32BE(7500, 24);
    expect(mp4DurationSeconds(box)).toBe(7.5);
  });
});
