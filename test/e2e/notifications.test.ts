import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { MongoClient, type Db } from 'mongodb';
import { toOutboxEventDoc } from '../../adapters/mongo/notifications/outbox';
import { verifyWebhook } from '../../adapters/notifications/signature';
import type { HeraldEvent } from '../../core/ports/notifications';
import { startDiscordSimulator, type DiscordSimulator } from '../../ops/simulators/discord';
import { startSlackWebhookSimulator, type SlackWebhookSimulator } from '../../ops/simulators/slack-webhook';
import { startTelegramSimulator, type TelegramSimulator } from '../../ops/simulators/telegram';
import { eventually } from '../support/stack';
import { useHerald } from '../support/e2e';
import { startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from '../support/webhook-receiver';

jest.setTimeout(600_000);

const PAUSE_MS = 60_000;
const RECEIVER_TIMEOUT_MS = 3_000;

/**
 * Notifications end to end: the real API and worker, Temporal, FerretDB; a loopback receiver;
 * Discord and Telegram as publishing networks; the Telegram Bot API and Slack incoming-webhook
 * simulators as chat channels. Connection events are written into the outbox as the connect page
 * will write them (the worker delivers whatever the outbox holds). Breaker thresholds, pause and
 * receiver timeout are configuration, shortened here; every wait is on state, with wide bounds.
 */
describe('notifications end to end', () => {
  let discord: DiscordSimulator;
  let telegram: TelegramSimulator;
  let slack: SlackWebhookSimulator;
  let receiver: WebhookReceiver;
  let mongo: MongoClient;
  let db: Db;
  let temporal: Connection;
  let botToken: string;
  let chatId: number;

  const header = (d: ReceivedDelivery, name: string) => String(d.headers[`x-herald-${name}`] ?? '');
  const verified = (d: ReceivedDelivery, secret: string) => verifyWebhook(secret, header(d, 'timestamp'), d.raw, header(d, 'signature'));

  async function account(email: string) {
    const api = herald.client(await stack.newApiKey(email));
    const me = await api.get('/api/herald/me');
    return { api, id: me.body.account_id as string };
  }

  /** Writes a connection event into the outbox, as the connect page does through the Notifier port. */
  async function emitConnected(accountId: string, name: string, profile = 'alice', event = 'social_account_connected') {
    const key = `${event}:${accountId}:${name}:${randomBytes(4).toString('hex')}`;
    const status = event === 'social_account_connected' ? 'connected' : event === 'social_account_disconnected' ? 'disconnected' : 'reauth_required';
    // The document the outbox writes (its hour key included), as the API's or a worker's emit would.
    await db.collection('events').insertOne(toOutboxEventDoc({
      event, status, account_id: accountId, user_email: 'e2e@herald.dev', platform: 'x', account_name: name, profile_username: profile,
      ...(status !== 'connected' ? { reason: 'manual_disconnect' } : {}), created_at: new Date().toISOString(),
    } as HeraldEvent, key, new Date()));
    return key;
  }

  async function breaker(accountId: string, channel = 'webhook') {
    const client = new Client({ connection: temporal });
    try {
      return await client.workflow.getHandle(`webhook:${accountId}:${channel}`).query<{ state: string; consecutive_failures: number; queued: number }>('breaker');
    } catch {
      return null;
    }
  }

  beforeAll(async () => {
    receiver = await startWebhookReceiver();
    discord = await startDiscordSimulator();
    telegram = await startTelegramSimulator();
    slack = await startSlackWebhookSimulator();
    const bot = telegram.createBot({ username: 'herald_notify_bot' });
    botToken = bot.token;
    const chat = telegram.createChat({ type: 'supergroup', title: 'Herald alerts' });
    chatId = chat.id;
    telegram.setMember(chat.id, bot.id, 'member');
  });
  // Accounts of their own per test (account()), so no default account.
  const herald = useHerald({
    env: () => ({
      DISCORD_API_BASE: discord.baseUrl,
      TELEGRAM_API_BASE: telegram.baseUrl,
      HERALD_HEARTBEAT_TIMEOUT_MS: '2000',
      // host:port: a bare host would open only its default port.
      HERALD_WEBHOOK_ALLOW: `127.0.0.1:${receiver.port},127.0.0.1:${slack.port}`,
      HERALD_WEBHOOK_TIMEOUT_MS: String(RECEIVER_TIMEOUT_MS),
      HERALD_WEBHOOK_BREAKER_FAILURES: '5',
      HERALD_WEBHOOK_BREAKER_PAUSE_MS: String(PAUSE_MS),
      HERALD_NOTIFY_TELEGRAM_BOT_TOKEN: botToken,
      HERALD_NOTIFY_TELEGRAM_API_BASE: telegram.baseUrl,
      HERALD_NOTIFY_POLL_MS: '200',
    }),
    account: false,
  });
  const { stack } = herald;
  beforeAll(async () => {
    mongo = await MongoClient.connect(stack.env.MONGODB_URI!);
    db = mongo.db();
    temporal = await Connection.connect({ address: stack.env.TEMPORAL_ADDRESS! });
  });

  afterAll(async () => {
    await mongo?.close();
    await temporal?.close();
    await Promise.all([receiver?.close(), discord?.close(), telegram?.close(), slack?.close()]);
  });

  it('refuses unsafe webhook addresses (SSRF) with 400, and a non-API-key credential', async () => {
    const { api } = await account('ssrf@herald.dev');
    for (const url of ['http://169.254.169.254/latest/meta-data', 'http://10.0.0.7/hook', 'http://localhost:8080/hook', 'http://[::1]/hook', 'http://192.168.1.10/']) {
      const res = await api.post('/api/herald/users/notifications', { webhook_url: url });
      expect({ url, status: res.status, code: res.body.error_code }).toEqual({ url, status: 400, code: 'webhook_url_forbidden' });
    }
    expect(await api.post('/api/herald/users/notifications', { webhook_url: 'ftp://example.com/x' })).toMatchObject({ status: 400, body: { success: false, error_code: 'webhook_url_invalid' } });
    expect(await api.post('/api/herald/users/notifications', { slack_webhook_url: 'http://169.254.169.254/' })).toMatchObject({ status: 400, body: { error_code: 'webhook_url_forbidden' } });
    expect(await api.post('/api/herald/users/notifications', { channels: { webhook: true } })).toMatchObject({ status: 400, body: { violations: [{ field: 'webhook_url' }] } });
    // A connect-page style bearer token is not the account key.
    const bearer = await fetch(`${stack.apiUrl}/api/herald/users/notifications`, { method: 'POST', headers: { Authorization: 'Bearer eyJhbGciOi.connect.token', 'Content-Type': 'application/json' }, body: '{}' });
    expect(bearer.status).toBe(401);
    expect(await bearer.json()).toMatchObject({ success: false, error_code: 'unauthenticated' });
  });

  it('an upload to two networks gives two signed upload_completed deliveries, to the account and the profile webhook', async () => {
    const { api } = await account('upload@herald.dev');
    expect(await api.post('/api/herald/users', { username: 'alice' })).toMatchObject({ status: 201 });
    const hook = discord.createWebhook({ name: 'Herald notify' });
    await herald.connect('discord', { profile: 'alice', credentials: { webhook_url: hook.url }, as: api });
    const tchat = telegram.createChat({ type: 'channel', title: 'Pub', username: 'herald_pub' });
    const pubBot = telegram.createBot({ username: 'herald_pub_bot' });
    telegram.setMember(tchat.id, pubBot.id, 'administrator', { can_post_messages: true });
    await herald.connect('telegram', { profile: 'alice', credentials: { bot_token: pubBot.token, chat_id: '@herald_pub' }, as: api });

    const saved = await api.post('/api/herald/users/notifications', { webhook_url: receiver.url('/upload/account') });
    expect(saved).toMatchObject({ status: 200, body: { success: true, notifications: { channels: { webhook: true, telegram: false, slack: false }, webhook_url: receiver.url('/upload/account') } } });
    const secret = saved.body.notifications.webhook_secret as string;
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect((await api.get('/api/herald/users/notifications')).body.notifications.webhook_secret).toBe(secret);
    const profileHook = await api.post('/api/herald/users/profile-webhook', { profile_username: 'alice', webhook_url: receiver.url('/upload/alice') });
    expect(profileHook).toMatchObject({ status: 200, body: { success: true, profile_username: 'alice', webhook_url: receiver.url('/upload/alice'), webhook_events: null } });
    expect(await api.get('/api/herald/users/profile-webhook?profile_username=alice')).toMatchObject({ body: { webhook_url: receiver.url('/upload/alice') } });
    expect(await api.get('/api/herald/users/profile-webhook?profile_username=nobody')).toMatchObject({ status: 404, body: { error_code: 'PROFILE_NOT_FOUND' } });

    const up = await api.post('/api/upload_text', { user: 'alice', 'platform[]': ['discord', 'telegram'], title: 'Notify me', async_upload: true });
    expect(up.status).toBe(202);
    // Connecting the two accounts above emitted social_account_connected (to the account webhook): the uploads' events are counted here.
    const uploads = (path: string) => receiver.at(path).filter((d) => header(d, 'event') === 'upload_completed');
    await receiver.waitFor(() => uploads('/upload/account').length >= 2 && uploads('/upload/alice').length >= 2, 120_000, 'upload deliveries');

    for (const path of ['/upload/account', '/upload/alice']) {
      const got = uploads(path);
      expect(got.map((d) => d.json.platform).sort()).toEqual(['discord', 'telegram']);
      for (const d of got) {
        expect(verified(d, secret)).toBe(true);
        expect(header(d, 'event')).toBe('upload_completed');
        expect(header(d, 'delivery')).toMatch(/^dlv_[0-9a-f]{32}$/);
        expect(d.headers['user-agent']).toBe('Herald-Webhooks/1.0');
        expect(Object.keys(d.json).filter((k) => k !== 'job_id')).toEqual(['event', 'user_email', 'profile_username', 'platform', 'media_type', 'title', 'caption', 'result', 'created_at']);
        expect(d.json).toMatchObject({ event: 'upload_completed', user_email: 'upload@herald.dev', profile_username: 'alice', media_type: 'text', title: 'Notify me', result: { success: true, error: null } });
      }
    }
    // One delivery id per event and channel.
    const ids = [...uploads('/upload/account'), ...uploads('/upload/alice')].map((d) => header(d, 'delivery'));
    expect(new Set(ids).size).toBe(4);

    // A delivery is logged once its answer is in: the receiver may have the last one a moment before the log does.
    const log = await eventually(() => api.get('/api/herald/users/notifications/deliveries?event=upload_completed&outcome=delivered'),
      (r) => r.body.deliveries?.length >= 4, 60_000);
    expect(log).toMatchObject({ status: 200, body: { success: true, page: 1, has_more: false } });
    expect(log.body.deliveries).toHaveLength(4);
    expect(log.body.deliveries[0]).toMatchObject({ delivery_id: expect.stringMatching(/^dlv_/), event: 'upload_completed', status_code: 200, latency_ms: expect.any(Number), error: null, response_body: null, outcome: 'delivered' });
    expect((await api.get('/api/herald/users/notifications/deliveries?channel=profile_webhook&event=upload_completed')).body.deliveries).toHaveLength(2);

    // Redelivery: same delivery id, signed anew (a new timestamp), logged.
    const first = uploads('/upload/account')[0]!;
    const again = await api.post(`/api/herald/users/notifications/deliveries/${header(first, 'delivery')}/redeliver`, {});
    expect(again).toMatchObject({ status: 200, body: { success: true, delivered: true, attempt: { delivery_id: header(first, 'delivery'), trigger: 'redelivery', status_code: 200 } } });
    const redelivered = receiver.at('/upload/account').at(-1)!;
    expect(header(redelivered, 'delivery')).toBe(header(first, 'delivery'));
    expect(redelivered.raw.equals(first.raw)).toBe(true);
    expect(verified(redelivered, secret)).toBe(true);
    expect(await api.post('/api/herald/users/notifications/deliveries/dlv_00000000000000000000000000000000/redeliver', {})).toMatchObject({ status: 404, body: { error_code: 'DELIVERY_NOT_FOUND' } });
  });

  it('respects the event filter; after rotation only the new secret verifies', async () => {
    const { api, id } = await account('filter@herald.dev');
    const saved = await api.post('/api/herald/users/notifications', { webhook_url: receiver.url('/filter'), webhook_events: { social_account_disconnected: false } });
    expect(saved.body.notifications.webhook_events).toEqual({ upload_completed: true, social_account_connected: true, social_account_disconnected: false, social_account_reauth_required: true });
    const oldSecret = saved.body.notifications.webhook_secret as string;

    const filtered = await emitConnected(id, 'gone', 'alice', 'social_account_disconnected');
    await emitConnected(id, 'first');
    await receiver.waitFor(() => receiver.at('/filter').length >= 1, 90_000, 'first connected event');
    expect(verified(receiver.at('/filter')[0]!, oldSecret)).toBe(true);
    expect(receiver.at('/filter')[0]!.json).toEqual({
      event: 'social_account_connected', user_email: 'e2e@herald.dev', platform: 'x', account_name: 'first', status: 'connected', profile_username: 'alice', created_at: expect.any(String),
    });

    const rotated = await api.post('/api/herald/users/webhook-secret', {});
    expect(rotated).toMatchObject({ status: 200, body: { success: true, webhook_secret: expect.stringMatching(/^whsec_/) } });
    const newSecret = rotated.body.webhook_secret as string;
    expect(newSecret).not.toBe(oldSecret);
    await emitConnected(id, 'second');
    await receiver.waitFor(() => receiver.at('/filter').length >= 2, 90_000, 'second connected event');
    const second = receiver.at('/filter')[1]!;
    expect(second.json.account_name).toBe('second');
    expect(verified(second, newSecret)).toBe(true);
    expect(verified(second, oldSecret)).toBe(false);
    // The filtered event was handed out (to no channel) before the later ones arrived.
    const handed = await db.collection('events').findOne({ deliveryKey: filtered });
    expect(handed?.deliveredAt).toBeInstanceOf(Date);
    expect(receiver.at('/filter').map((d) => d.json.event)).toEqual(['social_account_connected', 'social_account_connected']);

    // DELETE clears the webhook: nothing signed goes out any more, chat settings stay.
    const deleted = await api.delete('/api/herald/users/notifications');
    expect(deleted).toMatchObject({ status: 200, body: { notifications: { channels: { webhook: false }, webhook_url: null, webhook_secret: null } } });
  });

  it('delivers to Telegram and Slack through their simulators, and the test send answers each outcome', async () => {
    const { api, id } = await account('chat@herald.dev');
    const hook = slack.createWebhook({ channel: '#herald' });
    const saved = await api.post('/api/herald/users/notifications', { telegram_chat_id: String(chatId), slack_webhook_url: hook.url });
    expect(saved).toMatchObject({ status: 200, body: { notifications: { channels: { webhook: false, telegram: true, slack: true } } } });
    // Issue 26: the URL is the channel's credential: sealed at rest, masked on reads, kept by a save that sends the mask back.
    const masked = `${new URL(hook.url).origin}/services/T…/…/****`;
    expect(saved.body.notifications.slack_webhook_url).toBe(masked);
    expect((await api.get('/api/herald/users/notifications')).body.notifications.slack_webhook_url).toBe(masked);
    expect(JSON.stringify(await db.collection('notification_settings').findOne({ _id: id } as object))).not.toContain(new URL(hook.url).pathname);
    expect(await api.post('/api/herald/users/notifications', { slack_webhook_url: masked })).toMatchObject({ status: 200, body: { notifications: { slack_webhook_url: masked } } });
    await emitConnected(id, '@chat_account');
    await eventually(async () => ({ t: telegram.messages(chatId).length, s: slack.messages('#herald').length }), (v) => v.t >= 1 && v.s >= 1, 90_000);
    expect(telegram.messages(chatId)[0]!.text).toBe('🔗 x account @chat_account connected (profile alice)');
    expect(slack.messages('#herald')[0]!.text).toBe('🔗 x account @chat_account connected (profile alice)');

    const test = await api.post('/api/herald/users/notifications/test', {});
    expect(test).toMatchObject({ status: 200, body: { success: true, all_delivered: true } });
    expect(test.body.results.map((r: any) => [r.channel, r.outcome, r.status_code])).toEqual([['telegram', 'delivered', 200], ['slack', 'delivered', 200]]);
    expect(JSON.stringify(test.body)).not.toContain(botToken);
    slack.archiveChannel('#herald');
    const failing = await api.post('/api/herald/users/notifications/test', {});
    expect(failing.body.all_delivered).toBe(false);
    expect(failing.body.results[1]).toMatchObject({ channel: 'slack', outcome: 'failed', status_code: 410, response_body: null, latency_ms: expect.any(Number) });
  });

  it('a receiver that answers after the (shortened) timeout counts as a failed delivery', async () => {
    const { api, id } = await account('slow@herald.dev');
    await api.post('/api/herald/users/notifications', { webhook_url: receiver.url('/slow') });
    receiver.setResponder((d, res) => {
      if (d.path !== '/slow') { res.writeHead(200); res.end('thanks'); return; }
      setTimeout(() => { if (!res.destroyed) { res.writeHead(200); res.end('too late'); } }, RECEIVER_TIMEOUT_MS + 2_000);
    });
    await emitConnected(id, 'slowpoke');
    const log = await eventually(() => api.get('/api/herald/users/notifications/deliveries'), (r) => r.body.deliveries?.length >= 1, 90_000);
    expect(log.body.deliveries[0]).toMatchObject({ outcome: 'failed', status_code: null, error: expect.stringContaining('timeout') });
    expect(log.body.deliveries[0].latency_ms).toBeGreaterThanOrEqual(RECEIVER_TIMEOUT_MS - 100);
    expect(await breaker(id)).toMatchObject({ state: 'closed', consecutive_failures: 1 });
  });

  it('five 500s open the breaker, deliveries during the pause are skipped (logged), then one success closes it', async () => {
    const { api, id } = await account('breaker@herald.dev');
    await api.post('/api/herald/users/notifications', { webhook_url: receiver.url('/breaker') });
    // Seven events at once: the first five fail and open the breaker; the other two are queued
    // behind them or arrive during the pause (a minute): skipped either way.
    let status = 500;
    receiver.setResponder((d, res) => {
      res.writeHead(d.path === '/breaker' ? status : 200);
      res.end(d.path === '/breaker' && status === 500 ? 'down' : 'thanks');
    });
    const names = ['b0', 'b1', 'b2', 'b3', 'b4', 'b5', 'b6'];
    for (const name of names) await emitConnected(id, name);

    const log = await eventually(() => api.get('/api/herald/users/notifications/deliveries?limit=100'), (r) => r.body.deliveries?.length >= 7, 120_000);
    const outcomes = log.body.deliveries.map((d: any) => d.outcome).reverse();
    expect(outcomes).toEqual(['failed', 'failed', 'failed', 'failed', 'failed', 'skipped', 'skipped']);
    expect(receiver.at('/breaker')).toHaveLength(5);
    expect(log.body.deliveries[0].error).toContain('circuit breaker');
    expect((await api.get('/api/herald/users/notifications/deliveries?outcome=skipped')).body.deliveries).toHaveLength(2);
    // The cursor form walks the same log, three at a time; a cursor sent with other filters is refused.
    expect(log.body).toMatchObject({ total: 7, has_more: false, next_cursor: null });
    const walked: string[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 5; pages += 1) {
      const page = await api.get(`/api/herald/users/notifications/deliveries?limit=3${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(page).toMatchObject({ status: 200, body: { total: 7 } });
      walked.push(...page.body.deliveries.map((d: any) => d.attempt_id as string));
      cursor = page.body.next_cursor as string | null;
      if (!cursor) break;
      const refused = await api.get(`/api/herald/users/notifications/deliveries?limit=3&outcome=failed&cursor=${encodeURIComponent(cursor)}`);
      expect(refused).toMatchObject({ status: 400, body: { success: false, error_code: 'invalid_cursor' } });
    }
    expect(walked).toEqual(log.body.deliveries.map((d: any) => d.attempt_id));
    expect(await breaker(id)).toMatchObject({ state: expect.stringMatching(/^(open|half_open)$/), consecutive_failures: 5 });

    // After the pause the next delivery is tried; it succeeds and the breaker closes.
    status = 200;
    await eventually(() => breaker(id), (b) => b?.state === 'half_open', PAUSE_MS + 90_000, 1000);
    await emitConnected(id, 'after-pause');
    await receiver.waitFor(() => receiver.at('/breaker').some((d) => d.json.account_name === 'after-pause'), 90_000, 'delivery after the pause');
    await eventually(() => breaker(id), (b) => b?.state === 'closed' && b.consecutive_failures === 0, 60_000);
    // Skipped deliveries are not retried.
    const tried = receiver.at('/breaker').map((d) => d.json.account_name as string);
    expect(tried).toHaveLength(6);
    expect(tried.at(-1)).toBe('after-pause');
    expect(new Set(tried.slice(0, 5)).size).toBe(5);
    expect(names).toEqual(expect.arrayContaining(tried.slice(0, 5)));

    // The operator CLI lists the failed attempts and sends one again (same delivery id; the receiver answers 200 now).
    const failed = await stack.cli('webhooks', 'failed', '--email', 'breaker@herald.dev', '--json');
    expect(failed.code).toBe(0);
    const rows = JSON.parse(failed.stdout).deliveries as Array<{ delivery_id: string; outcome: string; status_code: number }>;
    expect(rows).toHaveLength(5);
    expect(rows.every((r) => r.outcome === 'failed' && r.status_code === 500)).toBe(true);
    expect((await stack.cli('webhooks', 'failed', '--email', 'breaker@herald.dev')).stdout).toContain(rows[0]!.delivery_id);
    const again = await stack.cli('webhooks', 'redeliver', '--email', 'breaker@herald.dev', '--id', rows[0]!.delivery_id, '--json');
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ delivery_id: rows[0]!.delivery_id, outcome: 'delivered', status_code: 200, trigger: 'redelivery' });
    expect(receiver.at('/breaker')).toHaveLength(7);
  });

  it('kill -9 of the worker mid-delivery: delivered after the restart with the same delivery id', async () => {
    // This worker waits long for receivers, so the kill surely lands while the attempt is in flight.
    await stack.killWorker('SIGTERM');
    stack.env.HERALD_WEBHOOK_TIMEOUT_MS = '300000';
    await stack.startWorker();
    const { api, id } = await account('kill@herald.dev');
    await api.post('/api/herald/users/notifications', { webhook_url: receiver.url('/kill') });
    receiver.setResponder((d, res) => {
      // The first attempt is never answered: the worker dies while waiting for it.
      if (d.path === '/kill' && receiver.at('/kill').length === 1) return;
      res.writeHead(200);
      res.end('thanks');
    });
    await emitConnected(id, 'survivor');
    await receiver.waitFor(() => receiver.at('/kill').length >= 1, 90_000, 'first attempt');
    await stack.killWorker('SIGKILL');
    await stack.startWorker();
    await receiver.waitFor(() => receiver.at('/kill').length >= 2, 120_000, 'attempt after the restart');
    const [first, second] = receiver.at('/kill');
    expect(header(second!, 'delivery')).toBe(header(first!, 'delivery'));
    expect(second!.raw.equals(first!.raw)).toBe(true);
    const log = await eventually(() => api.get('/api/herald/users/notifications/deliveries'), (r) => r.body.deliveries?.some((d: any) => d.outcome === 'delivered'), 60_000);
    expect(log.body.deliveries[0]).toMatchObject({ delivery_id: header(first!, 'delivery'), outcome: 'delivered' });
  });
});
