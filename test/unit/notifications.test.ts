import { createAesSecretBox } from '../../adapters/crypto/node-crypto';
import { createMemoryNotificationStorage } from '../../adapters/memory/notifications';
import { createMemoryStorage } from '../../adapters/memory/storage';
import type { NotificationSenders, SendOutcome, WebhookRequest } from '../../core/ports/notification-channels';
import type { ConnectionEvent } from '../../core/ports/notifications';
import { loadConfig } from '../../apps/shared/config';
import { cleanupNotifications } from '../../core/usecases/notifications/cleanup';
import { deliverBatch, deliverToChannel, redeliver, sendTestNotification } from '../../core/usecases/notifications/delivery';
import { listDeliveries } from '../../core/usecases/notifications/delivery-log';
import { requireAccountPrincipal, type NotificationDeps } from '../../core/usecases/notifications/deps';
import { dispatchPendingEvents } from '../../core/usecases/notifications/dispatch';
import { saveProfileWebhook } from '../../core/usecases/notifications/profile-webhooks';
import { deleteWebhook, getNotifications, rotateWebhookSecret, saveNotifications } from '../../core/usecases/notifications/settings';
import { defaultNotificationSettings, maskedSlackUrl, type NotificationSettings } from '../../core/domain/notifications';
import { anOperator, anUploadCompletedEvent, aProfile, T0 } from '../support/mothers';
import { sealedUnbound } from '../support/legacy-seal';

function world(opts: { telegram?: boolean } = {}) {
  const storage = createMemoryStorage();
  const notifications = createMemoryNotificationStorage();
  const sent: { kind: string; to: string; req?: WebhookRequest; text?: string }[] = [];
  let answer: (to: string) => Partial<SendOutcome> = () => ({ ok: true, statusCode: 200 });
  const outcome = (to: string): SendOutcome => ({ ok: true, target: to, statusCode: 200, latencyMs: 3, error: null, response: 'ok', ...answer(to) });
  const senders: NotificationSenders = {
    async webhook(req) { sent.push({ kind: 'webhook', to: req.url, req }); return outcome(req.url); },
    telegramConfigured: opts.telegram ?? true,
    async telegram(chatId, text) { sent.push({ kind: 'telegram', to: chatId, text }); return outcome(`telegram:${chatId}`); },
    async slack(url, text) { sent.push({ kind: 'slack', to: url, text }); return outcome(url); },
  };
  const enqueued: { channelId: string; deliveryId: string; eventKey: string }[] = [];
  const resumed: string[] = [];
  let n = 0;
  const deps: NotificationDeps = {
    storage, notifications, senders,
    guard: { async vet(url) { if (url.includes('forbidden')) throw Object.assign(new Error('no'), { kind: 'invalid_input' }); } },
    crypto: { newSecret: () => `whsec_${++n}`, deliveryId: (k, c) => `dlv_${k}|${c}` },
    secrets: createAesSecretBox(Buffer.alloc(32, 3).toString('base64')),
    ids: { next: (p) => `${p}_${++n}` },
    clock: { now: () => T0 },
    retentionMs: 30 * 24 * 3600_000,
    queue: {
      async enqueue(channelId, ds) { for (const d of ds) enqueued.push({ channelId, ...d }); },
      async resume(channelId) { resumed.push(channelId); },
    },
  };
  const account = anOperator({ id: 'acct-1', email: 'op@example.test' });
  return { deps, storage, notifications, sent, enqueued, resumed, account, answer: (f: typeof answer) => { answer = f; } };
}

describe('notification settings', () => {
  it('reads defaults, creates the secret with the first webhook URL, turns channels on with their address', async () => {
    const w = world();
    expect(await getNotifications(w.deps, w.account)).toEqual({
      channels: { webhook: false, telegram: false, slack: false }, webhook_url: null, telegram_chat_id: null, slack_webhook_url: null, webhook_secret: null,
      webhook_events: { upload_completed: true, social_account_connected: true, social_account_disconnected: true, social_account_reauth_required: true },
    });
    const saved = await saveNotifications(w.deps, w.account, { webhook_url: 'https://r.test/h', telegram_chat_id: '-100123', webhook_events: { social_account_connected: false } });
    expect(saved).toMatchObject({
      channels: { webhook: true, telegram: true, slack: false }, webhook_url: 'https://r.test/h', telegram_chat_id: '-100123', webhook_secret: expect.stringMatching(/^whsec_/),
      webhook_events: { upload_completed: true, social_account_connected: false },
    });
    // Saved again: the secret stays; omitted webhook_events = every event.
    const again = await saveNotifications(w.deps, w.account, { slack_webhook_url: 'https://hooks.slack.test/services/T1/B1/x' });
    expect(again.webhook_secret).toBe(saved.webhook_secret);
    expect(again.webhook_events.social_account_connected).toBe(true);
    expect(again.channels).toEqual({ webhook: true, telegram: true, slack: true });
    expect(w.resumed).toEqual(['acct-1:webhook', 'acct-1:telegram', 'acct-1:slack']);
  });

  it('takes webhook_events as the list of the events wanted, the way the commercial API\'s clients send it', async () => {
    const w = world();
    const saved = await saveNotifications(w.deps, w.account, { webhook_url: 'https://r.test/h', webhook_events: ['upload_completed', 'social_account_reauth_required'] });
    expect(saved.webhook_events).toEqual({ upload_completed: true, social_account_connected: false, social_account_disconnected: false, social_account_reauth_required: true });
    await expect(saveNotifications(w.deps, w.account, { webhook_events: ['upload_completed', 'nope'] }))
      .rejects.toMatchObject({ kind: 'invalid_input', details: { violations: [{ field: 'webhook_events[1]' }] } });
    await expect(saveNotifications(w.deps, w.account, { webhook_events: 'upload_completed' })).rejects.toMatchObject({ kind: 'invalid_input' });
  });

  it('refuses bad input with 400 naming the field', async () => {
    const w = world({ telegram: false });
    await expect(saveNotifications(w.deps, w.account, { channels: { webhook: true } })).rejects.toMatchObject({ kind: 'invalid_input', details: { violations: [{ field: 'webhook_url' }] } });
    await expect(saveNotifications(w.deps, w.account, { webhook_url: 'https://r.test', webhook_events: { nope: true } })).rejects.toMatchObject({ kind: 'invalid_input' });
    await expect(saveNotifications(w.deps, w.account, { webhook_url: 'http://forbidden/' })).rejects.toMatchObject({ kind: 'invalid_input' });
    await expect(saveNotifications(w.deps, w.account, { telegram_chat_id: '-1001' })).rejects.toMatchObject({ errorCode: 'telegram_not_configured' });
    await expect(saveNotifications(w.deps, w.account, { telegram_chat_id: 'not a chat' })).rejects.toMatchObject({ kind: 'invalid_input' });
    await expect(saveNotifications(w.deps, w.account, { channels: { fax: true } })).rejects.toMatchObject({ kind: 'invalid_input' });
  });

  it('DELETE clears the webhook, its filter and secret, and keeps chat settings; rotation replaces the secret', async () => {
    const w = world();
    const saved = await saveNotifications(w.deps, w.account, { webhook_url: 'https://r.test/h', telegram_chat_id: '@ops_chat', webhook_events: { upload_completed: false } });
    const rotated = await rotateWebhookSecret(w.deps, w.account);
    expect(rotated).not.toBe(saved.webhook_secret);
    expect((await getNotifications(w.deps, w.account)).webhook_secret).toBe(rotated);
    expect(await deleteWebhook(w.deps, w.account)).toMatchObject({
      channels: { webhook: false, telegram: true }, webhook_url: null, webhook_secret: null, telegram_chat_id: '@ops_chat', webhook_events: { upload_completed: true },
    });
  });

  it('only the account principal may change webhooks (a profile-scoped token is refused with 403)', () => {
    expect(() => requireAccountPrincipal({})).not.toThrow();
    expect(() => requireAccountPrincipal({ scope: 'account' })).not.toThrow();
    expect(() => requireAccountPrincipal({ scope: 'profile' })).toThrow(expect.objectContaining({ kind: 'forbidden', errorCode: 'account_key_required' }));
  });
});

describe('the Slack URL at rest (issue 26)', () => {
  const URL = 'https://hooks.slack.com/services/T0123ABC/B0456DEF/SeCrEtToKeN42';
  const MASKED = 'https://hooks.slack.com/services/T…/…/****';
  const slackSent = (w: ReturnType<typeof world>) => w.sent.filter((x) => x.kind === 'slack').map((x) => x.to);

  it('is stored sealed, read masked, and sent whole; saves that omit it or send the mask back keep it', async () => {
    const w = world();
    expect((await saveNotifications(w.deps, w.account, { slack_webhook_url: URL })).slack_webhook_url).toBe(MASKED);
    expect((await getNotifications(w.deps, w.account)).slack_webhook_url).toBe(MASKED);
    const stored = JSON.stringify(await w.notifications.settings.get('acct-1'));
    expect(stored).not.toContain('SeCrEtToKeN42');
    expect(stored).not.toContain('B0456DEF');

    await saveNotifications(w.deps, w.account, { telegram_chat_id: '-100123' });
    const read = await getNotifications(w.deps, w.account);
    await saveNotifications(w.deps, w.account, { ...read, webhook_secret: undefined });
    expect(w.resumed).toEqual(['acct-1:slack', 'acct-1:telegram']);
    await sendTestNotification(w.deps, w.account);
    expect(slackSent(w)).toEqual([URL]);
    await expect(saveNotifications(w.deps, w.account, { slack_webhook_url: null })).resolves.toMatchObject({ slack_webhook_url: null, channels: { slack: false } });
  });

  it('still reads the plain-text URL of an older release, and seals it (and an unbound secret) on the next save', async () => {
    const w = world();
    const legacySecret = sealedUnbound(Buffer.alloc(32, 3).toString('base64'), 'whsec_legacy');
    const { sealedSlackWebhookUrl, ...older } = {
      ...defaultNotificationSettings('acct-1', T0), channels: { webhook: true, telegram: false, slack: true },
      webhookUrl: 'https://r.test/h', slackWebhookUrl: URL, sealedWebhookSecret: legacySecret,
    };
    void sealedSlackWebhookUrl;
    await w.notifications.settings.save(older as NotificationSettings);
    expect(await getNotifications(w.deps, w.account)).toMatchObject({ slack_webhook_url: MASKED, webhook_secret: 'whsec_legacy' });
    await sendTestNotification(w.deps, w.account);
    expect(slackSent(w)).toEqual([URL]);

    await saveNotifications(w.deps, w.account, { telegram_chat_id: '@ops_chat' });
    const migrated = (await w.notifications.settings.get('acct-1'))!;
    expect(migrated.slackWebhookUrl).toBeUndefined();
    expect(JSON.stringify(migrated)).not.toContain('SeCrEtToKeN42');
    expect(w.deps.secrets.isUnbound(migrated.sealedWebhookSecret!)).toBe(false);
    expect(await getNotifications(w.deps, w.account)).toMatchObject({ slack_webhook_url: MASKED, webhook_secret: 'whsec_legacy' });
    await sendTestNotification(w.deps, w.account);
    expect(slackSent(w)).toEqual([URL, URL]);
  });

  it('masks any URL to a non-secret prefix that is never a working URL', () => {
    expect(maskedSlackUrl(URL)).toBe(MASKED);
    expect(maskedSlackUrl('https://hooks.slack.test/services/T1/B1/x?token=abc#f')).toBe('https://hooks.slack.test/services/T…/…/****');
    expect(maskedSlackUrl('https://chat.example.test/hooks/abcdef')).toBe('https://chat.example.test/hooks/****');
    expect(maskedSlackUrl('https://chat.example.test/sEcReT')).toBe('https://chat.example.test/****');
    expect(maskedSlackUrl('https://user:pw@chat.example.test/a/b/c')).toBe('https://chat.example.test/a/b…/****');
    expect(maskedSlackUrl('not a url')).toBe('****');
  });
});

describe('dispatch and delivery', () => {
  const connected = (profile?: string): ConnectionEvent => ({
    event: 'social_account_connected', status: 'connected', account_id: 'acct-1', user_email: 'op@example.test', platform: 'x', account_name: '@me',
    ...(profile ? { profile_username: profile } : {}), created_at: T0.toISOString(),
  });

  it('hands each event to every enabled channel its filter lets through, plus the profile webhook, once', async () => {
    const w = world();
    await w.storage.profiles.insert(aProfile({ accountId: 'acct-1', username: 'alice' }));
    await saveNotifications(w.deps, w.account, { webhook_url: 'https://r.test/h', slack_webhook_url: 'https://hooks.slack.test/services/T1/B1/x', webhook_events: { social_account_connected: false } });
    await saveProfileWebhook(w.deps, w.account, { profile_username: 'alice', webhook_url: 'https://alice.test/h' });
    await w.notifications.outbox.emit(anUploadCompletedEvent({ account_id: 'acct-1', profile_username: 'alice' }), 'up-1');
    await w.notifications.outbox.emit(connected('alice'), 'conn-1');
    await w.notifications.outbox.emit(anUploadCompletedEvent({ account_id: 'acct-1', profile_username: 'bob' }), 'up-2');
    await w.notifications.outbox.emit(anUploadCompletedEvent({ account_id: 'acct-other' }), 'up-3');

    expect(await dispatchPendingEvents({ ...w.deps, queue: w.deps.queue! })).toBe(4);
    expect(w.enqueued.map((e) => `${e.eventKey} → ${e.channelId}`).sort()).toEqual([
      'conn-1 → acct-1:profile:alice',
      'up-1 → acct-1:profile:alice', 'up-1 → acct-1:slack', 'up-1 → acct-1:webhook',
      'up-2 → acct-1:slack', 'up-2 → acct-1:webhook',
    ]);
    expect(await dispatchPendingEvents({ ...w.deps, queue: w.deps.queue! })).toBe(0);
  });

  it('delivers with the account secret, logs every attempt, and redelivers with the same delivery id', async () => {
    const w = world();
    const settings = await saveNotifications(w.deps, w.account, { webhook_url: 'https://r.test/h' });
    await w.notifications.outbox.emit(anUploadCompletedEvent({ account_id: 'acct-1' }), 'up-1');
    w.answer(() => ({ ok: false, statusCode: 500, error: 'HTTP 500', response: 'down' }));
    const first = await deliverToChannel(w.deps, { channelId: 'acct-1:webhook', deliveryId: 'dlv_x', eventKey: 'up-1' });
    expect(first.outcome).toBe('failed');
    expect(w.sent[0]!.req).toMatchObject({ url: 'https://r.test/h', secret: settings.webhook_secret, event: 'upload_completed', deliveryId: 'dlv_x' });
    expect(w.sent[0]!.req!.payload).not.toHaveProperty('account_id');

    w.answer(() => ({}));
    const again = await redeliver(w.deps, w.account, 'dlv_x');
    expect(again).toMatchObject({ delivery_id: 'dlv_x', outcome: 'delivered', trigger: 'redelivery', status_code: 200 });
    const log = await listDeliveries(w.deps, w.account, {});
    expect(log.deliveries.map((d) => [d.delivery_id, d.outcome, d.trigger])).toEqual([['dlv_x', 'delivered', 'redelivery'], ['dlv_x', 'failed', 'event']]);
    expect((await listDeliveries(w.deps, w.account, { outcome: 'failed' })).deliveries).toHaveLength(1);
    await expect(redeliver(w.deps, w.account, 'dlv_none')).rejects.toMatchObject({ kind: 'not_found' });
    await expect(listDeliveries(w.deps, w.account, { channel: 'fax' })).rejects.toMatchObject({ kind: 'invalid_input' });
  });

  it('a channel turned off since the event was handed to it is skipped, logged, and does not count', async () => {
    const w = world();
    await saveNotifications(w.deps, w.account, { webhook_url: 'https://r.test/h' });
    await w.notifications.outbox.emit(anUploadCompletedEvent({ account_id: 'acct-1' }), 'up-1');
    await deleteWebhook(w.deps, w.account);
    const res = await deliverToChannel(w.deps, { channelId: 'acct-1:webhook', deliveryId: 'dlv_y', eventKey: 'up-1' });
    expect(res.outcome).toBe('skipped');
    expect(w.sent).toHaveLength(0);
  });

  it('the test send reaches every enabled channel and answers each outcome', async () => {
    const w = world();
    await expect(sendTestNotification(w.deps, w.account)).rejects.toMatchObject({ errorCode: 'no_channel_enabled' });
    await saveNotifications(w.deps, w.account, { webhook_url: 'https://r.test/h', telegram_chat_id: '-100' });
    w.answer((to) => (to.startsWith('telegram') ? { ok: false, statusCode: 403, error: 'HTTP 403: Forbidden' } : {}));
    const results = await sendTestNotification(w.deps, w.account);
    expect(results.map((r) => [r.channel, r.outcome, r.status_code])).toEqual([['webhook', 'delivered', 200], ['telegram', 'failed', 403]]);
    expect(w.sent.find((s) => s.kind === 'webhook')!.req!.payload).toMatchObject({ event: 'test', user_email: 'op@example.test' });
  });

  it('a batch delivers in order, stops at the first failure, and resumes after what an earlier try finished', async () => {
    const w = world();
    await saveNotifications(w.deps, w.account, { webhook_url: 'https://r.test/h' });
    for (const k of ['e1', 'e2', 'e3', 'e4']) await w.notifications.outbox.emit(anUploadCompletedEvent({ account_id: 'acct-1', title: k }), k);
    const deliveries = ['e1', 'e2', 'e3', 'e4'].map((k) => ({ deliveryId: `dlv_${k}`, eventKey: k }));
    let calls = 0;
    w.answer(() => (++calls === 2 ? { ok: false, statusCode: 500, error: 'HTTP 500' } : {}));
    expect(await deliverBatch(w.deps, { channelId: 'acct-1:webhook', deliveries })).toEqual(['delivered', 'failed']);
    // A retry of the same batch after a worker died having done two: the rest only.
    expect(await deliverBatch(w.deps, { channelId: 'acct-1:webhook', deliveries }, ['delivered', 'delivered'])).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    expect(w.sent.map((x) => x.req!.deliveryId)).toEqual(['dlv_e1', 'dlv_e2', 'dlv_e3', 'dlv_e4']);
  });
});

describe('retention', () => {
  it('keeps attempts and handed events 30 days and finished media-job files 24 hours by default; each setting moves its own', () => {
    const defaults = loadConfig({});
    expect(defaults.notifications.retentionMs).toBe(30 * 86_400_000);
    expect(defaults.notifications.eventRetentionMs).toBe(30 * 86_400_000);
    expect(defaults.mediaJobs.timing.outputTtlMs).toBe(24 * 3600_000);
    const set = loadConfig({ HERALD_DELIVERY_LOG_RETENTION_DAYS: '7', HERALD_EVENT_RETENTION_DAYS: '14', HERALD_MEDIA_JOB_FILE_RETENTION_HOURS: '6' });
    expect(set.notifications.retentionMs).toBe(7 * 86_400_000);
    expect(set.notifications.eventRetentionMs).toBe(14 * 86_400_000);
    expect(set.mediaJobs.timing.outputTtlMs).toBe(6 * 3600_000);
    // The older millisecond settings still win when set.
    const older = loadConfig({ HERALD_DELIVERY_LOG_RETENTION_DAYS: '7', HERALD_DELIVERY_LOG_RETENTION_MS: '60000', HERALD_MEDIA_JOB_FILE_RETENTION_HOURS: '6', HERALD_MEDIA_JOB_OUTPUT_TTL_MS: '5000' });
    expect(older.notifications.retentionMs).toBe(60_000);
    expect(older.mediaJobs.timing.outputTtlMs).toBe(5000);
    expect(() => loadConfig({ HERALD_EVENT_RETENTION_DAYS: '0' })).toThrow(/HERALD_EVENT_RETENTION_DAYS/);
  });

  it('the cleanup removes expired attempts, and events handed longer than the event retention ago', async () => {
    const w = world();
    const day = 86_400_000;
    let now = T0;
    const deps = { ...w.deps, queue: w.deps.queue!, clock: { now: () => now }, retentionMs: 2 * day, eventRetentionMs: 5 * day };
    await saveNotifications(deps, w.account, { webhook_url: 'https://r.test/h' });
    await w.notifications.outbox.emit(anUploadCompletedEvent({ account_id: 'acct-1' }), 'ev-1');
    await dispatchPendingEvents(deps);
    await deliverToChannel(deps, { channelId: 'acct-1:webhook', deliveryId: 'dlv_1', eventKey: 'ev-1' });
    now = new Date(T0.getTime() + 3 * day);
    expect(await cleanupNotifications(deps)).toEqual({ attempts: 1, events: 0 });
    now = new Date(T0.getTime() + 6 * day);
    expect(await cleanupNotifications(deps)).toEqual({ attempts: 0, events: 1 });
    expect(await w.notifications.outbox.find('ev-1')).toBeNull();
  });
});
