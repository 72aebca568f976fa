import { startDiscordSimulator, type DiscordSimulator } from '../../ops/simulators/discord';
import { apiClient, eventually, startStack, type Stack } from '../support/stack';

jest.setTimeout(180_000);

/** Scheduled posts on the real stack: a durable Temporal timer that fires, moves, or is cancelled. */
describe('scheduled posts', () => {
  let stack: Stack;
  let discord: DiscordSimulator;
  let api: ReturnType<typeof apiClient>;
  const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();
  const messages = (text: string) => discord.messages().filter((m) => m.content === text);

  beforeAll(async () => {
    discord = await startDiscordSimulator();
    stack = await startStack({ DISCORD_API_BASE: discord.baseUrl, HERALD_HEARTBEAT_TIMEOUT_MS: '2000' });
    await stack.startWorker();
    api = apiClient(stack.apiUrl, await stack.newApiKey('schedule@herald.dev'));
    await api.post('/api/herald/users', { username: 'carol' });
    const hook = discord.createWebhook({ name: 'Scheduled' });
    expect((await api.post('/api/herald/users/discord/credentials', { profile_username: 'carol', webhook_url: hook.url })).status).toBe(200);
  });
  afterAll(async () => {
    await stack?.stop();
    await discord?.close();
  });

  it('answers 202 with a job id, lists it, and publishes it at its time', async () => {
    const res = await api.post('/api/upload_text', { user: 'carol', 'platform[]': ['discord'], title: 'at its time', scheduled_date: inSeconds(4), external_id: 'sched-1' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ success: true, status: 'scheduled', job_id: expect.stringMatching(/^job_/), timezone: 'UTC', external_id: 'sched-1' });
    const jobId = res.body.job_id;
    const listed = await api.get('/api/herald/schedule');
    expect(listed.body.scheduled.map((s: { job_id: string }) => s.job_id)).toContain(jobId);
    expect((await api.get(`/api/herald/status?job_id=${jobId}`)).body.status).toBe('scheduled');
    expect(messages('at its time')).toHaveLength(0);
    const done = await eventually(() => api.get(`/api/herald/status?job_id=${jobId}`), (r) => r.body.status === 'completed', 40_000, 500);
    expect(done.body).toMatchObject({ all_succeeded: true, job_id: jobId, external_id: 'sched-1' });
    expect(messages('at its time')).toHaveLength(1);
    expect(Date.parse(done.body.started_at)).toBeGreaterThanOrEqual(Date.parse(res.body.scheduled_date) - 50);
    const history = await api.get(`/api/herald/history?job_id=${jobId}`);
    expect(history.body.history).toHaveLength(1);
  });

  it('never publishes a cancelled post', async () => {
    const res = await api.post('/api/upload_text', { user: 'carol', 'platform[]': ['discord'], title: 'cancelled one', scheduled_date: inSeconds(3) });
    const jobId = res.body.job_id;
    const del = await fetch(`${stack.apiUrl}/api/herald/schedule/${jobId}`, { method: 'DELETE', headers: { Authorization: (await keyHeader()) } });
    expect(del.status).toBe(200);
    expect(await del.json()).toMatchObject({ success: true, job_id: jobId, status: 'cancelled' });
    await new Promise((r) => setTimeout(r, 5000));
    expect(messages('cancelled one')).toHaveLength(0);
    expect((await api.get(`/api/herald/status?job_id=${jobId}`)).body.status).toBe('cancelled');
    const again = await fetch(`${stack.apiUrl}/api/herald/schedule/${jobId}`, { method: 'DELETE', headers: { Authorization: (await keyHeader()) } });
    expect(again.status).toBe(409);
    expect(await again.json()).toMatchObject({ success: false, error_code: 'job_not_cancellable' });
  });

  it('moves a post with PATCH: new date and new text', async () => {
    const res = await api.post('/api/upload_text', { user: 'carol', 'platform[]': ['discord'], title: 'original text', scheduled_date: inSeconds(300) });
    const jobId = res.body.job_id;
    const patch = await fetch(`${stack.apiUrl}/api/herald/schedule/${jobId}`, {
      method: 'PATCH', headers: { Authorization: await keyHeader(), 'Content-Type': 'application/json' },
      body: JSON.stringify({ scheduled_date: inSeconds(3), discord_title: 'edited text' }),
    });
    expect(patch.status).toBe(200);
    await eventually(() => api.get(`/api/herald/status?job_id=${jobId}`), (r) => r.body.status === 'completed', 40_000, 500);
    expect(messages('edited text')).toHaveLength(1);
    expect(messages('original text')).toHaveLength(0);
  });

  it('publishes a scheduled post once although the worker was killed with -9 while it waited', async () => {
    const res = await api.post('/api/upload_text', { user: 'carol', 'platform[]': ['discord'], title: 'survives the worker', scheduled_date: inSeconds(5) });
    const jobId = res.body.job_id;
    await stack.killWorker('SIGKILL');
    await new Promise((r) => setTimeout(r, 6000));
    expect(messages('survives the worker')).toHaveLength(0);
    await stack.startWorker();
    await eventually(() => api.get(`/api/herald/status?job_id=${jobId}`), (r) => r.body.status === 'completed', 60_000, 500);
    expect(messages('survives the worker')).toHaveLength(1);
  });

  it('publishes a queued post once although the worker was killed with -9 before its slot', async () => {
    // A profile of its own whose queue has one slot a little ahead (slots are whole minutes).
    await api.post('/api/herald/users', { username: 'quinn' });
    const hook = discord.createWebhook({ name: 'Queued' });
    expect((await api.post('/api/herald/users/discord/credentials', { profile_username: 'quinn', webhook_url: hook.url })).status).toBe(200);
    let slot = new Date(Math.ceil((Date.now() + 1) / 60_000) * 60_000);
    if (slot.getTime() - Date.now() < 15_000) slot = new Date(slot.getTime() + 60_000);
    const day = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'][slot.getUTCDay()];
    const time = slot.toISOString().slice(11, 16);
    expect((await api.post('/api/herald/queue/settings', { profile_username: 'quinn', timezone: 'UTC', slots: [{ day, time }] })).status).toBe(200);

    const res = await api.post('/api/upload_text', { user: 'quinn', 'platform[]': ['discord'], title: 'queued through a crash', add_to_queue: true });
    expect(res).toMatchObject({ status: 202, body: { status: 'scheduled', queue_slot: slot.toISOString() } });
    await stack.killWorker('SIGKILL');
    await new Promise((r) => setTimeout(r, slot.getTime() - Date.now() + 2000));
    expect(messages('queued through a crash')).toHaveLength(0);
    await stack.startWorker();
    await eventually(() => api.get(`/api/herald/status?job_id=${res.body.job_id}`), (r) => r.body.status === 'completed', 60_000, 500);
    expect(messages('queued through a crash')).toHaveLength(1);
    // Nothing more arrives later (no second delivery from a replayed activity).
    await new Promise((r) => setTimeout(r, 3000));
    expect(messages('queued through a crash')).toHaveLength(1);
  });

  it('fills queue slots in order under 20 concurrent requests, never beyond their capacity', async () => {
    const settings = await api.post('/api/herald/queue/settings', {
      profile_username: 'carol', timezone: 'America/New_York', posts_per_slot: 3,
      slots: [{ day: 'mon', time: '09:00' }, { day: 'wed', time: '12:30' }, { day: 'fri', time: '17:00' }],
    });
    expect(settings).toMatchObject({ status: 200, body: { success: true, settings: { posts_per_slot: 3, timezone: 'America/New_York' } } });
    const preview = await api.get('/api/herald/queue/preview?profile_username=carol&count=7');
    const expected: string[] = preview.body.slots.map((s: { slot_at: string }) => s.slot_at);
    expect(expected).toHaveLength(7);
    const responses = await Promise.all(Array.from({ length: 20 }, (_, i) =>
      api.post('/api/upload_text', { user: 'carol', 'platform[]': ['discord'], title: `queued post ${i}`, add_to_queue: true })));
    expect(responses.map((r) => [r.status, r.body.status, r.body.error_code])).toEqual(Array(20).fill([202, 'scheduled', undefined]));
    const perSlot = new Map<string, number>();
    for (const r of responses) perSlot.set(r.body.queue_slot, (perSlot.get(r.body.queue_slot) ?? 0) + 1);
    // 20 posts, 3 per slot: the first six slots full, the seventh with two.
    expect([...perSlot.keys()].sort()).toEqual(expected.slice(0, 7).sort());
    expect(expected.slice(0, 6).map((slot) => perSlot.get(slot))).toEqual([3, 3, 3, 3, 3, 3]);
    expect(perSlot.get(expected[6]!)).toBe(2);
    expect(responses.every((r) => r.body.status === 'scheduled' && r.body.scheduled_date === r.body.queue_slot)).toBe(true);
    const after = await api.get('/api/herald/queue/preview?profile_username=carol&count=1');
    expect(after.body.slots).toEqual([{ slot_at: expected[6], used: 2, capacity: 3 }]);
    // Clean up: cancelled queued posts give their places back.
    for (const r of responses) {
      const del = await fetch(`${stack.apiUrl}/api/herald/schedule/${r.body.job_id}`, { method: 'DELETE', headers: { Authorization: await keyHeader() } });
      expect(del.status).toBe(200);
    }
    expect((await api.get('/api/herald/queue/preview?profile_username=carol&count=1')).body.slots[0]).toEqual({ slot_at: expected[0], used: 0, capacity: 3 });
  });

  it('refuses dates in the past, beyond 365 days, and combined with add_to_queue', async () => {
    const past = await api.post('/api/upload_text', { user: 'carol', 'platform[]': ['discord'], title: 'x', scheduled_date: '2020-01-01T00:00:00Z' });
    expect(past).toMatchObject({ status: 400, body: { success: false, violations: [{ field: 'scheduled_date' }] } });
    const far = await api.post('/api/upload_text', { user: 'carol', 'platform[]': ['discord'], title: 'x', scheduled_date: inSeconds(366 * 24 * 3600) });
    expect(far.status).toBe(400);
    const both = await api.post('/api/upload_text', { user: 'carol', 'platform[]': ['discord'], title: 'x', scheduled_date: inSeconds(60), add_to_queue: true });
    expect(both).toMatchObject({ status: 400, body: { violations: [{ field: 'add_to_queue' }] } });
    expect((await fetch(`${stack.apiUrl}/api/herald/schedule/job_nope`, { method: 'DELETE', headers: { Authorization: await keyHeader() } })).status).toBe(404);
  });

  let cachedKey: string | undefined;
  async function keyHeader(): Promise<string> {
    cachedKey ??= await stack.newApiKey('schedule@herald.dev');
    return `Apikey ${cachedKey}`;
  }
});
