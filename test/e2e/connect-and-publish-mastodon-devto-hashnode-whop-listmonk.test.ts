import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSandbox, type Sandbox } from '../../apps/sandbox/main';
import { apiClient, eventually, freePort, startStack, type Stack } from '../support/stack';

jest.setTimeout(300_000);

const WAVE2 = ['mastodon', 'devto', 'hashnode', 'whop', 'listmonk'] as const;

/**
 * Issue 14 (Mastodon, DEV, Hashnode, Whop, listmonk) end to end, in the style of all-networks:
 * each network connected through `POST /users/<net>/credentials` (verified with its simulator),
 * then one text request to the five through the API, Temporal and the worker, and Mastodon's photo
 * and video endpoints, with the posts read back from the simulators the sandbox runs.
 */
describe('mastodon, devto, hashnode, whop and listmonk connected by credentials, through the API and the worker', () => {
  let sandbox: Sandbox;
  let stack: Stack;
  let api: ReturnType<typeof apiClient>;
  let key = '';
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-e2e-wave2-'));
  const video = path.join(dir, 'clip.mp4');
  const photos = [0, 1].map((i) => path.join(dir, `photo-${i}.jpg`));

  beforeAll(async () => {
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=640x360:rate=25:duration=2', '-c:v', 'libx264', '-pix_fmt', 'yuv420p', video]);
    photos.forEach((p, i) => execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `color=c=0x${(0x336699 + i * 0x111111).toString(16)}:size=800x600`, '-frames:v', '1', p]));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    sandbox = await startSandbox({ ports: 'random', heraldPublicBaseUrl: base, processingMs: 50 });
    stack = await startStack({ ...sandbox.env, HERALD_API_PORT: String(port), HERALD_PUBLIC_BASE_URL: base, HERALD_HEARTBEAT_TIMEOUT_MS: '5000' });
    await stack.startWorker();
    key = await stack.newApiKey('wave2@herald.dev');
    api = apiClient(stack.apiUrl, key);
    expect((await api.post('/api/herald/users', { username: 'wanda' })).status).toBe(201);
  });

  afterAll(async () => {
    await stack?.stop();
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('connects the five networks with credentials verified by each network', async () => {
    const env = sandbox.env;
    const bodies: Record<(typeof WAVE2)[number], Record<string, string>> = {
      mastodon: { instance_url: env.SANDBOX_MASTODON_INSTANCE_URL!, access_token: env.SANDBOX_MASTODON_ACCESS_TOKEN! },
      devto: { api_key: env.SANDBOX_DEVTO_API_KEY! },
      hashnode: { access_token: env.SANDBOX_HASHNODE_ACCESS_TOKEN!, publication_id: env.SANDBOX_HASHNODE_PUBLICATION_ID! },
      whop: { api_key: env.SANDBOX_WHOP_API_KEY!, experience_id: env.SANDBOX_WHOP_EXPERIENCE_ID! },
      listmonk: { instance_url: env.SANDBOX_LISTMONK_INSTANCE_URL!, api_user: env.SANDBOX_LISTMONK_API_USER!, api_token: env.SANDBOX_LISTMONK_API_TOKEN!, list_ids: env.SANDBOX_LISTMONK_LIST_ID! },
    };
    for (const platform of WAVE2) {
      const res = await api.post(`/api/herald/users/${platform}/credentials`, { profile_username: 'wanda', ...bodies[platform] });
      expect([platform, res.status, res.body.success]).toEqual([platform, 200, true]);
    }
    // A wrong secret is refused by the network and nothing is stored.
    const wrong = await api.post('/api/herald/users/devto/credentials', { profile_username: 'wanda', api_key: 'notthekey1234' });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toMatchObject({ success: false, error_code: 'invalid_credentials' });
    const profile = await api.get('/api/herald/users/wanda');
    for (const p of WAVE2) expect([p, profile.body.profile.social_accounts[p]]).toEqual([p, expect.objectContaining({ username: expect.any(String), reauth_required: false })]);
  });

  it('publishes one text request to the five networks', async () => {
    const res = await api.post('/api/upload_text', {
      user: 'wanda', 'platform[]': [...WAVE2], title: 'Wave two is live', description: 'Five more networks, **one** request.',
      devto_tags: 'herald,release', hashnode_subtitle: 'Release notes', mastodon_visibility: 'unlisted',
    });
    expect(res.status).toBe(200);
    const failed = Object.values(res.body.results as Record<string, { success: boolean }>).filter((r) => !r.success);
    expect(failed).toEqual([]);
    expect(res.body).toMatchObject({ status: 'completed', all_succeeded: true, summary: { total: 5, succeeded: 5 } });
    for (const p of WAVE2) expect(res.body.results[p]).toMatchObject({ success: true, post_id: expect.any(String), warnings: expect.any(Array) });
    const sims = sandbox.simulators;
    expect(sims.mastodon.statuses().find((s) => s.id === res.body.results.mastodon.post_id)).toMatchObject({ text: 'Wave two is live', visibility: 'unlisted' });
    expect(sims.devto.articles().find((a) => String(a.id) === res.body.results.devto.post_id)).toMatchObject({ title: 'Wave two is live', body_markdown: 'Five more networks, **one** request.', tags: ['herald', 'release'] });
    expect(sims.hashnode.posts().find((p) => p.id === res.body.results.hashnode.post_id)).toMatchObject({ title: 'Wave two is live', subtitle: 'Release notes' });
    expect(sims.whop.posts().find((p) => p.id === res.body.results.whop.post_id)).toMatchObject({ title: 'Wave two is live', content: 'Five more networks, **one** request.' });
    expect(sims.listmonk.campaigns().find((c) => String(c.id) === res.body.results.listmonk.post_id)).toMatchObject({ subject: 'Wave two is live', status: 'running' });
  });

  it('publishes two photos and a video to Mastodon (media processing polled by the workflow)', async () => {
    const form = new FormData();
    form.append('user', 'wanda');
    form.append('platform[]', 'mastodon');
    form.append('title', 'Two photos');
    form.append('mastodon_alt_text', 'Blue||Lighter blue');
    for (const p of photos) form.append('photos[]', new Blob([readFileSync(p)], { type: 'image/jpeg' }), path.basename(p));
    const res = await fetch(`${stack.apiUrl}/api/upload_photos`, { method: 'POST', headers: { Authorization: `Apikey ${key}` }, body: form, signal: AbortSignal.timeout(120_000) });
    const body = await res.json() as { request_id: string };
    expect(res.status).toBe(200);
    const done = await eventually(() => api.get(`/api/herald/status?request_id=${body.request_id}`), (r) => r.body.status === 'completed', 120_000, 1000);
    expect(done.body).toMatchObject({ all_succeeded: true, media_type: 'photo' });
    const status = sandbox.simulators.mastodon.statuses().find((s) => s.id === done.body.results.mastodon.post_id)!;
    expect(status.media_ids).toHaveLength(2);

    const vform = new FormData();
    vform.append('user', 'wanda');
    vform.append('platform[]', 'mastodon');
    vform.append('title', 'A clip');
    vform.append('async_upload', 'true');
    vform.append('video', new Blob([readFileSync(video)], { type: 'video/mp4' }), 'clip.mp4');
    const vres = await fetch(`${stack.apiUrl}/api/upload`, { method: 'POST', headers: { Authorization: `Apikey ${key}` }, body: vform, signal: AbortSignal.timeout(120_000) });
    const vbody = await vres.json() as { request_id: string };
    expect(vres.status).toBe(202);
    const vdone = await eventually(() => api.get(`/api/herald/status?request_id=${vbody.request_id}`), (r) => r.body.status === 'completed', 180_000, 1000);
    expect(vdone.body).toMatchObject({ all_succeeded: true, media_type: 'video' });
    const clip = sandbox.simulators.mastodon.statuses().find((s) => s.id === vdone.body.results.mastodon.post_id)!;
    expect(sandbox.simulators.mastodon.media().find((m) => m.id === clip.media_ids[0])).toMatchObject({ type: 'video', url: expect.any(String) });
  });

  it('publishes one photo request to Slack (files upload v2) and listmonk (media library), an extension of the spec\'s photo list', async () => {
    const env = sandbox.env;
    const connected = await api.post('/api/herald/users/slack/credentials', { profile_username: 'wanda', bot_token: env.SANDBOX_SLACK_BOT_TOKEN, channel_id: env.SANDBOX_SLACK_CHANNEL_ID });
    expect([connected.status, connected.body.success]).toEqual([200, true]);
    const form = new FormData();
    form.append('user', 'wanda');
    form.append('platform[]', 'slack');
    form.append('platform[]', 'listmonk');
    form.append('title', 'Photos for the team');
    for (const p of photos) form.append('photos[]', new Blob([readFileSync(p)], { type: 'image/jpeg' }), path.basename(p));
    const res = await fetch(`${stack.apiUrl}/api/upload_photos`, { method: 'POST', headers: { Authorization: `Apikey ${key}` }, body: form, signal: AbortSignal.timeout(120_000) });
    const body = await res.json() as { request_id: string };
    expect(res.status).toBe(200);
    const done = await eventually(() => api.get(`/api/herald/status?request_id=${body.request_id}`), (r) => r.body.status === 'completed', 120_000, 1000);
    expect(done.body).toMatchObject({ all_succeeded: true, media_type: 'photo' });
    const sims = sandbox.simulators;
    const message = sims.slack.messages().find((m) => m.ts === done.body.results.slack.post_id)!;
    expect(message).toMatchObject({ text: 'Photos for the team', files: [expect.any(String), expect.any(String)] });
    const campaign = sims.listmonk.campaigns().find((c) => String(c.id) === done.body.results.listmonk.post_id)!;
    expect(campaign.status).toBe('running');
    for (const m of sims.listmonk.media().slice(-2)) expect(campaign.body).toContain(m.url);
  });
});
