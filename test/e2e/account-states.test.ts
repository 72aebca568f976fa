import { Client, Connection } from '@temporalio/client';
import { MongoClient } from 'mongodb';
import type { ConnectedAccount } from '../../core/domain/connected-account';
import { workflowIds } from '../../core/ports/workflow-names';
import type { Storage } from '../../core/ports/storage';
import { COLLECTIONS, createMongoStorage } from '../../adapters/mongo/storage';
import { createTemporalAccountPauses } from '../../adapters/temporal/account-pauses';
import { eventually, rescheduleSoon, within } from '../support/stack';
import { media, useHerald } from '../support/e2e';
import { anUpload } from '../support/mothers';
import Redis from 'ioredis';
import { createRedisRecordChangePublisher } from '../../adapters/redis/record-changes';
import { announcingChanges } from '../../core/usecases/record-changes';

jest.setTimeout(180_000);

const PROFILE = 'sam';
const PROBE_INTERVAL_MS = 1000;
/** YouTube's daily-limit pause (2 hours in production), in seconds here. */
const YOUTUBE_PAUSE_MS = 4000;

/**
 * Account states on the real stack (API and worker daemons, Temporal, FerretDB, Redis) against the
 * sandbox simulators: the checkpoint flag and the probe workflow that lifts it, and the account
 * pause and the workflow that ends it.
 */
describe('account states', () => {
  const herald = useHerald({
    sandbox: true,
    env: {
      HERALD_CHECKPOINT_PROBE_INTERVAL_MS: String(PROBE_INTERVAL_MS), YOUTUBE_DAILY_LIMIT_PAUSE_MS: String(YOUTUBE_PAUSE_MS),
      // Far longer than the suite: a state change reaches the API's intake caches by its announcement or not at all.
      HERALD_CONNECTION_CACHE_MS: '3600000',
    },
    account: { email: 'states@herald.dev' },
    profiles: [PROFILE],
  });
  const { api, stack, sandbox } = herald;
  let temporal: { connection: Connection; client: Client };
  let mongo: MongoClient;
  /** The test writes connection state as the worker does: through storage that announces each write. */
  let storage: Storage;
  let publisher: Redis;
  const photo = media.image({ color: '0x336699' });
  const video = media.clip({ seconds: 2, audio: false });
  /** Workflows a test leaves running (a real 30-minute pause), ended in afterAll. */
  const leftRunning: string[] = [];

  const connectionOf = async (platform: string): Promise<ConnectedAccount> => {
    const doc = await mongo.db().collection<{ _id: string }>(COLLECTIONS.connectedAccounts).findOne({ profileUsername: PROFILE, platform });
    const connection = doc ? await storage.connectedAccounts.findById(doc._id) : null;
    if (!connection) throw new Error(`no ${platform} connection stored`);
    return connection;
  };
  let n = 0;
  const postText = (platform: string, title = `Post ${(n += 1)} at ${Date.now()}`) =>
    api.post('/api/upload_text', { user: PROFILE, 'platform[]': [platform], title });
  const postVideo = (platform: string, title: string) => herald.publish({ user: PROFILE, 'platform[]': [platform], title, async_upload: true }, { video });
  const postPhoto = (platform: string) => herald.publish({ user: PROFILE, 'platform[]': [platform], title: `Photo ${(n += 1)} at ${Date.now()}` }, { photos: [photo] });

  beforeAll(async () => {
    for (const platform of ['threads', 'instagram', 'youtube', 'discord'] as const) await herald.connect(platform, { profile: PROFILE });

    const connection = await Connection.connect({ address: stack.env.TEMPORAL_ADDRESS });
    temporal = { connection, client: new Client({ connection, namespace: 'default' }) };
    mongo = await MongoClient.connect(stack.env.MONGODB_URI!, { serverSelectionTimeoutMS: 5000 });
    publisher = new Redis(stack.env.REDIS_URL!, { maxRetriesPerRequest: 1 });
    storage = announcingChanges(await createMongoStorage(mongo.db()), createRedisRecordChangePublisher(publisher, { channel: `${stack.env.HERALD_REDIS_PREFIX}:record-changes` }));
  });

  afterAll(async () => {
    for (const id of leftRunning) await temporal?.client.workflow.getHandle(id).terminate('test over').catch(() => undefined);
    await temporal?.connection.close();
    await mongo?.close();
    publisher?.disconnect();
  });

  it('a checkpoint flags the Threads account; the probe workflow lifts the flag once the user completed it', async () => {
    const sim = sandbox.simulators.threads;
    const userId = sandbox.accounts.threads.accountId;
    sim.checkpointAccount(userId);

    const first = await postText('threads');
    expect(first.status).toBe(200);
    expect(first.body.results.threads).toMatchObject({ success: false, error_code: 'account_checkpoint_required' });
    const flagged = await connectionOf('threads');
    expect(flagged).toMatchObject({ status: 'connected', checkpointRequired: true });

    // Refused at precheck, not counted, nothing sent to Threads.
    const sentBefore = sim.requests.filter((r) => r.method === 'POST').length;
    const refused = await postText('threads');
    expect(refused).toMatchObject({
      status: 409,
      body: { success: false, error_code: 'account_reauth_required', failure_stage: 'precheck', results: { threads: { error_code: 'account_reauth_required' } } },
    });
    expect(sim.requests.filter((r) => r.method === 'POST').length).toBe(sentBefore);

    // The probe workflow asks Threads every period and gets the checkpoint answer each time.
    const handle = temporal.client.workflow.getHandle(workflowIds.checkpointProbe(flagged.id));
    expect((await handle.describe()).status.name).toBe('RUNNING');
    const probes = () => sim.requests.filter((r) => r.method === 'GET' && /\/me$/.test(r.path) && r.query.fields === 'id').length;
    await eventually(async () => probes(), (count) => count >= 2, 60_000, 200);
    expect(await connectionOf('threads')).toMatchObject({ checkpointRequired: true });
    expect((await postText('threads')).status).toBe(409);

    // The user completes the checkpoint in the app: the next probe finds it gone.
    sim.completeCheckpoint(userId);
    expect(await within(60_000, 'the probe workflow', handle.result())).toBe('cleared');
    expect((await connectionOf('threads')).checkpointRequired).toBeUndefined();

    const after = await postText('threads', 'Back after the checkpoint');
    expect(after).toMatchObject({ status: 200, body: { all_succeeded: true, results: { threads: { success: true, post_id: expect.any(String) } } } });
    expect(sim.posts(userId).map((p) => p.text)).toContain('Back after the checkpoint');
  });

  it('a real restriction verdict pauses the Instagram account: refused at precheck with 429 while the pause workflow runs', async () => {
    // The account used its 24-hour API publishing quota: Instagram's verdict pauses it 30 minutes (spec).
    sandbox.simulators.instagram.usePublishingQuota(sandbox.accounts.instagram.accountId, 100);
    const first = await postPhoto('instagram');
    expect(first.status).toBe(200);
    expect(first.body.results.instagram).toMatchObject({ success: false, error_code: 'publish_limit', restriction_reason: 'publish_limit' });
    const paused = await connectionOf('instagram');
    expect(paused.restriction).toMatchObject({ reason: 'publish_limit' });
    const until = paused.restriction!.until;
    expect(until.getTime() - Date.now()).toBeGreaterThan(29 * 60_000);

    const handle = temporal.client.workflow.getHandle(workflowIds.accountPause(paused.id));
    leftRunning.push(handle.workflowId);
    expect((await handle.describe()).status.name).toBe('RUNNING');

    const refused = await postPhoto('instagram');
    expect(refused).toMatchObject({
      status: 429,
      body: {
        success: false, error_code: 'account_restricted', failure_stage: 'precheck',
        results: { instagram: { error_code: 'account_restricted', failure_stage: 'precheck', restriction_reason: 'publish_limit', restricted_until: until.toISOString() } },
      },
    });
    expect(refused.body.retry_after_seconds).toBeGreaterThan(29 * 60);
    expect(refused.body.retry_after_seconds).toBeLessThanOrEqual(30 * 60);
  });

  it('the pause workflow lifts a pause when its end passes, and the account publishes again', async () => {
    // Every network's pause lasts what the spec says (30 minutes at least), so the pause is set the
    // way run-upload sets it: stored on the connection, then the real workflow started through the
    // worker's own adapter. First an hour-long pause, so the refusal cannot race its end.
    const connection = await connectionOf('discord');
    // Published first, so the API holds the connection in its intake cache (an hour's TTL here):
    // only the announcement of the pause below can make the next post see it.
    expect(await postText('discord', 'Before the pause')).toMatchObject({ status: 200, body: { all_succeeded: true } });
    const long = { reason: 'rate_limited', until: new Date(Date.now() + 3600_000) };
    await storage.connectedAccounts.setRestriction(connection.id, long, new Date());
    const refused = await postText('discord');
    expect(refused).toMatchObject({
      status: 429,
      body: {
        success: false, error_code: 'account_restricted', failure_stage: 'precheck',
        results: { discord: { restriction_reason: 'rate_limited', restricted_until: long.until.toISOString() } },
      },
    });
    expect(refused.headers.get('retry-after')).toBe(String(refused.body.retry_after_seconds));
    expect(refused.body.retry_after_seconds).toBeGreaterThan(3000);
    expect(refused.body.retry_after_seconds).toBeLessThanOrEqual(3600);
    expect((await connectionOf('discord')).restriction).toEqual(long);

    // Then a pause that ends in two seconds, as a new verdict would store it, with its workflow.
    const restriction = { reason: 'rate_limited', until: new Date(Date.now() + 2_000) };
    await storage.connectedAccounts.setRestriction(connection.id, restriction, new Date());
    await createTemporalAccountPauses(temporal.client, { taskQueue: stack.env.HERALD_TASK_QUEUE! }).paused(connection, restriction);
    const handle = temporal.client.workflow.getHandle(workflowIds.accountPause(connection.id));
    await within(60_000, 'the pause workflow', handle.result());
    expect(Date.now()).toBeGreaterThanOrEqual(restriction.until.getTime());
    expect((await connectionOf('discord')).restriction).toBeUndefined();

    const after = await postText('discord', 'After the pause');
    expect(after).toMatchObject({ status: 200, body: { all_succeeded: true, results: { discord: { success: true } } } });
  });

  /** The end of the pause a verdict started: the input of the account's pause workflow. */
  async function pauseEnd(connection: ConnectedAccount): Promise<number> {
    const handle = temporal.client.workflow.getHandle(workflowIds.accountPause(connection.id));
    await within(30_000, 'the pause workflow', handle.result());
    const started = (await handle.fetchHistory()).events![0]!.workflowExecutionStartedEventAttributes!.input!.payloads![0]!;
    return Date.parse((JSON.parse(Buffer.from(started.data!).toString()) as { until: string }).until);
  }
  const videoInits = (title: string) => sandbox.simulators.youtube.requests
    .filter((r) => r.method === 'POST' && r.path.startsWith('/upload/youtube/v3/videos') && JSON.stringify(r.body ?? '').includes(title)).length;

  it('a YouTube channel over its daily upload limit is paused, and the post goes out once the pause ends (spec: "paused 2 hours, then retried")', async () => {
    sandbox.simulators.youtube.fail('upload_limit_exceeded', 1);
    const title = `Over the daily limit ${Date.now()}`;
    const res = await postVideo('youtube', title);
    expect(res.status).toBe(202);
    const done = await herald.waitForCompletion(res.body.request_id);
    expect(done.body.results.youtube).toMatchObject({ success: true, post_id: expect.any(String) });
    // Published once more when the pause ended, not before.
    const until = await pauseEnd(await connectionOf('youtube'));
    expect(Date.parse(done.body.results.youtube.finished_at)).toBeGreaterThanOrEqual(until);
    expect(videoInits(title)).toBe(2);
    expect((await connectionOf('youtube')).restriction).toBeUndefined();
  });

  it('a second daily-limit verdict on the retry fails the YouTube post for good', async () => {
    sandbox.simulators.youtube.fail('upload_limit_exceeded', 2);
    const title = `Still over the daily limit ${Date.now()}`;
    const res = await postVideo('youtube', title);
    expect(res.status).toBe(202);
    const done = await herald.waitForCompletion(res.body.request_id);
    expect(done.body.results.youtube).toMatchObject({ success: false, error_code: 'youtube_channel_daily_limit', restriction_reason: 'daily_upload_limit' });
    expect(videoInits(title)).toBe(2);
    await pauseEnd(await connectionOf('youtube'));
  });

  it('a scheduled post that meets a daily cap when it is due moves to the same time the next day, with a warning', async () => {
    // Threads allows 50 posts a day per account: 50 already published in the last hours (stored
    // as the API would have stored them), then a post scheduled an hour ahead and moved to a near time.
    const connection = await connectionOf('threads');
    const now = Date.now();
    for (let i = 0; i < 50; i += 1) {
      await storage.uploads.insert(anUpload({
        accountId: connection.accountId, profileUsername: PROFILE, status: 'completed',
        targets: [{ platform: 'threads', connectedAccountId: connection.id, title: `earlier ${i}`, settings: {} }],
        createdAt: new Date(now - 3600_000 + i * 1000), updatedAt: new Date(now),
      }));
    }
    const inAnHour = new Date(Math.ceil((now + 3600_000) / 1000) * 1000);
    const sentBefore = sandbox.simulators.threads.requests.filter((r) => r.method === 'POST').length;
    const res = await api.post('/api/upload_text', { user: PROFILE, 'platform[]': ['threads'], title: 'Over the cap', scheduled_date: inAnHour.toISOString() });
    expect(res).toMatchObject({ status: 202, body: { status: 'scheduled', scheduled_date: inAnHour.toISOString() } });
    const soon = await rescheduleSoon(api, res.body.job_id);
    expect(soon).toMatchObject({ status: 200, body: { status: 'scheduled' } });

    const nextDay = new Date(Date.parse(soon.body.scheduled_date) + 24 * 3600_000).toISOString();
    const moved = await eventually(() => api.get(`/api/herald/status?job_id=${res.body.job_id}`),
      (r) => r.body.scheduled_date === nextDay, 60_000, 500);
    expect(moved.body).toMatchObject({ status: 'scheduled', scheduled_date: nextDay });
    // 50 stored here plus what the earlier tests published on this account.
    expect(moved.body.warnings.join(' ')).toMatch(/the threads account had 5\d posts in the last 24 hours when this post was due \(daily cap 50\)/);
    expect(sandbox.simulators.threads.requests.filter((r) => r.method === 'POST').length).toBe(sentBefore);
    // Still a normal scheduled post: listed, and cancellable.
    const listed = await api.get('/api/herald/schedule');
    expect(listed.body.scheduled).toEqual(expect.arrayContaining([expect.objectContaining({ job_id: res.body.job_id, scheduled_date: nextDay })]));
    const cancel = await fetch(`${stack.apiUrl}/api/herald/schedule/${res.body.job_id}`, { method: 'DELETE', headers: { Authorization: `Apikey ${herald.key}` } });
    expect(cancel.status).toBe(200);
  });
});
