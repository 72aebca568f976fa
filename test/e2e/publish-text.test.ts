import { startDiscordSimulator, type DiscordSimulator } from '../../ops/simulators/discord';
import { startTelegramSimulator, type TelegramSimulator } from '../../ops/simulators/telegram';
import { eventually } from '../support/stack';
import { useHerald } from '../support/e2e';

jest.setTimeout(180_000);

/**
 * The foundation end to end: CLI-issued key, profiles, discord + telegram connected through
 * their simulators, text published synchronously and asynchronously through Temporal, status
 * and history read back, and a worker killed with -9 mid-publish.
 */
describe('publishing text to discord and telegram end to end', () => {
  let discord: DiscordSimulator;
  let telegram: TelegramSimulator;
  let webhookUrl: string;
  let botToken: string;
  const chatId = '@herald_e2e';

  beforeAll(async () => {
    discord = await startDiscordSimulator();
    telegram = await startTelegramSimulator();
    webhookUrl = discord.createWebhook({ name: 'Herald E2E' }).url;
    const bot = telegram.createBot({ username: 'herald_e2e_bot' });
    botToken = bot.token;
    const chat = telegram.createChat({ type: 'channel', title: 'Herald E2E', username: 'herald_e2e' });
    telegram.setMember(chat.id, bot.id, 'administrator', { can_post_messages: true });
  });
  afterAll(async () => {
    await discord?.close();
    await telegram?.close();
  });
  const herald = useHerald({
    env: () => ({
      DISCORD_API_BASE: discord.baseUrl,
      TELEGRAM_API_BASE: telegram.baseUrl,
      HERALD_HEARTBEAT_TIMEOUT_MS: '2000',
      HERALD_SYNC_TIMEOUT_MS: '30000',
      HERALD_TRANSIENT_BACKOFF_MS: '200',
    }),
    account: { email: 'e2e@herald.dev' },
  });

  it('authenticates with the CLI-issued key and shows the plan', async () => {
    const me = await herald.api.get('/api/herald/me');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({ success: true, email: 'e2e@herald.dev', plan: 'business', limits: { profiles: 225 } });
    expect(me.headers.get('x-ratelimit-limit')).toBe('300');
    expect(Number(me.headers.get('x-ratelimit-remaining'))).toBeLessThan(300);
    expect(Number(me.headers.get('x-ratelimit-reset'))).toBeGreaterThan(Date.now() / 1000);
  });

  it('answers 401 with the error body for a missing or wrong key', async () => {
    const none = await fetch(`${herald.apiUrl}/api/herald/me`);
    expect(none.status).toBe(401);
    expect(await none.json()).toEqual({ success: false, error_code: 'unauthenticated', message: 'Missing credentials: send the header "Authorization: Apikey <API_KEY>".' });
    const wrong = await herald.client('hk_wrong').get('/api/herald/me');
    expect(wrong).toMatchObject({ status: 401, body: { success: false, message: 'Invalid API key.' } });
  });

  it('manages profiles with the spec status codes', async () => {
    expect(await herald.api.post('/api/herald/users', { username: 'alice' })).toMatchObject({
      status: 201, body: { success: true, profile: { username: 'alice', social_accounts: {} } },
    });
    expect(await herald.api.post('/api/herald/users', { username: 'alice' })).toMatchObject({ status: 409, body: { success: false } });
    expect(await herald.api.post('/api/herald/users', {})).toMatchObject({ status: 400, body: { success: false } });
    expect(await herald.api.get('/api/herald/users/nobody')).toMatchObject({ status: 404, body: { success: false, error_code: 'PROFILE_NOT_FOUND' } });
    expect(await herald.api.post('/api/herald/users', { username: 'temp' })).toMatchObject({ status: 201 });
    expect(await herald.api.delete('/api/herald/users', { username: 'temp' })).toMatchObject({ status: 200, body: { success: true } });
    expect(await herald.api.delete('/api/herald/users', { username: 'temp' })).toMatchObject({ status: 404 });
    const list = await herald.api.get('/api/herald/users');
    expect(list).toMatchObject({ status: 200, body: { success: true, limit: 225, plan: 'business' } });
    expect(list.body.profiles.map((p: { username: string }) => p.username)).toEqual(['alice']);
  });

  it('connects discord and telegram with credentials, checked against the networks', async () => {
    const bad = await herald.api.post('/api/herald/users/discord/credentials', { profile_username: 'alice', webhook_url: 'https://example.com/hook' });
    expect(bad).toMatchObject({ status: 400, body: { success: false } });
    await herald.connect('discord', { profile: 'alice', credentials: { webhook_url: webhookUrl } });
    await herald.connect('telegram', { profile: 'alice', credentials: { bot_token: botToken, chat_id: chatId } });
    expect(await herald.api.post('/api/herald/users/reddit/credentials', { profile_username: 'alice' }))
      .toMatchObject({ status: 503, body: { success: false, error_code: 'reddit_unavailable' } });

    const profile = await herald.api.get('/api/herald/users/alice');
    expect(profile.body.profile.social_accounts).toMatchObject({
      discord: { handle: 'Herald E2E', reauth_required: false },
      telegram: { handle: '@herald_e2e', display_name: 'Herald E2E', reauth_required: false },
    });
  });

  it('publishes synchronously to both networks', async () => {
    const res = await herald.api.post('/api/upload_text', { user: 'alice', 'platform[]': ['discord', 'telegram'], title: 'Hello from Herald (sync)' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      success: true, status: 'completed', all_succeeded: true,
      results: { discord: { success: true, post_id: expect.any(String) }, telegram: { success: true, url: expect.stringContaining('https://t.me/herald_e2e/') } },
    });
    expect(discord.messages().map((m) => m.content)).toContain('Hello from Herald (sync)');
    expect(telegram.messages().map((m) => m.text)).toContain('Hello from Herald (sync)');
  });

  it('publishes asynchronously: pending, then completed, then in history', async () => {
    const res = await herald.api.post('/api/upload_text', {
      user: 'alice', platform: ['discord', 'telegram'], title: 'Hello from Herald (async)', async_upload: true, external_id: 'campaign-7',
    }, { 'X-Request-Id': 'req-async-1' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ success: true, request_id: 'req-async-1', external_id: 'campaign-7' });
    // The answer is the upload as stored, before its workflow ran.
    expect(res.body.status).toBe('pending');

    const done = await herald.waitForCompletion('req-async-1');
    expect(done.body).toMatchObject({ success: true, all_succeeded: true, external_id: 'campaign-7', summary: { succeeded: 2 } });

    const again = await herald.api.post('/api/upload_text', { user: 'alice', platform: ['discord'], title: 'different' }, { 'Idempotency-Key': 'req-async-1' });
    expect(again).toMatchObject({ status: 200, body: { request_id: 'req-async-1', status: 'completed' } });
    expect(discord.messages().filter((m) => m.content === 'Hello from Herald (async)')).toHaveLength(1);

    const history = await herald.api.get('/api/herald/history?limit=10');
    expect(history.status).toBe(200);
    expect(history.body.history.map((h: { request_id: string }) => h.request_id)).toContain('req-async-1');
    const filtered = await herald.api.get('/api/herald/history?external_id=campaign-7');
    expect(filtered.body.history).toHaveLength(1);
  });

  it('creates one job for ten concurrent requests with the same Idempotency-Key', async () => {
    const responses = await Promise.all(Array.from({ length: 10 }, () =>
      herald.api.post('/api/upload_text', { user: 'alice', 'platform[]': ['discord', 'telegram'], title: 'Only once, concurrently', async_upload: true }, { 'Idempotency-Key': 'idem-concurrent' })));
    expect(responses.map((r) => r.status).every((s) => s === 202 || s === 200)).toBe(true);
    expect(new Set(responses.map((r) => r.body.request_id))).toEqual(new Set(['idem-concurrent']));
    await herald.waitForCompletion('idem-concurrent');
    expect(discord.messages().filter((m) => m.content === 'Only once, concurrently')).toHaveLength(1);
    expect(telegram.messages().filter((m) => m.text === 'Only once, concurrently')).toHaveLength(1);
    const history = await herald.api.get('/api/herald/history?request_id=idem-concurrent');
    expect(history.body.history).toHaveLength(1);
  });

  it('retries only the failed platform of a finished upload', async () => {
    // Five 5xx answers outlast the workflow's rounds: telegram fails, discord does not.
    telegram.fail('server_error', 5);
    const res = await herald.api.post('/api/upload_text', { user: 'alice', 'platform[]': ['discord', 'telegram'], title: 'Second chance' }, { 'X-Request-Id': 'retry-me' });
    const failed = await herald.waitForCompletion('retry-me');
    expect(res.status === 200 || res.status === 202).toBe(true);
    expect(failed.body.results).toMatchObject({ discord: { success: true }, telegram: { success: false, error_code: 'platform_unavailable' } });
    const retry = await herald.api.post('/api/herald/posts/retry', { request_id: 'retry-me' });
    expect(retry).toMatchObject({ status: 202, body: { success: true, retried_platforms: ['telegram'] } });
    const done = await herald.waitForCompletion('retry-me', { until: (b) => b.status === 'completed' && b.all_succeeded === true });
    expect(done.body.results.telegram).toMatchObject({ success: true });
    expect(discord.messages().filter((m) => m.content === 'Second chance')).toHaveLength(1);
    expect(telegram.messages().filter((m) => m.text === 'Second chance')).toHaveLength(1);
    expect(await herald.api.post('/api/herald/posts/retry', { request_id: 'retry-me' })).toMatchObject({ status: 400, body: { error_code: 'nothing_to_retry' } });
  });

  it('treats an identical upload moments later as the same request', async () => {
    const first = await herald.api.post('/api/upload_text', { user: 'alice', 'platform[]': ['discord'], title: 'Said twice by mistake' });
    const second = await herald.api.post('/api/upload_text', { user: 'alice', 'platform[]': ['discord'], title: 'Said twice by mistake' });
    expect(second.body.request_id).toBe(first.body.request_id);
    expect(discord.messages().filter((m) => m.content === 'Said twice by mistake')).toHaveLength(1);
  });

  it('refuses reddit, unknown platforms and over-long text with the spec codes', async () => {
    expect(await herald.api.post('/api/upload_text', { user: 'alice', 'platform[]': ['discord', 'reddit'], title: 'x' }))
      .toMatchObject({ status: 503, body: { success: false, error_code: 'reddit_unavailable' } });
    expect(await herald.api.post('/api/upload_text', { user: 'alice', 'platform[]': ['myspace'], title: 'x' }))
      .toMatchObject({ status: 400, body: { success: false, error_code: 'platform_not_supported' } });
    const long = await herald.api.post('/api/upload_text', { user: 'alice', 'platform[]': ['discord'], title: 'y'.repeat(2001) });
    expect(long).toMatchObject({ status: 400, body: { success: false, violations: [{ platform: 'discord', type: 'text_too_long', limit: 2000 }] } });
    expect(await herald.api.post('/api/upload_text', { 'platform[]': ['discord'], title: 'x' }))
      .toMatchObject({ status: 400, body: { success: false, violations: [{ field: 'user' }] } });
  });

  it('accepts multipart form posts like the spec examples', async () => {
    const form = new FormData();
    form.append('user', 'alice');
    form.append('platform[]', 'discord');
    form.append('platform[]', 'telegram');
    form.append('title', 'Hello from a form');
    const res = await fetch(`${herald.apiUrl}/api/upload_text`, { method: 'POST', headers: { Authorization: `Apikey ${herald.key}` }, body: form });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ success: true, status: 'completed', platforms: ['discord', 'telegram'], all_succeeded: true });
    expect(telegram.messages().map((m) => m.text)).toContain('Hello from a form');
  });

  it('finishes a publish whose worker was killed with -9 mid-flight, exactly once per network', async () => {
    // The networks would answer in 30 s: the kill surely comes first, however loaded the machine
    // (a killed worker's requests are dropped, so the test does not wait for them).
    discord.setLatency(30_000);
    telegram.setLatency(30_000);
    const res = await herald.api.post('/api/upload_text', {
      user: 'alice', 'platform[]': ['discord', 'telegram'], title: 'Survives kill -9', async_upload: true,
    }, { 'X-Request-Id': 'req-kill-9' });
    expect(res.status).toBe(202);
    // Wait until both networks have the request in flight, then kill the worker hard.
    await eventually(async () => [discord.requests, telegram.requests].map((reqs) =>
      reqs.some((r) => r.method === 'POST' && JSON.stringify(r.body).includes('Survives kill -9'))), (v) => v.every(Boolean), 30_000, 50);
    await herald.stack.killWorker('SIGKILL');
    discord.setLatency(0);
    telegram.setLatency(0);
    expect((await herald.api.get('/api/herald/status?request_id=req-kill-9')).body.status).toBe('in_progress');

    await herald.stack.startWorker();
    const done = await herald.waitForCompletion('req-kill-9');
    expect(done.body).toMatchObject({ all_succeeded: true, results: { discord: { success: true }, telegram: { success: true } } });
    expect(discord.messages().filter((m) => m.content === 'Survives kill -9')).toHaveLength(1);
    expect(telegram.messages().filter((m) => m.text === 'Survives kill -9')).toHaveLength(1);
  });
});
