import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSandbox, type Sandbox } from '../../apps/sandbox/main';
import { apiClient, eventually, freePort, startStack, type Stack } from '../support/stack';

jest.setTimeout(300_000);

const FOUR = ['slack', 'lemmy', 'wordpress', 'nostr'] as const;

/**
 * Issue 14 (slack, lemmy, wordpress, nostr) end to end: each connected through
 * `POST /users/<net>/credentials` with the sandbox's values (checked with the network), then one
 * text request to all four, one photo request to lemmy and wordpress and one video to wordpress,
 * through the real API, worker and Temporal, against the sandbox's simulators.
 */
describe('slack, lemmy, wordpress and nostr through the API', () => {
  let sandbox: Sandbox;
  let stack: Stack;
  let api: ReturnType<typeof apiClient>;
  let key: string;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-e2e-netb-'));
  const photo = path.join(dir, 'photo.jpg');
  const video = path.join(dir, 'clip.mp4');

  beforeAll(async () => {
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=0x336699:size=800x600', '-frames:v', '1', photo]);
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25:duration=2', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', video]);
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    sandbox = await startSandbox({ ports: 'random', heraldPublicBaseUrl: base, processingMs: 50 });
    stack = await startStack({ ...sandbox.env, HERALD_API_PORT: String(port), HERALD_PUBLIC_BASE_URL: base });
    await stack.startWorker();
    key = await stack.newApiKey('netb@herald.dev');
    api = apiClient(stack.apiUrl, key);
    expect((await api.post('/api/herald/users', { username: 'nora' })).status).toBe(201);
  });

  afterAll(async () => {
    await stack?.stop();
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('connects the four with credentials verified by each network, and refuses wrong ones with invalid_credentials', async () => {
    const env = sandbox.env;
    const bodies: Record<(typeof FOUR)[number], Record<string, unknown>> = {
      slack: { bot_token: env.SANDBOX_SLACK_BOT_TOKEN, channel_id: env.SANDBOX_SLACK_CHANNEL_ID },
      lemmy: { instance_url: env.SANDBOX_LEMMY_INSTANCE_URL, username: env.SANDBOX_LEMMY_USERNAME, password: env.SANDBOX_LEMMY_PASSWORD, community: env.SANDBOX_LEMMY_COMMUNITY },
      wordpress: { site_url: env.SANDBOX_WORDPRESS_SITE_URL, username: env.SANDBOX_WORDPRESS_USERNAME, application_password: env.SANDBOX_WORDPRESS_APPLICATION_PASSWORD },
      nostr: { private_key: env.SANDBOX_NOSTR_PRIVATE_KEY, relays: env.SANDBOX_NOSTR_RELAYS },
    };
    for (const net of FOUR) {
      const res = await api.post(`/api/herald/users/${net}/credentials`, { profile_username: 'nora', ...bodies[net] });
      expect([net, res.status, res.body.success]).toEqual([net, 200, true]);
    }
    const wrong = await api.post('/api/herald/users/lemmy/credentials', { profile_username: 'nora', ...bodies.lemmy, password: 'not-it' });
    expect(wrong).toMatchObject({ status: 400, body: { success: false, error_code: 'invalid_credentials' } });
    const missing = await api.post('/api/herald/users/wordpress/credentials', { profile_username: 'nora', site_url: env.SANDBOX_WORDPRESS_SITE_URL });
    expect(missing).toMatchObject({ status: 400, body: { success: false } });
    const profile = await api.get('/api/herald/users/nora');
    for (const net of FOUR) expect(profile.body.profile.social_accounts[net]).toMatchObject({ username: expect.any(String), reauth_required: false });
  });

  it('publishes one text request to all four, with their own fields and per-network results', async () => {
    const res = await api.post('/api/upload_text', {
      user: 'nora', 'platform[]': [...FOUR], title: 'Plain words to four networks.', description: 'A longer body for Lemmy and WordPress.',
      lemmy_title: 'Four networks at once', wordpress_status: 'draft', nostr_hashtags: 'herald', slack_unfurl_links: 'false',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'completed', all_succeeded: true, summary: { total: 4, succeeded: 4 } });
    for (const net of FOUR) expect(res.body.results[net]).toMatchObject({ success: true, post_id: expect.any(String), warnings: expect.any(Array) });
    const sims = sandbox.simulators;
    expect(sims.slack.messages().map((m) => m.text)).toContain('Plain words to four networks.');
    expect(sims.lemmy.posts()).toContainEqual(expect.objectContaining({ name: 'Four networks at once', body: 'A longer body for Lemmy and WordPress.' }));
    expect(sims.wordpress.posts()).toContainEqual(expect.objectContaining({ title: 'Plain words to four networks.', status: 'draft' }));
    const note = sims.nostr.events().find((e) => e.id === res.body.results.nostr.post_id)!;
    expect(note).toMatchObject({ kind: 1, content: 'Plain words to four networks.', tags: [['t', 'herald']] });
  });

  it('publishes a photo to lemmy and wordpress, and a video to wordpress', async () => {
    const photos = new FormData();
    photos.append('user', 'nora');
    for (const p of ['lemmy', 'wordpress']) photos.append('platform[]', p);
    photos.append('title', 'A blue photo');
    photos.append('photos[]', new Blob([readFileSync(photo)], { type: 'image/jpeg' }), 'photo.jpg');
    const res = await fetch(`${stack.apiUrl}/api/upload_photos`, { method: 'POST', headers: { Authorization: `Apikey ${key}` }, body: photos, signal: AbortSignal.timeout(120_000) });
    const body = await res.json() as { request_id: string; status?: string };
    expect(res.status).toBe(200);
    const done = await eventually(() => api.get(`/api/herald/status?request_id=${body.request_id}`), (r) => r.body.status === 'completed', 120_000, 1000);
    expect(done.body).toMatchObject({ all_succeeded: true, summary: { total: 2, succeeded: 2 } });
    expect(sandbox.simulators.lemmy.images()).toHaveLength(1);
    expect(sandbox.simulators.wordpress.posts()).toContainEqual(expect.objectContaining({ title: 'A blue photo', featured_media: expect.any(Number) }));

    const clip = new FormData();
    clip.append('user', 'nora');
    clip.append('platform[]', 'wordpress');
    clip.append('title', 'A short clip');
    clip.append('async_upload', 'true');
    clip.append('video', new Blob([readFileSync(video)], { type: 'video/mp4' }), 'clip.mp4');
    const vres = await fetch(`${stack.apiUrl}/api/upload`, { method: 'POST', headers: { Authorization: `Apikey ${key}` }, body: clip, signal: AbortSignal.timeout(120_000) });
    const vbody = await vres.json() as { request_id: string };
    expect(vres.status).toBe(202);
    const vdone = await eventually(() => api.get(`/api/herald/status?request_id=${vbody.request_id}`), (r) => r.body.status === 'completed', 120_000, 1000);
    expect(vdone.body).toMatchObject({ all_succeeded: true, summary: { total: 1, succeeded: 1 } });
    expect(sandbox.simulators.wordpress.media().map((m) => m.mime_type)).toContain('video/mp4');
  });
});
