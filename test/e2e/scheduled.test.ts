import { Client, Connection } from '@temporalio/client';
import { MongoClient } from 'mongodb';
import { COLLECTIONS } from '../../adapters/mongo/collections';
import { workflowIds } from '../../core/ports/workflow-names';
import { startDiscordSimulator, type DiscordSimulator } from '../../ops/simulators/discord';
import { apiClient, eventually, rescheduleSoon } from '../support/stack';
import { useHerald } from '../support/e2e';

jest.setTimeout(180_000);

/**
 * Scheduled posts on the real stack: a durable Temporal timer that fires, moves, or is cancelled.
 * No test races the clock: posts are scheduled an hour ahead, and a post that must run is moved
 * to a near time (PATCH) once the test has done what it must before it runs; then the test waits
 * on state with generous bounds.
 */
describe('scheduled posts', () => {
  let discord: DiscordSimulator;
  let hookUrl: string;
  beforeAll(async () => {
    discord = await startDiscordSimulator();
    hookUrl = discord.createWebhook({ name: 'Scheduled' }).url;
  });
  afterAll(async () => {
    await discord?.close();
  });
  const herald = useHerald({
    env: () => ({ DISCORD_API_BASE: discord.baseUrl, HERALD_HEARTBEAT_TIMEOUT_MS: '2000' }),
    account: { email: 'schedule@herald.dev' },
    profiles: ['carol'],
  });
  const { api, stack } = herald;
  let temporal: { connection: Connection; client: Client };
  let accountId: string;
  const inSeconds = (s: number) => new Date(Date.now() + s * 1000).toISOString();
  const messages = (text: string) => discord.messages().filter((m) => m.content === text);
  const completed = (jobId: string) => eventually(() => api.get(`/api/herald/status?job_id=${jobId}`), (r) => r.body.status === 'completed', 60_000, 500);
  const workflowOf = (requestId: string) => temporal.client.workflow.getHandle(workflowIds.upload(accountId, requestId));
  /** Waits until a worker has run the post's workflow up to its timer: the wait is in Temporal's history. */
  const waitingOnTimer = (requestId: string) => eventually(
    async () => ((await workflowOf(requestId).fetchHistory()).events ?? []).some((e) => e.timerStartedEventAttributes),
    Boolean, 60_000, 250);

  beforeAll(async () => {
    accountId = (await api.get('/api/herald/me')).body.account_id;
    const connection = await Connection.connect({ address: stack.env.TEMPORAL_ADDRESS });
    temporal = { connection, client: new Client({ connection }) };
    await herald.connect('discord', { profile: 'carol', credentials: { webhook_url: hookUrl } });
  });
  afterAll(async () => {
    await temporal?.connection.close();
  });

  it('answers 202 with a job id, lists it, and publishes it at its time', async () => {
    const res = await api.post('/api/upload_text', { user: 'carol', 'platform[]': ['discord'], title: 'at its time', scheduled_date: inSeconds(3600), external_id: 'sched-1' });
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ success: true, status: 'scheduled', job_id: expect.stringMatching(/^job_/), timezone: 'UTC', external_id: 'sched-1' });
    const jobId = res.body.job_id;
    const listed = await api.get('/api/herald/schedule');
    expect(listed.body.scheduled.map((s: { job_id: string }) => s.job_id)).toContain(jobId);
    expect((await api.get(`/api/herald/status?job_id=${jobId}`)).body.status).toBe('scheduled');
    expect(messages('at its time')).toHaveLength(0);

    const moved = await rescheduleSoon(api, jobId);
    expect(moved).toMatchObject({ status: 200, body: { job_id: jobId, status: 'scheduled' } });
    const done = await completed(jobId);
    expect(done.body).toMatchObject({ all_succeeded: true, job_id: jobId, external_id: 'sched-1' });
    expect(messages('at its time')).toHaveLength(1);
    // The timer waited for the new time: it did not run before it.
    expect(Date.parse(done.body.started_at)).toBeGreaterThanOrEqual(Date.parse(moved.body.scheduled_date) - 50);
    const history = await api.get(`/api/herald/history?job_id=${jobId}`);
    expect(history.body.history).toHaveLength(1);
  });

  it('never publishes a cancelled post', async () => {
    const res = await api.post('/api/upload_text', { user: 'carol', 'platform[]': ['discord'], title: 'cancelled one', scheduled_date: inSeconds(3600) });
    const jobId = res.body.job_id;
    const del = await api.delete(`/api/herald/schedule/${jobId}`);
    expect(del).toMatchObject({ status: 200, body: { success: true, job_id: jobId, status: 'cancelled' } });
    // The cancel ends the workflow's wait: once it has ended, nothing of this post can go out.
    await workflowOf(res.body.request_id).result();
    expect(messages('cancelled one')).toHaveLength(0);
    expect((await api.get(`/api/herald/status?job_id=${jobId}`)).body.status).toBe('cancelled');
    expect(await api.delete(`/api/herald/schedule/${jobId}`)).toMatchObject({ status: 409, body: { success: false, error_code: 'job_not_cancellable' } });
    expect(await rescheduleSoon(api, jobId)).toMatchObject({ status: 409, body: { success: false, error_code: 'job_not_editable' } });
  });

  it('moves a post with PATCH: new date and new text', async () => {
    const res = await api.post('/api/upload_text', { user: 'carol', 'platform[]': ['discord'], title: 'original text', scheduled_date: inSeconds(3600) });
    const jobId = res.body.job_id;
    expect(await rescheduleSoon(api, jobId, { discord_title: 'edited text' })).toMatchObject({ status: 200 });
    await completed(jobId);
    expect(messages('edited text')).toHaveLength(1);
    expect(messages('original text')).toHaveLength(0);
  });

  it('publishes a scheduled post once although the worker was killed with -9 while it waited', async () => {
    const res = await api.post('/api/upload_text', { user: 'carol', 'platform[]': ['discord'], title: 'survives the worker', scheduled_date: inSeconds(3600) });
    const jobId = res.body.job_id;
    await waitingOnTimer(res.body.request_id);
    await stack.killWorker('SIGKILL');
    // Moved while no worker runs: the signal waits in Temporal for the next worker.
    const moved = await rescheduleSoon(api, jobId);
    expect(moved.status).toBe(200);
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(moved.body.scheduled_date) - Date.now()) + 1000));
    expect(messages('survives the worker')).toHaveLength(0);
    await stack.startWorker();
    await completed(jobId);
    expect(messages('survives the worker')).toHaveLength(1);
  });

  it('publishes a queued post once although the worker was killed with -9 before its slot', async () => {
    // A profile of its own whose queue has one slot an hour ahead (slots are whole minutes).
    await api.post('/api/herald/users', { username: 'quinn' });
    const hook = discord.createWebhook({ name: 'Queued' });
    await herald.connect('discord', { profile: 'quinn', credentials: { webhook_url: hook.url } });
    const slot = new Date(Math.ceil((Date.now() + 3600_000) / 60_000) * 60_000);
    const day = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'][slot.getUTCDay()];
    const time = slot.toISOString().slice(11, 16);
    expect((await api.post('/api/herald/queue/settings', { profile_username: 'quinn', timezone: 'UTC', slots: [{ day, time }] })).status).toBe(200);

    const res = await api.post('/api/upload_text', { user: 'quinn', 'platform[]': ['discord'], title: 'queued through a crash', add_to_queue: true });
    expect(res).toMatchObject({ status: 202, body: { status: 'scheduled', queue_slot: slot.toISOString() } });
    await waitingOnTimer(res.body.request_id);
    await stack.killWorker('SIGKILL');
    // Its time is brought forward while no worker runs, so the test need not wait an hour.
    const moved = await rescheduleSoon(api, res.body.job_id);
    expect(moved.status).toBe(200);
    await new Promise((r) => setTimeout(r, Math.max(0, Date.parse(moved.body.scheduled_date) - Date.now()) + 1000));
    expect(messages('queued through a crash')).toHaveLength(0);
    await stack.startWorker();
    await completed(res.body.job_id);
    expect(messages('queued through a crash')).toHaveLength(1);
    // The workflow has ended: no second delivery can come from a replayed activity.
    await workflowOf(res.body.request_id).result();
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
    expect(await api.get('/api/herald/queue/next-slot?profile_username=carol')).toMatchObject({
      status: 200, body: { success: true, profile_username: 'carol', timezone: 'America/New_York', next_slot: expected[6], slot: { slot_at: expected[6], used: 2, capacity: 3 } },
    });
    // Clean up: cancelled queued posts give their places back.
    for (const r of responses) expect((await api.delete(`/api/herald/schedule/${r.body.job_id}`)).status).toBe(200);
    expect((await api.get('/api/herald/queue/preview?profile_username=carol&count=1')).body.slots[0]).toEqual({ slot_at: expected[0], used: 0, capacity: 3 });
  });

  it('takes queue settings in the flat layout too, answers both side by side, and names the field of a mixed body', async () => {
    await api.post('/api/herald/users', { username: 'flo' });
    const flat = { profile_username: 'flo', timezone: 'Europe/Paris', slots: [{ hour: 9 }, { hour: 18, minute: 30 }], days_of_week: [0, 4], max_posts_per_slot: 2 };
    const saved = await api.post('/api/herald/queue/settings', flat);
    expect(saved).toMatchObject({ status: 200, body: { success: true } });
    expect(saved.body.settings).toEqual({
      profile_username: 'flo', timezone: 'Europe/Paris', updated_at: expect.any(String),
      slots: [
        { day: 'mon', time: '09:00', hour: 9, minute: 0 }, { day: 'mon', time: '18:30', hour: 18, minute: 30 },
        { day: 'fri', time: '09:00', hour: 9, minute: 0 }, { day: 'fri', time: '18:30', hour: 18, minute: 30 },
      ],
      days_of_week: [0, 4], posts_per_slot: 2, max_posts_per_slot: 2,
    });
    const read = await api.get('/api/herald/queue/settings?profile_username=flo');
    expect(read).toMatchObject({ status: 200, body: { success: true, settings: { ...saved.body.settings, updated_at: saved.body.settings.updated_at } } });
    // What a read answers goes back unchanged.
    const again = await api.post('/api/herald/queue/settings', read.body.settings);
    expect(again).toMatchObject({ status: 200, body: { settings: { slots: saved.body.settings.slots, days_of_week: [0, 4], posts_per_slot: 2 } } });

    const preview = await api.get('/api/herald/queue/preview?profile_username=flo&count=1');
    const next = await api.get('/api/herald/queue/next-slot?profile_username=flo');
    expect(next).toMatchObject({ status: 200, body: { success: true, profile_username: 'flo', timezone: 'Europe/Paris', next_slot: preview.body.slots[0].slot_at, slot: preview.body.slots[0] } });

    const mixed = await api.post('/api/herald/queue/settings', { profile_username: 'flo', slots: [{ day: 'mon', time: '09:00' }, { hour: 10 }] });
    expect(mixed).toMatchObject({ status: 400, body: { success: false, error_code: 'invalid_request', violations: [{ field: 'slots[1].day' }] } });
    const disagree = await api.post('/api/herald/queue/settings', { ...flat, posts_per_slot: 3 });
    expect(disagree).toMatchObject({ status: 400, body: { violations: [{ field: 'max_posts_per_slot' }] } });

    expect(await api.get('/api/herald/queue/next-slot')).toMatchObject({ status: 400, body: { success: false, violations: [{ field: 'profile_username' }] } });
    await api.post('/api/herald/users', { username: 'noqueue' });
    expect(await api.get('/api/herald/queue/next-slot?profile_username=noqueue')).toMatchObject({ status: 404, body: { success: false, error_code: 'QUEUE_NOT_CONFIGURED' } });
    expect(await api.get('/api/herald/queue/next-slot?profile_username=nobody')).toMatchObject({ status: 404, body: { success: false, error_code: 'PROFILE_NOT_FOUND' } });
  });

  it('refuses dates in the past, beyond 365 days, and combined with add_to_queue', async () => {
    const past = await api.post('/api/upload_text', { user: 'carol', 'platform[]': ['discord'], title: 'x', scheduled_date: '2020-01-01T00:00:00Z' });
    expect(past).toMatchObject({ status: 400, body: { success: false, violations: [{ field: 'scheduled_date' }] } });
    const far = await api.post('/api/upload_text', { user: 'carol', 'platform[]': ['discord'], title: 'x', scheduled_date: inSeconds(366 * 24 * 3600) });
    expect(far.status).toBe(400);
    const both = await api.post('/api/upload_text', { user: 'carol', 'platform[]': ['discord'], title: 'x', scheduled_date: inSeconds(3600), add_to_queue: true });
    expect(both).toMatchObject({ status: 400, body: { violations: [{ field: 'add_to_queue' }] } });
    expect((await api.delete('/api/herald/schedule/job_nope')).status).toBe(404);
  });

  // Issue 29 e: status answers are cached per API process (HERALD_STATUS_CACHE_MS, 2 s here) only
  // while none of the account's uploads changed; two API daemons as behind a balancer.
  describe('on two API processes', () => {
    let other: ReturnType<typeof apiClient>;
    beforeAll(async () => {
      other = apiClient(await stack.startApi(), herald.key);
    });

    it('an edit or a cancel on one is seen by the next status read on the other', async () => {
      const res = await api.post('/api/upload_text', { user: 'carol', 'platform[]': ['discord'], title: 'read elsewhere', scheduled_date: inSeconds(3600) });
      const status = `/api/herald/status?job_id=${res.body.job_id}`;
      expect((await other.get(status)).body).toMatchObject({ title: 'read elsewhere', status: 'scheduled' });
      expect(await api.patch(`/api/herald/schedule/${res.body.job_id}`, { title: 'edited, read elsewhere' })).toMatchObject({ status: 200 });
      expect((await other.get(status)).body).toMatchObject({ title: 'edited, read elsewhere', status: 'scheduled' });

      expect((await api.get(status)).body.title).toBe('edited, read elsewhere');
      expect(await other.delete(`/api/herald/schedule/${res.body.job_id}`)).toMatchObject({ status: 200 });
      expect((await api.get(status)).body.status).toBe('cancelled');
    });

    it("the worker's progress is seen at once", async () => {
      const res = await api.post('/api/upload_text', { user: 'carol', 'platform[]': ['discord'], title: 'progress read elsewhere', scheduled_date: inSeconds(3600) });
      const status = `/api/herald/status?job_id=${res.body.job_id}`;
      await rescheduleSoon(api, res.body.job_id);
      // The database is the oracle: the moment it holds the post completed, the status read just
      // before on the other process (a cached answer, were the cache blind to the worker's writes) is stale.
      const mongo = await MongoClient.connect(stack.env.MONGODB_URI!);
      try {
        const uploads = mongo.db().collection(COLLECTIONS.uploads);
        await eventually(async () => {
          await other.get(status);
          return uploads.findOne({ accountId, jobId: res.body.job_id });
        }, (doc) => doc?.status === 'completed', 60_000, 50);
      } finally {
        await mongo.close();
      }
      expect((await other.get(status)).body).toMatchObject({ status: 'completed', all_succeeded: true });
    });
  });
});
