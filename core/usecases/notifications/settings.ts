import { invalidInput } from '../../domain/errors';
import { channelId, defaultNotificationSettings, filterView, maskedSlackUrl, type ChannelKind, type EventFilter, type NotificationSettings } from '../../domain/notifications';
import type { OperatorAccount } from '../../domain/operator';
import { HERALD_EVENT_NAMES, type HeraldEventName } from '../../ports/notifications';
import type { NotificationDeps } from './deps';
import { sealedForSave, sealWebhookSecret, slackUrlOf, webhookSecretOf, withSlackUrl } from './secrets';

/** The account's notification settings: its webhook, Telegram and Slack channels, the event filter and the signing secret. */

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

export async function settingsOf(deps: Pick<NotificationDeps, 'notifications' | 'clock'>, accountId: string): Promise<NotificationSettings> {
  return (await deps.notifications.settings.get(accountId)) ?? defaultNotificationSettings(accountId, deps.clock.now());
}

/** Every save seals what an older release left unsealed or unbound (secrets.ts). */
export const saveSettings = (deps: Pick<NotificationDeps, 'notifications' | 'secrets'>, s: NotificationSettings): Promise<void> =>
  deps.notifications.settings.save(sealedForSave(deps, s));

export async function getNotifications(deps: NotificationDeps, account: OperatorAccount): Promise<NotificationsView> {
  return view(deps, await settingsOf(deps, account.id));
}

export const MAX_URL = 2048;

export function optionalText(input: Record<string, unknown>, field: string, max: number): string | null | undefined {
  if (!(field in input)) return undefined;
  const value = input[field];
  if (value === null || value === '') return null;
  if (typeof value !== 'string' || value.length > max) throw invalidInput(`${field} must be a string of at most ${max} characters.`, { violations: [{ field, message: 'invalid' }] });
  return value.trim();
}

export function optionalBoolean(value: unknown, field: string): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'boolean') return value;
  if (value === 'true' || value === '1') return true;
  if (value === 'false' || value === '0') return false;
  throw invalidInput(`${field} must be true or false.`, { violations: [{ field, message: 'must be a boolean' }] });
}

/**
 * `webhook_events`: an object of the four event names (booleans; a name left out stays on), or
 * the list of the events wanted (the commercial API's clients send `['upload_completed']`: the
 * others are off); omitted (or null) = every event.
 */
export function parseEventFilter(value: unknown, field = 'webhook_events'): EventFilter {
  if (value === undefined || value === null) return null;
  const known = (name: unknown, at: string): name is HeraldEventName => {
    if (typeof name === 'string' && (HERALD_EVENT_NAMES as readonly string[]).includes(name)) return true;
    throw invalidInput(`${at} is not an event; events: ${HERALD_EVENT_NAMES.join(', ')}.`, { violations: [{ field: at, message: 'unknown event' }] });
  };
  if (Array.isArray(value)) {
    const filter = filterView(null);
    for (const name of HERALD_EVENT_NAMES) filter[name] = false;
    value.forEach((name, i) => { if (known(name, `${field}[${i}]`)) filter[name] = true; });
    return filter;
  }
  if (typeof value !== 'object') {
    throw invalidInput(`${field} must be an object of event names (${HERALD_EVENT_NAMES.join(', ')}) to true or false, or a list of event names.`, { violations: [{ field, message: 'must be an object or a list' }] });
  }
  const filter = filterView(null);
  for (const [name, on] of Object.entries(value as Record<string, unknown>)) {
    if (known(name, `${field}.${name}`)) filter[name] = optionalBoolean(on, `${field}.${name}`) ?? true;
  }
  return filter;
}

type AddressChannel = 'webhook' | 'telegram' | 'slack';

/** `channels`: an object of webhook, telegram and slack to booleans (undefined: unchanged). */
export function parseChannels(channels: unknown): Partial<Record<AddressChannel, boolean | undefined>> | undefined {
  if (channels === undefined || channels === null) return undefined;
  if (typeof channels !== 'object' || Array.isArray(channels)) throw invalidInput('channels must be an object {webhook, telegram, slack} of booleans.', { violations: [{ field: 'channels', message: 'must be an object' }] });
  const parsed: Partial<Record<AddressChannel, boolean | undefined>> = {};
  for (const [name, on] of Object.entries(channels as Record<string, unknown>)) {
    if (name !== 'webhook' && name !== 'telegram' && name !== 'slack') {
      throw invalidInput(`channels.${name} is not a channel; channels: webhook, telegram, slack.`, { violations: [{ field: `channels.${name}`, message: 'unknown channel' }] });
    }
    parsed[name] = optionalBoolean(on, `channels.${name}`);
  }
  return parsed;
}

/** The signing secret, created the first time an address needs one. */
export async function ensureSecret(deps: NotificationDeps, s: NotificationSettings): Promise<NotificationSettings> {
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
  for (const [name, on] of Object.entries(parseChannels(input.channels) ?? {})) next.channels[name as AddressChannel] = on ?? next.channels[name as AddressChannel];
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
