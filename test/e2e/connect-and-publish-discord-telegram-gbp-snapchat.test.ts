import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { approveAuthorization, startSandbox, type Sandbox } from '../../apps/sandbox/main';
import { apiClient, eventually, freePort, startStack, type Stack } from '../support/stack';

jest.setTimeout(300_000);

/**
 * Issue 14 (discord and telegram media, google_business, snapchat) end to end, in the style of
 * all-networks.test.ts: the sandbox simulators, the real API and worker on Temporal, FerretDB and
 * Redis; each network connected through its real connect flow, then one photo request, one video
 * request and one text request, with per-network results and warnings, and the posts read back
 * from the simulators.
 */
describe('discord and telegram media, google_business, snapchat', () => {
  let sandbox: Sandbox;
  let stack: Stack;
  let api: ReturnType<typeof apiClient>;
  let key: string;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-e2e-netc-'));
  const video = path.join(dir, 'clip.mp4');
  // testsrc photos: Google takes photos of 10 KB or more, which a plain colour JPEG is not.
  const photos = [0, 1, 2].map((i) => path.join(dir, `photo-${i}.jpg`));

  const sendForm = async (endpoint: string, form: FormData) => {
    const res = await fetch(`${stack.apiUrl}/api/${endpoint}`, { method: 'POST', headers: { Authorization: `Apikey ${key}` }, body: form, signal: AbortSignal.timeout(150_000) });
    return { status: res.status, body: await res.json() as Record<string, any> };
  };
  const completed = (requestId: string) =>
    eventually(() => api.get(`/api/herald/status?request_id=${requestId}`), (r) => r.body.status === 'completed', 180_000, 1000);

  beforeAll(async () => {
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'testsrc=size=720x1280:rate=30:duration=6', '-f', 'lavfi', '-i', 'sine=frequency=440:duration=6',
      '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', video]);
    photos.forEach((p, i) => execFileSync('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=size=1080x1350:rate=1:duration=${i + 1}`, '-frames:v', '1', p]));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    sandbox = await startSandbox({ ports: 'random', heraldPublicBaseUrl: base, processingMs: 50 });
    stack = await startStack({ ...sandbox.env, HERALD_API_PORT: String(port), HERALD_PUBLIC_BASE_URL: base, HERALD_HEARTBEAT_TIMEOUT_MS: '5000' });
    await stack.startWorker();
    key = await stack.newApiKey('netc@herald.dev');
    api = apiClient(stack.apiUrl, key);
    expect((await api.post('/api/herald/users', { username: 'gina' })).status).toBe(201);
  });

  afterAll(async () => {
    await stack?.stop();
    await sandbox?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('connects discord and telegram by credentials, google_business and snapchat through authorize page and callback', async () => {
    expect(await api.post('/api/herald/users/discord/credentials', { profile_username: 'gina', webhook_url: sandbox.env.SANDBOX_DISCORD_WEBHOOK_URL }))
      .toMatchObject({ status: 200, body: { success: true } });
    expect(await api.post('/api/herald/users/telegram/credentials', { profile_username: 'gina', bot_token: sandbox.env.SANDBOX_TELEGRAM_BOT_TOKEN, chat_id: sandbox.env.SANDBOX_TELEGRAM_CHAT_ID }))
      .toMatchObject({ status: 200, body: { success: true } });
    for (const platform of ['google_business', 'snapchat']) {
      const start = await api.post(`/api/herald/oauth/${platform}/start`, { profile_username: 'gina', redirect_url: 'https://integrator.example/connected' });
      expect(start).toMatchObject({ status: 200, body: { success: true, authorize_url: expect.any(String) } });
      const callback = await approveAuthorization(start.body.authorize_url);
      const res = await fetch(callback, { redirect: 'manual' });
      const back = new URL(res.headers.get('location')!);
      expect([platform, back.searchParams.get('connect_status'), back.searchParams.get('error_code')]).toEqual([platform, 'success', null]);
    }
    const profile = await api.get('/api/herald/users/gina');
    expect(Object.keys(profile.body.profile.social_accounts).sort()).toEqual(['discord', 'google_business', 'snapchat', 'telegram']);
  });

  it('lists the Business Profile locations and pins one to the profile', async () => {
    const locationId = sandbox.accounts.google_business.locationId;
    const listed = await api.get('/api/herald/google-business/locations?profile=gina');
    expect(listed).toMatchObject({ status: 200, body: { success: true, locations: [{ location_id: locationId, location_name: 'Herald Sandbox Bakery', account_id: sandbox.accounts.google_business.accountId, profile: 'gina' }] } });
    expect((await api.get('/api/herald/google-business/locations')).body.locations).toHaveLength(1);
    expect((await api.get('/api/herald/google-business/locations?profile=nobody')).status).toBe(404);
    expect((await api.post('/api/herald/users', { username: 'hal' })).status).toBe(201);
    expect(await api.get('/api/herald/google-business/locations?profile=hal')).toMatchObject({ status: 400, body: { success: false, error_code: 'not_connected' } });
    expect(await api.post('/api/herald/users/google-business-location', { profile_username: 'gina', location_id: locationId }))
      .toMatchObject({ status: 200, body: { success: true, location_id: locationId } });
  });

  it('publishes three photos to discord (attachments), telegram (an album) and google_business (a local post) in one request', async () => {
    const form = new FormData();
    form.append('user', 'gina');
    for (const p of ['discord', 'telegram', 'google_business']) form.append('platform[]', p);
    form.append('title', 'Three photos from Herald');
    form.append('discord_alt_text', 'one||two||three');
    form.append('gbp_location_id', 'ignored-because-pinned');
    for (const p of photos) form.append('photos[]', new Blob([readFileSync(p)], { type: 'image/jpeg' }), path.basename(p));
    const res = await sendForm('upload_photos', form);
    expect(res.status).toBe(200);
    const done = await completed(res.body.request_id);
    expect(Object.values(done.body.results as Record<string, { success: boolean }>).filter((r) => !r.success)).toEqual([]);
    expect(done.body).toMatchObject({ all_succeeded: true, media_type: 'photo', summary: { total: 3, succeeded: 3 } });
    const sims = sandbox.simulators;
    const message = sims.discord.messages().find((m) => m.id === done.body.results.discord.post_id)!;
    expect(message.attachments.map((a) => a.description)).toEqual(['one', 'two', 'three']);
    const album = sims.telegram.messages().filter((m) => m.media_group_id);
    expect(album).toHaveLength(3);
    expect(album[0]).toMatchObject({ caption: 'Three photos from Herald' });
    const local = sims.google_business.posts(sandbox.accounts.google_business.locationId);
    expect(local).toEqual([expect.objectContaining({ name: done.body.results.google_business.post_id })]);
    expect((local[0]!.body.media as unknown[])).toHaveLength(3);
  });

  it('publishes one video to discord, telegram, google_business and snapchat (a Spotlight) in one request', async () => {
    const form = new FormData();
    form.append('user', 'gina');
    for (const p of ['discord', 'telegram', 'google_business', 'snapchat']) form.append('platform[]', p);
    form.append('title', 'A clip #herald');
    form.append('snapchat_post_type', 'SPOTLIGHT');
    form.append('async_upload', 'true');
    form.append('video', new Blob([readFileSync(video)], { type: 'video/mp4' }), 'clip.mp4');
    const res = await sendForm('upload', form);
    expect(res.status).toBe(202);
    const done = await completed(res.body.request_id);
    expect(Object.values(done.body.results as Record<string, { success: boolean }>).filter((r) => !r.success)).toEqual([]);
    expect(done.body).toMatchObject({ all_succeeded: true, media_type: 'video', summary: { total: 4, succeeded: 4 } });
    const sims = sandbox.simulators;
    expect(sims.discord.messages().find((m) => m.id === done.body.results.discord.post_id)!.attachments).toEqual([expect.objectContaining({ content_type: 'video/mp4' })]);
    expect(sims.telegram.messages().find((m) => String(m.message_id) === done.body.results.telegram.post_id)).toMatchObject({ caption: 'A clip #herald', video: expect.any(Object) });
    expect(sims.google_business.posts().find((p) => p.name === done.body.results.google_business.post_id)!.body.media).toEqual([expect.objectContaining({ mediaFormat: 'VIDEO' })]);
    expect(sims.snapchat.posts()).toEqual([expect.objectContaining({ id: done.body.results.snapchat.post_id, kind: 'spotlight', description: 'A clip #herald' })]);
  });

  it('publishes text to discord, telegram (split past 4,096 characters, with a warning) and a google_business EVENT', async () => {
    const long = `${'Herald news. '.repeat(400)}The end.`;
    const res = await api.post('/api/upload_text', {
      user: 'gina', 'platform[]': ['discord', 'telegram', 'google_business'], title: 'Short news for everyone',
      telegram_title: long,
      gbp_post_type: 'EVENT', gbp_event_title: 'Open day', gbp_event_start: '2026-12-20T10:00', gbp_event_end: '2026-12-20T16:00',
      gbp_cta_type: 'LEARN_MORE', gbp_cta_url: 'https://bakery.example/open-day',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'completed', all_succeeded: true, summary: { total: 3, succeeded: 3 } });
    expect(res.body.results.telegram.warnings.join(' ')).toMatch(/sent as 2 messages/);
    const event = sandbox.simulators.google_business.posts().find((p) => p.name === res.body.results.google_business.post_id)!;
    expect(event.body).toMatchObject({ topicType: 'EVENT', summary: 'Short news for everyone', event: { title: 'Open day' }, callToAction: { actionType: 'LEARN_MORE' } });
    // An EVENT without its schedule is refused at intake, naming the fields, before anything is sent.
    const bad = await api.post('/api/upload_text', { user: 'gina', 'platform[]': ['google_business'], title: 'x', gbp_post_type: 'EVENT' });
    expect(bad.status).toBe(400);
    expect(bad.body.violations.map((v: { field: string }) => v.field)).toEqual(['gbp_event_title', 'gbp_event_start', 'gbp_event_end']);
  });
});
