import { Client, Connection } from '@temporalio/client';
import { MongoClient, type Db } from 'mongodb';
import { toOutboxEventDoc } from '../../adapters/mongo/notifications/outbox';
import { webhookCrypto } from '../../adapters/notifications/signature';
import { CHANNEL_BATCH } from '../../adapters/temporal/notification-channels';
import { SIGNALS, WORKFLOW_TYPES, workflowIds } from '../../core/ports/workflow-names';
import { startDiscordSimulator, type DiscordSimulator } from '../../ops/simulators/discord';
import { useHerald } from '../support/e2e';
import { startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(600_000);

/**
 * Worker pools as separate processes: a worker running only `notify` delivers notifications
 * (and nothing else), one running only `publish` publishes; and a channel run started on the
 * publishing queue before the notify pool existed finishes its work there, then moves to the
 * notify queue at its next delivery. Real API, workers, Temporal and FerretDB; waits on state.
 */
describe('worker pools in separate processes', () => {
  let discord: DiscordSimulator;
  let receiver: WebhookReceiver;
  let mongo: MongoClient;
  let db: Db;
  let connection: Connection;
  let client: Client;
  let accountId: string;
  const event = (d: ReceivedDelivery) => String(d.headers['x-herald-event'] ?? '');

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    discord = await startDiscordSimulator();
  });
  // No worker at the start: each test starts the pools it is about.
  const herald = useHerald({
    env: () => ({
      DISCORD_API_BASE: discord.baseUrl,
      HERALD_WEBHOOK_ALLOW: `127.0.0.1:${receiver.port}`,
      HERALD_NOTIFY_POLL_MS: '200',
      HERALD_HEARTBEAT_TIMEOUT_MS: '2000',
    }),
    worker: false,
    account: { email: 'pools@herald.dev' },
  });
  const { api, stack } = herald;
  beforeAll(async () => {
    mongo = await MongoClient.connect(stack.env.MONGODB_URI!);
    db = mongo.db();
    connection = await Connection.connect({ address: stack.env.TEMPORAL_ADDRESS! });
    client = new Client({ connection });
    accountId = (await api.get('/api/herald/me')).body.account_id as string;
  });

  afterAll(async () => {
    await mongo?.close();
    await connection?.close();
    await Promise.all([receiver?.close(), discord?.close()]);
  });

  const publishQueue = () => stack.env.HERALD_TASK_QUEUE!;
  const notifyQueue = () => `${stack.env.HERALD_TASK_QUEUE!}-notify`;

  it('HERALD_WORKER_POOLS=notify delivers webhooks without publishing; HERALD_WORKER_POOLS=publish publishes', async () => {
    const notifyWorker = await stack.startWorker({ HERALD_WORKER_POOLS: 'notify' });
    expect(notifyWorker.output.join('')).toContain(notifyQueue());

    expect(await api.post('/api/herald/users/notifications', { webhook_url: receiver.url('/pools') })).toMatchObject({ status: 200 });
    expect(await api.post('/api/herald/users', { username: 'alice' })).toMatchObject({ status: 201 });
    const hook = discord.createWebhook({ name: 'Pools' });
    await herald.connect('discord', { profile: 'alice', credentials: { webhook_url: hook.url } });
    // The connection's event, delivered by the notify-only worker.
    await receiver.waitFor(() => receiver.at('/pools').some((d) => event(d) === 'social_account_connected'), 120_000, 'the connected event');

    const up = await api.post('/api/upload_text', { user: 'alice', 'platform[]': ['discord'], title: 'Published by the publish pool', async_upload: true }, { 'X-Request-Id': 'pools-1' });
    expect(up.status).toBe(202);
    // Nobody polls the publishing queue yet: the upload waits, and no event tells it completed.
    const waiting = await client.workflow.getHandle(workflowIds.upload(accountId, 'pools-1')).describe();
    expect(waiting.taskQueue).toBe(publishQueue());
    expect((await api.get('/api/herald/status?request_id=pools-1')).body.status).toBe('pending');
    expect(discord.messages().filter((m) => m.content === 'Published by the publish pool')).toHaveLength(0);

    const publishWorker = await stack.startWorker({ HERALD_WORKER_POOLS: 'publish' });
    expect(publishWorker.output.join('')).not.toContain(notifyQueue());
    const done = await herald.waitForCompletion('pools-1');
    expect(done.body).toMatchObject({ all_succeeded: true });
    expect(discord.messages().filter((m) => m.content === 'Published by the publish pool')).toHaveLength(1);
    // upload_completed, written to the outbox by the publish worker, delivered by the notify worker.
    await receiver.waitFor(() => receiver.at('/pools').some((d) => event(d) === 'upload_completed'), 120_000, 'the upload_completed event');

    const channel = await client.workflow.getHandle(workflowIds.notificationChannel(`${accountId}:webhook`)).describe();
    expect(channel.taskQueue).toBe(notifyQueue());
  });

  it('a channel run started on the publishing queue (before the notify pool) finishes its deliveries there, then moves to the notify queue', async () => {
    // A profile webhook channel, as an older release left it running on the publishing queue.
    expect(await api.post('/api/herald/users', { username: 'legacy' })).toMatchObject({ status: 201 });
    expect(await api.post('/api/herald/users/profile-webhook', { profile_username: 'legacy', webhook_url: receiver.url('/legacy') })).toMatchObject({ status: 200 });
    const profileChannel = `${accountId}:profile:legacy`;
    // An event already handed (the old dispatcher marked it), and the run that holds it, started the old way.
    const key = `legacy-event-${Date.now()}`;
    await db.collection('events').insertOne(toOutboxEventDoc(
      { event: 'social_account_connected', status: 'connected', account_id: accountId, user_email: 'pools@herald.dev', platform: 'x', account_name: 'old', profile_username: 'legacy', created_at: new Date().toISOString() },
      key, new Date(), new Date(),
    ));
    const legacy = await client.workflow.signalWithStart(WORKFLOW_TYPES.notificationChannel, {
      workflowId: workflowIds.notificationChannel(profileChannel),
      taskQueue: publishQueue(),
      // The input and the one-argument signal of the release before the notify pool.
      args: [{ channelId: profileChannel, breaker: { failureThreshold: 5, pauseMs: 60_000 }, attemptTimeoutMs: 60_000 * CHANNEL_BATCH, heartbeatTimeoutMs: 2000, idleMs: 3600_000, batch: CHANNEL_BATCH }],
      signal: SIGNALS.deliver,
      signalArgs: [[{ deliveryId: webhookCrypto.deliveryId(key, profileChannel), eventKey: key }]],
    });
    // The publish worker still runs the channel workflow and its activities: the old run delivers.
    await receiver.waitFor(() => receiver.at('/legacy').some((d) => d.json?.account_name === 'old'), 120_000, 'the legacy run\'s delivery');
    expect((await legacy.describe()).taskQueue).toBe(publishQueue());

    // The next event goes through today's dispatcher: its routed signal moves the run to the notify queue.
    const next = `legacy-next-${Date.now()}`;
    await db.collection('events').insertOne(toOutboxEventDoc(
      { event: 'social_account_connected', status: 'connected', account_id: accountId, user_email: 'pools@herald.dev', platform: 'x', account_name: 'new', profile_username: 'legacy', created_at: new Date().toISOString() },
      next, new Date(),
    ));
    await receiver.waitFor(() => receiver.at('/legacy').some((d) => d.json?.account_name === 'new'), 120_000, 'the moved run\'s delivery');
    const first = await client.workflow.getHandle(legacy.workflowId, legacy.signaledRunId).describe();
    expect(first.status.name).toBe('CONTINUED_AS_NEW');
    const current = await client.workflow.getHandle(legacy.workflowId).describe();
    expect(current.taskQueue).toBe(notifyQueue());
    expect(current.runId).not.toBe(legacy.signaledRunId);
    // Each delivery once.
    expect(receiver.at('/legacy').map((d) => d.json?.account_name).filter((n) => n === 'old' || n === 'new').sort()).toEqual(['new', 'old']);
  });
});
