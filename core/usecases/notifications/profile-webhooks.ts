import { invalidInput } from '../../domain/errors';
import { channelId, filterView, type ProfileWebhook } from '../../domain/notifications';
import type { OperatorAccount } from '../../domain/operator';
import type { HeraldEventName } from '../../ports/notifications';
import { requireProfile } from '../profiles';
import type { NotificationDeps } from './deps';
import { ensureSecret, MAX_URL, optionalText, parseEventFilter, saveSettings, settingsOf } from './settings';

/** A profile's own webhook: its address and event filter, signed with the account's secret. */

export interface ProfileWebhookView {
  profile_username: string;
  webhook_url: string | null;
  /** null = every event. */
  webhook_events: Record<HeraldEventName, boolean> | null;
}

export function profileOf(value: unknown): string {
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
