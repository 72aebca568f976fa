import { forbidden, invalidInput, notFound } from '../domain/errors';
import {
  channelId, channelWants, chatText, defaultNotificationSettings, filterView, maskedSlackUrl, parseChannelId, publicPayload, testPayload,
  CHANNEL_KINDS, type ChannelKind, type ChannelRef, type EventFilter, type NotificationSettings, type ProfileWebhook, type PublicPayload,
} from '../domain/notifications';
import type { OperatorAccount } from '../domain/operator';
import { decodePageCursor, encodePageCursor, listFingerprint } from '../domain/page-cursor';
import { HERALD_EVENT_NAMES, type HeraldEventName } from '../ports/notifications';
import type { ChannelQueue, NotificationSenders, SendOutcome, WebhookCrypto, WebhookUrlGuard } from '../ports/notification-channels';
import type { DeliveryAttemptRecord, DeliveryLogRepository, DeliveryOutcome, DeliveryTrigger } from '../ports/storage/delivery-log';
import type { EventOutboxRepository, OutboxEvent } from '../ports/storage/event-outbox';
import type { NotificationSettingsRepository } from '../ports/storage/notification-settings';
import type { ProfileWebhookRepository } from '../ports/storage/profile-webhooks';
import type { Storage } from '../ports/storage';
import type { Clock, IdGenerator, SecretBox } from '../ports/system';
import { hasSlackUrl, sealedForSave, sealWebhookSecret, slackUrlOf, webhookSecretOf, withSlackUrl } from './notification-secrets';
import { requireProfile } from './profiles';

/** The notification repositories, built together by each adapter. */
export interface NotificationStorage {
  settings: NotificationSettingsRepository;
  profileWebhooks: ProfileWebhookRepository;
  deliveries: DeliveryLogRepository;
  outbox: EventOutboxRepository;
}

export interface NotificationDeps {
  storage: Pick<Storage, 'profiles'>;
  notifications: NotificationStorage;
  senders: NotificationSenders;
  guard: WebhookUrlGuard;
  crypto: WebhookCrypto;
  secrets: SecretBox;
  ids: IdGenerator;
  clock: Clock;
  /** How long delivery attempts are kept (HERALD_DELIVERY_LOG_RETENTION_DAYS, 30 days). */
  retentionMs: number;
  /**
   * How long an event is kept after it was handed to its channels (HERALD_EVENT_RETENTION_DAYS,
   * 30 days): a redelivery needs it. Absent: as long as the attempts.
   */
  eventRetentionMs?: number;
  /** The breaker workflows; the API reads their state and resumes them when an address changes. */
  queue?: ChannelQueue;
}

/**
 * Authentication 6: webhook configuration accepts the account's own credential (the API key;
 * a dashboard session later). A profile-scoped credential (the connect token) cannot change
 * webhooks: 403. Callers without a scope are API-key callers.
 */
export function requireAccountPrincipal(caller: { scope?: string }): void {
  if (caller.scope !== undefined && caller.scope !== 'account') {
    throw forbidden('Webhook and notification settings need the account API key; a profile-scoped token cannot change them.', 'account_key_required');
  }
}

// ---------------------------------------------------------------- settings

export interface NotificationsView {
  channels: { webhook: boolean; telegram: boolean; slack: boolean };
  webhook_url: string | null;
  telegram_chat_id: string | null;
  slack_webhook_url: string | null;
  webhook_secret: string | null;
  webhook_events: Record<HeraldEventName, boolean>;
}

/** The Slack URL is masked (`maskedSlackUrl`): it is a credential, and the read is not where it is needed. */
function view(deps: Pick<NotificationDeps, 'secrets'>, s: NotificationSettings): NotificationsView {
  const slack = slackUrlOf(deps, s);
  return {
    channels: { ...s.channels },
    webhook_url: s.webhookUrl,
    telegram_chat_id: s.telegramChatId,
    slack_webhook_url: slack && maskedSlackUrl(slack),
    webhook_secret: webhookSecretOf(deps, s),
    webhook_events: filterView(s.webhookEvents),
  };
}

async function settingsOf(deps: Pick<NotificationDeps, 'notifications' | 'clock'>, accountId: string): Promise<NotificationSettings> {
  return (await deps.notifications.settings.get(accountId)) ?? defaultNotificationSettings(accountId, deps.clock.now());
}

/** Every save seals what an older release left unsealed or unbound (notification-secrets.ts). */
const saveSettings = (deps: Pick<NotificationDeps, 'notifications' | 'secrets'>, s: NotificationSettings): Promise<void> =>
  deps.notifications.settings.save(sealedForSave(deps, s));

export async function getNotifications(deps: NotificationDeps, account: OperatorAccount): Promise<NotificationsView> {
  return view(deps, await settingsOf(deps, account.id));
}

const MAX_URL = 2048;

function optionalText(input: Record<string, unknown>, field: string, max: number): string | null | undefined {
  if (!(field in input)) return undefined;
  const value = input[field];
  if (value === null || value === '') return null;
  if (typeof value !== 'string' || value.length > max) throw invalidInput(`${field} must be a string of at most ${max} characters.`, { violations: [{ field, message: 'invalid' }] });
  return value.trim();
}

function optionalBoolean(value: unknown, field: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw invalidInput(`${field} must be true or false.`, { violations: [{ field, message: 'must be a boolean' }] });
}

/** `webhook_events`: an object of the four event names (booleans); omitted (or null) = every event. */
export function parseEventFilter(value: unknown, field = 'webhook_events'): EventFilter {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw invalidInput(`${field} must be an object of event names (${HERALD_EVENT_NAMES.join(', ')}) to true or false.`, { violations: [{ field, message: 'must be an object' }] });
  }
  const filter = filterView(null);
  for (const [name, on] of Object.entries(value as Record<string, unknown>)) {
    if (!(HERALD_EVENT_NAMES as readonly string[]).includes(name)) {
      throw invalidInput(`${field}.${name} is not an event; events: ${HERALD_EVENT_NAMES.join(', ')}.`, { violations: [{ field: `${field}.${name}`, message: 'unknown event' }] });
    }
    filter[name as HeraldEventName] = optionalBoolean(on, `${field}.${name}`) ?? true;
  }
  return filter;
}

async function ensureSecret(deps: NotificationDeps, s: NotificationSettings): Promise<NotificationSettings> {
  return s.sealedWebhookSecret ? s : { ...s, sealedWebhookSecret: sealWebhookSecret(deps, s.accountId, deps.crypto.newSecret()) };
}

/**
 * POST /users/notifications: the fields sent replace the stored ones (`webhook_events` omitted =
 * every event, as the spec says). Saving an address turns its channel on unless `channels` says
 * otherwise; a channel turned on needs its address. Addresses pass the SSRF rules.
 */
export async function saveNotifications(deps: NotificationDeps, account: OperatorAccount, input: Record<string, unknown>): Promise<NotificationsView> {
  const before = await settingsOf(deps, account.id);
  let next: NotificationSettings = { ...before, channels: { ...before.channels }, updatedAt: deps.clock.now() };
  const webhookUrl = optionalText(input, 'webhook_url', MAX_URL);
  const chatId = optionalText(input, 'telegram_chat_id', 200);
  const slackBefore = slackUrlOf(deps, before);
  let slackUrl = optionalText(input, 'slack_webhook_url', MAX_URL);
  // The masked URL of a read sent back (a client saving what it read): the stored URL stays.
  if (slackUrl && slackBefore && slackUrl === maskedSlackUrl(slackBefore)) slackUrl = undefined;
  const slack = slackUrl === undefined ? slackBefore : slackUrl;
  if (webhookUrl) await deps.guard.vet(webhookUrl, 'webhook_url');
  if (slackUrl) await deps.guard.vet(slackUrl, 'slack_webhook_url');
  if (chatId && !/^(-?\d{1,20}|@[A-Za-z][\w]{3,64})$/.test(chatId)) {
    throw invalidInput('telegram_chat_id must be a numeric chat id or a public @username.', { violations: [{ field: 'telegram_chat_id', message: 'invalid' }] });
  }
  if (webhookUrl !== undefined) { next.webhookUrl = webhookUrl; next.channels.webhook = webhookUrl !== null; }
  if (chatId !== undefined) { next.telegramChatId = chatId; next.channels.telegram = chatId !== null; }
  if (slackUrl !== undefined) { next = withSlackUrl(deps, next, slackUrl); next.channels.slack = slackUrl !== null; }
  const channels = input.channels;
  if (channels !== undefined && channels !== null) {
    if (typeof channels !== 'object' || Array.isArray(channels)) throw invalidInput('channels must be an object {webhook, telegram, slack} of booleans.', { violations: [{ field: 'channels', message: 'must be an object' }] });
    for (const [name, on] of Object.entries(channels as Record<string, unknown>)) {
      if (name !== 'webhook' && name !== 'telegram' && name !== 'slack') {
        throw invalidInput(`channels.${name} is not a channel; channels: webhook, telegram, slack.`, { violations: [{ field: `channels.${name}`, message: 'unknown channel' }] });
      }
      next.channels[name] = optionalBoolean(on, `channels.${name}`) ?? next.channels[name];
    }
  }
  next.webhookEvents = parseEventFilter(input.webhook_events);
  const missing = ([['webhook', 'webhook_url', next.webhookUrl], ['telegram', 'telegram_chat_id', next.telegramChatId], ['slack', 'slack_webhook_url', slack]] as const)
    .filter(([channel, , address]) => next.channels[channel] && !address);
  if (missing.length) {
    throw invalidInput(`Turning on ${missing.map(([c]) => c).join(', ')} needs ${missing.map(([, f]) => f).join(', ')}.`,
      { violations: missing.map(([, field]) => ({ field, message: 'required when the channel is on' })) });
  }
  if (next.channels.telegram && !deps.senders.telegramConfigured) {
    throw invalidInput('The Telegram channel is not available: this Herald has no Telegram bot token configured (HERALD_NOTIFY_TELEGRAM_BOT_TOKEN).', undefined, 'telegram_not_configured');
  }
  // The secret is created the first time a webhook URL is saved.
  if (next.webhookUrl) next = await ensureSecret(deps, next);
  await saveSettings(deps, next);
  // A changed address gets a fresh chance: its channel's pause ends now.
  if (deps.queue?.resume) {
    const changed: ChannelKind[] = [];
    if (next.webhookUrl !== before.webhookUrl) changed.push('webhook');
    if (next.telegramChatId !== before.telegramChatId) changed.push('telegram');
    if (slack !== slackBefore) changed.push('slack');
    await Promise.all(changed.map((kind) => deps.queue!.resume!(channelId({ accountId: account.id, kind })).catch(() => undefined)));
  }
  return view(deps, next);
}

/** DELETE: clears webhook_url, webhook_events and webhook_secret and turns the webhook off; chat settings stay. */
export async function deleteWebhook(deps: NotificationDeps, account: OperatorAccount): Promise<NotificationsView> {
  const before = await settingsOf(deps, account.id);
  const next: NotificationSettings = {
    ...before, channels: { ...before.channels, webhook: false }, webhookUrl: null, webhookEvents: null, sealedWebhookSecret: null, updatedAt: deps.clock.now(),
  };
  await saveSettings(deps, next);
  return view(deps, next);
}

/** Rotates the signing secret: every delivery signed from now on uses the new one. */
export async function rotateWebhookSecret(deps: NotificationDeps, account: OperatorAccount): Promise<string> {
  const before = await settingsOf(deps, account.id);
  const secret = deps.crypto.newSecret();
  await saveSettings(deps, { ...before, sealedWebhookSecret: sealWebhookSecret(deps, account.id, secret), updatedAt: deps.clock.now() });
  return secret;
}

// ---------------------------------------------------------------- profile webhooks

export interface ProfileWebhookView {
  profile_username: string;
  webhook_url: string | null;
  /** null = every event. */
  webhook_events: Record<HeraldEventName, boolean> | null;
}

function profileOf(value: unknown): string {
  if (typeof value !== 'string' || !value) throw invalidInput('profile_username is required.', { violations: [{ field: 'profile_username', message: 'required' }] });
  return value;
}

export async function getProfileWebhook(deps: NotificationDeps, account: OperatorAccount, username: unknown): Promise<ProfileWebhookView> {
  const profile = profileOf(username);
  await requireProfile(deps.storage, account.id, profile);
  const hook = await deps.notifications.profileWebhooks.get(account.id, profile);
  return { profile_username: profile, webhook_url: hook?.webhookUrl ?? null, webhook_events: hook?.webhookEvents ? filterView(hook.webhookEvents) : null };
}

/** POST: `webhook_events` omitted = every event, null = reset to every event. */
export async function saveProfileWebhook(deps: NotificationDeps, account: OperatorAccount, input: Record<string, unknown>): Promise<ProfileWebhookView> {
  const profile = profileOf(input.profile_username);
  const url = optionalText(input, 'webhook_url', MAX_URL);
  if (!url) throw invalidInput('webhook_url is required.', { violations: [{ field: 'webhook_url', message: 'required' }] });
  await deps.guard.vet(url, 'webhook_url');
  const filter = parseEventFilter(input.webhook_events);
  await requireProfile(deps.storage, account.id, profile);
  const before = await deps.notifications.profileWebhooks.get(account.id, profile);
  const hook: ProfileWebhook = { accountId: account.id, profileUsername: profile, webhookUrl: url, webhookEvents: filter, updatedAt: deps.clock.now() };
  await deps.notifications.profileWebhooks.save(hook);
  // Signed with the account's secret: created now if the account has none yet.
  const settings = await settingsOf(deps, account.id);
  if (!settings.sealedWebhookSecret) await saveSettings(deps, await ensureSecret(deps, { ...settings, updatedAt: deps.clock.now() }));
  if (before && before.webhookUrl !== url) await deps.queue?.resume?.(channelId({ accountId: account.id, kind: 'profile_webhook', profileUsername: profile })).catch(() => undefined);
  return { profile_username: profile, webhook_url: url, webhook_events: filter ? filterView(filter) : null };
}

export async function deleteProfileWebhook(deps: NotificationDeps, account: OperatorAccount, username: unknown): Promise<ProfileWebhookView> {
  const profile = profileOf(username);
  await requireProfile(deps.storage, account.id, profile);
  await deps.notifications.profileWebhooks.delete(account.id, profile);
  return { profile_username: profile, webhook_url: null, webhook_events: null };
}

// ---------------------------------------------------------------- dispatch and delivery

/** Where one channel's deliveries go now, or why nothing goes. */
interface Target {
  kind: ChannelKind;
  address: string;
  secret: string | null;
}

async function targetOf(deps: NotificationDeps, ref: ChannelRef, settings: NotificationSettings): Promise<Target | string> {
  const secret = webhookSecretOf(deps, settings);
  switch (ref.kind) {
    case 'webhook':
      return settings.channels.webhook && settings.webhookUrl ? { kind: 'webhook', address: settings.webhookUrl, secret } : 'the webhook channel is turned off';
    case 'telegram':
      return settings.channels.telegram && settings.telegramChatId ? { kind: 'telegram', address: settings.telegramChatId, secret: null } : 'the telegram channel is turned off';
    case 'slack': {
      const url = settings.channels.slack ? slackUrlOf(deps, settings) : null;
      return url ? { kind: 'slack', address: url, secret: null } : 'the slack channel is turned off';
    }
    case 'profile_webhook': {
      const hook = await deps.notifications.profileWebhooks.get(ref.accountId, ref.profileUsername!);
      return hook ? { kind: 'profile_webhook', address: hook.webhookUrl, secret } : `profile ${ref.profileUsername} has no webhook any more`;
    }
  }
}

/** The channels an event goes to, each with its delivery id. */
/** Reads made once per dispatch round: a batch of events of one account reads its settings once. */
type RoundCache = Map<string, Promise<unknown>>;

function once<T>(cache: RoundCache | undefined, key: string, read: () => Promise<T>): Promise<T> {
  if (!cache) return read();
  let hit = cache.get(key) as Promise<T> | undefined;
  if (!hit) {
    hit = read();
    cache.set(key, hit);
  }
  return hit;
}

export async function channelsFor(deps: Pick<NotificationDeps, 'notifications' | 'clock' | 'crypto'>, stored: OutboxEvent, cache?: RoundCache): Promise<{ channelId: string; deliveryId: string }[]> {
  const event = stored.event;
  const settings = await once(cache, `s|${event.account_id}`, () => deps.notifications.settings.get(event.account_id));
  const refs: ChannelRef[] = [];
  if (settings) {
    const on = (kind: 'webhook' | 'telegram' | 'slack', addressed: boolean) => settings.channels[kind] && addressed && channelWants({ accountId: event.account_id, kind }, event, settings.webhookEvents);
    if (on('webhook', Boolean(settings.webhookUrl))) refs.push({ accountId: event.account_id, kind: 'webhook' });
    if (on('telegram', Boolean(settings.telegramChatId))) refs.push({ accountId: event.account_id, kind: 'telegram' });
    if (on('slack', hasSlackUrl(settings))) refs.push({ accountId: event.account_id, kind: 'slack' });
  }
  if (event.profile_username) {
    const profile = event.profile_username;
    const hook = await once(cache, `p|${event.account_id}|${profile}`, () => deps.notifications.profileWebhooks.get(event.account_id, profile));
    const ref: ChannelRef = { accountId: event.account_id, kind: 'profile_webhook', profileUsername: event.profile_username };
    if (hook && channelWants(ref, event, hook.webhookEvents)) refs.push(ref);
  }
  return refs.map((ref) => {
    const id = channelId(ref);
    return { channelId: id, deliveryId: deps.crypto.deliveryId(stored.key, id) };
  });
}

/**
 * The outbox dispatcher's one round: every pending event is handed to the breaker workflow of
 * each channel that wants it, then marked handed. A crash between the two hands it again on the
 * next round (same delivery ids: the channel workflow drops what it already has).
 */
export async function dispatchPendingEvents(deps: Pick<NotificationDeps, 'notifications' | 'clock' | 'crypto'> & { queue: ChannelQueue }, limit = 100): Promise<number> {
  const pending = await deps.notifications.outbox.pending(limit);
  const cache: RoundCache = new Map();
  // The round's deliveries by channel, in event order: one signal per channel carries them all.
  const byChannel = new Map<string, { deliveryId: string; eventKey: string }[]>();
  for (const stored of pending) {
    for (const c of await channelsFor(deps, stored, cache)) {
      const list = byChannel.get(c.channelId) ?? [];
      list.push({ deliveryId: c.deliveryId, eventKey: stored.key });
      byChannel.set(c.channelId, list);
    }
  }
  const CONCURRENCY = 8;
  const run = async <T>(items: T[], work: (item: T) => Promise<void>) => {
    let next = 0;
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }));
  };
  await run([...byChannel], ([channel, deliveries]) => deps.queue.enqueue(channel, deliveries));
  // Marked only once every channel has them: a crash before this hands them again (same ids).
  const now = deps.clock.now();
  await run(pending, (stored) => deps.notifications.outbox.markHanded(stored.key, now));
  return pending.length;
}

async function send(deps: NotificationDeps, target: Target, event: string, deliveryId: string, payload: PublicPayload): Promise<SendOutcome> {
  switch (target.kind) {
    case 'webhook':
    case 'profile_webhook':
      return deps.senders.webhook({ url: target.address, secret: target.secret, event, deliveryId, payload });
    case 'telegram':
      return deps.senders.telegram(target.address, chatText(payload));
    case 'slack':
      return deps.senders.slack(target.address, chatText(payload));
  }
}

function record(deps: NotificationDeps, base: Omit<DeliveryAttemptRecord, 'id' | 'createdAt' | 'expiresAt'>): DeliveryAttemptRecord {
  const now = deps.clock.now();
  return { ...base, id: deps.ids.next('att'), createdAt: now, expiresAt: new Date(now.getTime() + deps.retentionMs) };
}

export interface DeliverInput {
  channelId: string;
  deliveryId: string;
  eventKey: string;
}

/** What an attempt means for the breaker: skipped attempts (channel off, event gone) do not count. */
export type AttemptResult = { outcome: DeliveryOutcome };

/** One automatic attempt (the breaker workflow's activity): send, then log the attempt. */
export async function deliverToChannel(deps: NotificationDeps, input: DeliverInput, trigger: DeliveryTrigger = 'event'): Promise<AttemptResult & { record: DeliveryAttemptRecord }> {
  const ref = parseChannelId(input.channelId);
  if (!ref) throw new Error(`not a channel id: ${input.channelId}`);
  const stored = await deps.notifications.outbox.find(input.eventKey);
  const base = { accountId: ref.accountId, deliveryId: input.deliveryId, eventKey: input.eventKey, channel: ref.kind, ...(ref.profileUsername ? { profileUsername: ref.profileUsername } : {}) };
  if (!stored) {
    const row = record(deps, { ...base, event: 'unknown', url: null, statusCode: null, latencyMs: null, error: 'the event is no longer kept (past retention)', response: null, outcome: 'skipped', trigger });
    await deps.notifications.deliveries.insert(row);
    return { outcome: 'skipped', record: row };
  }
  const target = await targetOf(deps, ref, await settingsOf(deps, ref.accountId));
  if (typeof target === 'string') {
    const row = record(deps, { ...base, event: stored.event.event, url: null, statusCode: null, latencyMs: null, error: `skipped: ${target}`, response: null, outcome: 'skipped', trigger });
    await deps.notifications.deliveries.insert(row);
    return { outcome: 'skipped', record: row };
  }
  const sent = await send(deps, target, stored.event.event, input.deliveryId, publicPayload(stored.event));
  const row = record(deps, {
    ...base, event: stored.event.event, url: sent.target, statusCode: sent.statusCode, latencyMs: sent.latencyMs, error: sent.error, response: sent.response,
    outcome: sent.ok ? 'delivered' : 'failed', trigger,
  });
  await deps.notifications.deliveries.insert(row);
  return { outcome: row.outcome, record: row };
}

/**
 * Several deliveries of one channel in a row (the breaker workflow's activity), stopping at the
 * first failure so the breaker sees every failure. `done` are outcomes of an earlier try of this
 * same batch (a worker died mid-batch): those deliveries are not sent again.
 */
export async function deliverBatch(deps: NotificationDeps, input: { channelId: string; deliveries: Array<{ deliveryId: string; eventKey: string }> }, done: DeliveryOutcome[] = [], progress?: (outcomes: DeliveryOutcome[]) => void): Promise<DeliveryOutcome[]> {
  const outcomes = [...done];
  for (const d of input.deliveries.slice(outcomes.length)) {
    const { outcome } = await deliverToChannel(deps, { channelId: input.channelId, ...d });
    outcomes.push(outcome);
    progress?.(outcomes);
    if (outcome === 'failed') break;
  }
  return outcomes;
}

/** A delivery the open breaker skips: logged, not retried. */
export async function recordSkipped(deps: NotificationDeps, input: DeliverInput & { pausedUntil: string }): Promise<void> {
  const ref = parseChannelId(input.channelId);
  if (!ref) throw new Error(`not a channel id: ${input.channelId}`);
  const stored = await deps.notifications.outbox.find(input.eventKey);
  await deps.notifications.deliveries.insert(record(deps, {
    accountId: ref.accountId, deliveryId: input.deliveryId, eventKey: input.eventKey, channel: ref.kind,
    ...(ref.profileUsername ? { profileUsername: ref.profileUsername } : {}),
    event: stored?.event.event ?? 'unknown', url: null, statusCode: null, latencyMs: null,
    error: `skipped: the channel is paused until ${input.pausedUntil} after consecutive failed deliveries (circuit breaker)`, response: null,
    outcome: 'skipped', trigger: 'event',
  }));
}

// ---------------------------------------------------------------- the API's sends and the log

export interface AttemptView {
  attempt_id: string;
  delivery_id: string;
  event: string;
  channel: ChannelKind;
  profile_username?: string;
  url: string | null;
  status_code: number | null;
  latency_ms: number | null;
  error: string | null;
  response_body: string | null;
  outcome: DeliveryOutcome;
  trigger: DeliveryTrigger;
  created_at: string;
}

export function attemptView(r: DeliveryAttemptRecord): AttemptView {
  return {
    attempt_id: r.id, delivery_id: r.deliveryId, event: r.event, channel: r.channel, ...(r.profileUsername ? { profile_username: r.profileUsername } : {}),
    url: r.url, status_code: r.statusCode, latency_ms: r.latencyMs, error: r.error, response_body: r.response, outcome: r.outcome, trigger: r.trigger,
    created_at: r.createdAt.toISOString(),
  };
}

/** POST /users/notifications/test: a test event to every enabled channel of the account, now. */
export async function sendTestNotification(deps: NotificationDeps, account: OperatorAccount): Promise<AttemptView[]> {
  const settings = await settingsOf(deps, account.id);
  const kinds = (['webhook', 'telegram', 'slack'] as const).filter((k) => settings.channels[k]);
  if (!kinds.length) throw invalidInput('No notification channel is turned on: save a webhook_url, telegram_chat_id or slack_webhook_url first.', undefined, 'no_channel_enabled');
  const now = deps.clock.now();
  const payload = testPayload(account.email, now);
  const eventKey = `test:${account.id}:${deps.ids.next('t')}`;
  return Promise.all(kinds.map(async (kind) => {
    const ref: ChannelRef = { accountId: account.id, kind };
    const id = channelId(ref);
    const deliveryId = deps.crypto.deliveryId(eventKey, id);
    const target = await targetOf(deps, ref, settings);
    if (typeof target === 'string') throw new Error(target);
    const sent = await send(deps, target, 'test', deliveryId, payload);
    const row = record(deps, {
      accountId: account.id, deliveryId, eventKey, channel: kind, event: 'test', url: sent.target, statusCode: sent.statusCode, latencyMs: sent.latencyMs,
      error: sent.error, response: sent.response, outcome: sent.ok ? 'delivered' : 'failed', trigger: 'test',
    });
    await deps.notifications.deliveries.insert(row);
    return attemptView(row);
  }));
}

/** POST /users/notifications/deliveries/{id}/redeliver: the same event to the same channel, same delivery id, signed anew. */
export async function redeliver(deps: NotificationDeps, account: OperatorAccount, deliveryId: string): Promise<AttemptView> {
  const last = await deps.notifications.deliveries.latest(account.id, deliveryId);
  if (!last) throw notFound(`No delivery ${deliveryId} in the delivery log.`, 'DELIVERY_NOT_FOUND');
  if (last.trigger === 'test') throw invalidInput('A test delivery cannot be redelivered; send a new test instead.', undefined, 'not_redeliverable');
  const id = channelId({ accountId: account.id, kind: last.channel, ...(last.profileUsername ? { profileUsername: last.profileUsername } : {}) });
  const result = await deliverToChannel(deps, { channelId: id, deliveryId, eventKey: last.eventKey }, 'redelivery');
  return attemptView(result.record);
}

const OUTCOMES: readonly DeliveryOutcome[] = ['delivered', 'failed', 'skipped'];

function dateOf(value: unknown, field: string): Date | undefined {
  if (value === undefined || value === '') return undefined;
  const text = String(value);
  const date = /^\d+$/.test(text) ? new Date(Number(text) * 1000) : new Date(text);
  if (Number.isNaN(date.getTime())) throw invalidInput(`${field} must be an ISO-8601 date or Unix seconds.`, { violations: [{ field, message: 'invalid date' }] });
  return date;
}

/**
 * GET /users/notifications/deliveries: newest first, filtered, paginated. Page form (`page`,
 * `limit`) or cursor form (`cursor` = a previous page's `next_cursor`, with the same filters):
 * both read only the attempts of the page (docs/storage/lists.md).
 */
export async function listDeliveries(deps: NotificationDeps, account: OperatorAccount, query: Record<string, unknown>) {
  const intOf = (value: unknown, field: string, fallback: number, max: number) => {
    if (value === undefined || value === '') return fallback;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1 || n > max) throw invalidInput(`${field} must be an integer from 1 to ${max}.`, { violations: [{ field, message: 'out of range' }] });
    return n;
  };
  const page = intOf(query.page, 'page', 1, 100_000);
  const limit = intOf(query.limit, 'limit', 50, 100);
  const event = query.event === undefined || query.event === '' ? undefined : String(query.event);
  if (event && event !== 'test' && !(HERALD_EVENT_NAMES as readonly string[]).includes(event)) throw invalidInput(`event must be one of ${HERALD_EVENT_NAMES.join(', ')}, test.`, { violations: [{ field: 'event', message: 'unknown event' }] });
  const channel = query.channel === undefined || query.channel === '' ? undefined : String(query.channel);
  if (channel && !(CHANNEL_KINDS as readonly string[]).includes(channel)) throw invalidInput(`channel must be one of ${CHANNEL_KINDS.join(', ')}.`, { violations: [{ field: 'channel', message: 'unknown channel' }] });
  const outcome = query.outcome === undefined || query.outcome === '' ? undefined : String(query.outcome);
  if (outcome && !(OUTCOMES as readonly string[]).includes(outcome)) throw invalidInput(`outcome must be one of ${OUTCOMES.join(', ')}.`, { violations: [{ field: 'outcome', message: 'unknown outcome' }] });
  const since = dateOf(query.start ?? query.since, 'start');
  const until = dateOf(query.end ?? query.until, 'end');
  const deliveryId = query.delivery_id === undefined || query.delivery_id === '' ? undefined : String(query.delivery_id);
  const cursor = query.cursor === undefined || query.cursor === '' ? undefined : String(query.cursor);
  // A cursor belongs to its filters: sent with others it is a 400 invalid_cursor.
  const fingerprint = listFingerprint('deliveries', { event, channel, outcome, delivery_id: deliveryId, start: since, end: until });
  const after = cursor !== undefined ? decodePageCursor(cursor, fingerprint) : undefined;
  const { items, total, next } = await deps.notifications.deliveries.list({
    accountId: account.id, page, limit,
    ...(event ? { event } : {}), ...(channel ? { channel: channel as ChannelKind } : {}), ...(outcome ? { outcome: outcome as DeliveryOutcome } : {}),
    ...(since ? { since } : {}), ...(until ? { until } : {}), ...(deliveryId ? { deliveryId } : {}), ...(after ? { after } : {}),
  });
  return {
    deliveries: items.map(attemptView), page, limit, total, has_more: next !== undefined,
    next_cursor: next ? encodePageCursor(next, fingerprint) : null,
  };
}

/**
 * Periodic cleanup: delivery attempts past their expiry, and outbox events handed out longer than
 * the event retention ago. Both adapters delete hour by hour (no scan): a run removes a bounded
 * amount and the next run goes on.
 */
export async function cleanupNotifications(deps: Pick<NotificationDeps, 'notifications' | 'clock' | 'retentionMs' | 'eventRetentionMs'>): Promise<{ attempts: number; events: number }> {
  const now = deps.clock.now();
  const attempts = await deps.notifications.deliveries.deleteExpired(now);
  const events = await deps.notifications.outbox.deleteHandedBefore(new Date(now.getTime() - (deps.eventRetentionMs ?? deps.retentionMs)));
  return { attempts, events };
}
