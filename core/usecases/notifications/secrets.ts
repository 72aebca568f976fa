import type { NotificationSettings } from '../../domain/notifications';
import { SEALED_FIELDS } from '../../domain/sealed-fields';
import type { SecretBox } from '../../ports/system';

/**
 * The sealed fields of an account's notification settings: the webhook signing secret and the
 * Slack incoming-webhook URL, each bound to the account's settings (docs/security/at-rest.md).
 */
type WithSecrets = { secrets: SecretBox };

export function webhookSecretOf(deps: WithSecrets, s: NotificationSettings): string | null {
  return s.sealedWebhookSecret ? deps.secrets.open(s.sealedWebhookSecret, SEALED_FIELDS.webhookSecret(s.accountId)) : null;
}

export const sealWebhookSecret = (deps: WithSecrets, accountId: string, secret: string): string =>
  deps.secrets.seal(secret, SEALED_FIELDS.webhookSecret(accountId));

/** The Slack URL deliveries go to: sealed, or in plain text as releases before issue 26 stored it. */
export function slackUrlOf(deps: WithSecrets, s: NotificationSettings): string | null {
  return s.sealedSlackWebhookUrl ? deps.secrets.open(s.sealedSlackWebhookUrl, SEALED_FIELDS.slackWebhookUrl(s.accountId)) : s.slackWebhookUrl ?? null;
}

/** Whether a Slack URL is stored, without opening it. */
export const hasSlackUrl = (s: NotificationSettings): boolean => Boolean(s.sealedSlackWebhookUrl || s.slackWebhookUrl);

/** The settings with this Slack URL (null: none) sealed; the plain field of older releases is dropped. */
export function withSlackUrl(deps: WithSecrets, s: NotificationSettings, url: string | null): NotificationSettings {
  const { slackWebhookUrl: plain, ...rest } = s;
  void plain;
  return { ...rest, sealedSlackWebhookUrl: url === null ? null : deps.secrets.seal(url, SEALED_FIELDS.slackWebhookUrl(s.accountId)) };
}

/**
 * The settings as they are stored: what an older release left (the Slack URL in plain text, a
 * value sealed unbound) is sealed bound, so every save of an account's settings migrates them.
 */
export function sealedForSave(deps: WithSecrets, s: NotificationSettings): NotificationSettings {
  const unbound = (sealed: string | null | undefined) => Boolean(sealed && deps.secrets.isUnbound(sealed));
  let out = s;
  if (s.slackWebhookUrl !== undefined || unbound(s.sealedSlackWebhookUrl)) out = withSlackUrl(deps, out, slackUrlOf(deps, s));
  if (unbound(s.sealedWebhookSecret)) out = { ...out, sealedWebhookSecret: sealWebhookSecret(deps, s.accountId, webhookSecretOf(deps, s)!) };
  return out;
}
