import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { approveAuthorization, startSandbox, type Sandbox } from '../../apps/sandbox/main';
import { apiClient, eventually, freePort, startStack, type Stack } from '../support/stack';

jest.setTimeout(300_000);

const OAUTH = ['tiktok', 'instagram', 'threads', 'facebook', 'youtube', 'linkedin', 'x', 'pinterest'] as const;
const NINE = [...OAUTH, 'bluesky'] as const;

/**
 * Issue 4's end to end: every network connected through its real connect flow (OAuth authorize
 * page + callback, or app password), then ONE request with a video to all nine networks, and one
 * with photos, through Temporal, with per-network results, warnings, status and history.
 */
describe('one request to all nine networks', () => {
  let sandbox: Sandbox;
  let stack: Stack;
  let api: ReturnType<typeof apiClient>;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-e2e-media-'));
  const video = path.join(dir, 'clip.mp4');
  const photos = [0, 1].map((i) => path.join(dir, `photo-${i}.jpg`));
  const png = path.join(dir, 'card.png');

  beforeAll(async () => {
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=720x1280:rate=30:duration=5', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=5',
      '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', video]);
    photos.forEach((p, i) => execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `color=c=0x${(0x336699 + i * 0x111111).toString(16)}:size=1080x1350`, '-frames:v', '1', p]));
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=1080x1080', '-frames:v', '1', png]);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    sandbox = await startSandbox({ ports: 'random', heraldPublicBaseUrl: base, processingMs: 50 });
    stack = await startStack({ ...sandbox.env, HERALD_API_PORT: String(port), HERALD_PUBLIC_BASE_URL: base, HERALD_HEARTBEAT_TIMEOUT_MS: '5000' });
    await stack.startWorker();
    api = apiClient(stack.apiUrl, await stack.newApiKey('all@herald.dev'));
    expect((await api.post('/api/herald/users', { username: 'nina' })).status).toBe(201);
  });

  afterAll(async () => {
    await stack?.stop();
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('connects eight OAuth networks through authorize page and callback, and bluesky with an app password', async () => {
    for (const platform of OAUTH) {
      const start = await api.post(`/api/herald/oauth/${platform}/start`, { profile_username: 'nina', redirect_url: 'https://integrator.example/connected' });
      expect(start).toMatchObject({ status: 200, body: { success: true, authorize_url: expect.any(String), state: expect.any(String) } });
      const callback = await approveAuthorization(start.body.authorize_url);
      expect(callback.origin + callback.pathname).toBe(`${stack.apiUrl}/api/herald/oauth/${platform}/callback`);
      const res = await fetch(callback, { redirect: 'manual' });
      expect(res.status).toBe(302);
      const back = new URL(res.headers.get('location')!);
      expect([platform, back.searchParams.get('connect_status'), back.searchParams.get('error_code')]).toEqual([platform, 'success', null]);
    }
    const bsky = await api.post('/api/herald/users/bluesky/credentials', {
      profile_username: 'nina', identifier: sandbox.env.SANDBOX_BLUESKY_IDENTIFIER, app_password: sandbox.env.SANDBOX_BLUESKY_APP_PASSWORD,
    });
    expect(bsky).toMatchObject({ status: 200, body: { success: true } });
    const profile = await api.get('/api/herald/users/nina');
    expect(Object.keys(profile.body.profile.social_accounts).sort()).toEqual([...NINE].sort());
    for (const p of NINE) expect(profile.body.profile.social_accounts[p]).toMatchObject({ username: expect.any(String), reauth_required: false });
  });

  it('publishes one video to all nine networks with per-network results and a first comment', async () => {
    const form = new FormData();
    form.append('user', 'nina');
    for (const p of NINE) form.append('platform[]', p);
    form.append('title', 'Herald everywhere');
    form.append('description', 'One request, nine networks.');
    form.append('pinterest_board_id', sandbox.env.SANDBOX_PINTEREST_BOARD_ID!);
    form.append('privacy_level', 'PUBLIC_TO_EVERYONE');
    form.append('first_comment', 'First!');
    form.append('async_upload', 'true');
    form.append('video', new Blob([readFileSync(video)], { type: 'video/mp4' }), 'clip.mp4');
    const res = await fetch(`${stack.apiUrl}/api/upload`, { method: 'POST', headers: { Authorization: authOf(api) }, body: form, signal: AbortSignal.timeout(60_000) });
    const body = await res.json() as { request_id: string };
    expect(res.status).toBe(202);
    const done = await eventually(() => api.get(`/api/herald/status?request_id=${body.request_id}`), (r) => r.body.status === 'completed', 180_000, 1000);
    const failed = Object.values(done.body.results as Record<string, { success: boolean; platform: string; error?: string }>).filter((r) => !r.success);
    expect(failed).toEqual([]);
    expect(done.body).toMatchObject({ all_succeeded: true, media_type: 'video', summary: { total: 9, succeeded: 9 } });
    for (const p of NINE) {
      expect(done.body.results[p]).toMatchObject({ success: true, post_id: expect.any(String), warnings: expect.any(Array) });
    }
    // Networks with first comments took it; Pinterest has none and says so.
    for (const p of ['youtube', 'x', 'threads', 'bluesky', 'facebook', 'instagram', 'linkedin'] as const) {
      expect([p, done.body.results[p].first_comment_posted]).toEqual([p, true]);
    }
    expect(done.body.results.pinterest.warnings.join(' ')).toMatch(/first comment/i);
    // The networks hold the posts: a few read back from their simulators.
    const sims = sandbox.simulators;
    expect(sims.youtube.videos().length).toBeGreaterThanOrEqual(1);
    expect(sims.tiktok.posts().length).toBeGreaterThanOrEqual(1);
    expect(sims.pinterest.pins().length).toBeGreaterThanOrEqual(1);
    expect(sims.bluesky.posts().some((p) => JSON.stringify(p).includes('Herald everywhere'))).toBe(true);
    const history = await api.get(`/api/herald/history?request_id=${body.request_id}`);
    expect(history.body.history).toHaveLength(1);
    expect(history.body.history[0]).toMatchObject({ status: 'completed', all_succeeded: true });
  });

  it('refuses a TikTok privacy level the account does not offer with 400, before anything is sent', async () => {
    const before = sandbox.simulators.tiktok.posts().length;
    const form = new FormData();
    form.append('user', 'nina');
    form.append('platform[]', 'tiktok');
    form.append('platform[]', 'youtube');
    form.append('title', 'Followers only');
    form.append('privacy_level', 'FOLLOWER_OF_CREATOR');
    form.append('video', new Blob([readFileSync(video)], { type: 'video/mp4' }), 'clip.mp4');
    const res = await fetch(`${stack.apiUrl}/api/upload`, { method: 'POST', headers: { Authorization: authOf(api) }, body: form });
    const body = await res.json() as { error_code: string; message: string; violations: unknown[] };
    expect(res.status).toBe(400);
    expect(body).toMatchObject({ success: false, error_code: 'tiktok_privacy_unavailable', violations: [{ platform: 'tiktok', error_code: 'tiktok_privacy_unavailable' }] });
    expect(body.message).toContain('PUBLIC_TO_EVERYONE, MUTUAL_FOLLOW_FRIENDS, SELF_ONLY');
    expect(sandbox.simulators.tiktok.posts().length).toBe(before);
  });

  it('publishes two photos to the eight photo networks in one request', async () => {
    const photoNetworks = ['tiktok', 'instagram', 'threads', 'facebook', 'linkedin', 'x', 'pinterest', 'bluesky'];
    const form = new FormData();
    form.append('user', 'nina');
    for (const p of photoNetworks) form.append('platform[]', p);
    form.append('title', 'Two photos');
    form.append('pinterest_board_id', sandbox.env.SANDBOX_PINTEREST_BOARD_ID!);
    // Sent as application/octet-stream, like curl -F photos[]=@photo.jpg does: Herald finds the real type.
    for (const p of photos) form.append('photos[]', new Blob([readFileSync(p)], { type: 'application/octet-stream' }), path.basename(p));
    const res = await fetch(`${stack.apiUrl}/api/upload_photos`, { method: 'POST', headers: { Authorization: authOf(api) }, body: form, signal: AbortSignal.timeout(150_000) });
    const body = await res.json() as { request_id: string };
    expect(res.status).toBe(200);
    const done = await eventually(() => api.get(`/api/herald/status?request_id=${body.request_id}`), (r) => r.body.status === 'completed', 120_000, 1000);
    expect(Object.values(done.body.results as Record<string, { success: boolean }>).filter((r) => !r.success)).toEqual([]);
    expect(done.body).toMatchObject({ all_succeeded: true, media_type: 'photo', summary: { total: 8, succeeded: 8 } });
  });

  it('publishes a PNG photo: Instagram gets its JPEG rendition (it refuses PNG), Threads and Facebook the PNG itself', async () => {
    const form = new FormData();
    form.append('user', 'nina');
    for (const p of ['instagram', 'threads', 'facebook']) form.append('platform[]', p);
    form.append('title', 'A PNG card');
    form.append('photos[]', new Blob([readFileSync(png)], { type: 'image/png' }), 'card.png');
    const res = await fetch(`${stack.apiUrl}/api/upload_photos`, { method: 'POST', headers: { Authorization: authOf(api) }, body: form, signal: AbortSignal.timeout(150_000) });
    const body = await res.json() as { request_id: string };
    expect(res.status).toBe(200);
    const done = await eventually(() => api.get(`/api/herald/status?request_id=${body.request_id}`), (r) => r.body.status === 'completed', 120_000, 1000);
    expect(done.body).toMatchObject({ all_succeeded: true, summary: { total: 3, succeeded: 3 } });
    const pngId = createHash('sha256').update(readFileSync(png)).digest('hex');
    const post = sandbox.simulators.instagram.posts().find((m) => m.caption === 'A PNG card')!;
    expect(post).toMatchObject({ media_type: 'IMAGE' });
    // Served by Herald's signed media URL, from the media store: a different file than the PNG.
    expect(new URL(post.params.image_url!).pathname).toMatch(/^\/media\/[0-9a-f]{64}$/);
    expect(post.params.image_url).not.toContain(pngId);
  });

  it('publishes text to the text networks, to the Facebook page pinned to the profile', async () => {
    const pageId = sandbox.accounts.facebook.pageId;
    expect(await api.post('/api/herald/users/facebook-page', { profile_username: 'nina', page_id: pageId })).toMatchObject({ status: 200, body: { success: true, page_id: pageId } });
    expect(await api.get('/api/herald/users/facebook-page?profile_username=nina')).toMatchObject({ status: 200, body: { page_id: pageId } });
    const res = await api.post('/api/upload_text', { user: 'nina', 'platform[]': ['x', 'linkedin', 'facebook', 'threads', 'bluesky'], title: 'Plain words to five networks.', facebook_page_id: 'not-a-page' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'completed', all_succeeded: true, summary: { total: 5, succeeded: 5 } });
    expect(res.body.results.facebook).toMatchObject({ success: true, page_id: pageId });
  });

  let keyHeader: string | undefined;
  function authOf(_client: unknown): string {
    return keyHeader!;
  }
  beforeAll(async () => {
    keyHeader = `Apikey ${await stack.newApiKey('all@herald.dev')}`;
  });
});
