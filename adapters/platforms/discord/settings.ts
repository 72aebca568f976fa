/**
 * What Discord accepts from Herald's clients: no per-post settings yet, and the fields of
 * `POST /users/discord/credentials` (a channel webhook's URL and an optional display name).
 */
import type { SettingsSchema, SettingViolation } from '../../../core/domain/settings';
import { credentialField } from '../kit/credentials';
import type { WebhookRef } from './client';

/**
 * The id and token in a webhook URL's path (`/api[/v<n>]/webhooks/<id>/<token>`), undefined when it
 * is not one. Which hosts may serve it is configuration, judged by the connector.
 */
export function webhookRoute(url: URL): WebhookRef | undefined {
  if (url.username || url.password) return undefined;
  const route = /^\/api(?:\/v\d+)?\/webhooks\/(\d{1,20})\/([A-Za-z0-9_-]{1,100})\/?$/.exec(url.pathname);
  return route ? { id: route[1]!, token: route[2]! } : undefined;
}

export const discordCredentialFields: SettingsSchema = {
  fields: [
    credentialField({
      name: 'webhook_url', type: 'url', required: true,
      description: 'The channel webhook\'s URL, such as https://discord.com/api/webhooks/<id>/<token> '
        + '(Server Settings → Integrations → Webhooks → Copy Webhook URL).',
    }),
    credentialField({ name: 'name', type: 'string', description: 'The display name of the connection; default: the webhook\'s name.' }),
  ],
  check(values) {
    const violations: SettingViolation[] = [];
    if (typeof values.webhook_url === 'string' && !webhookRoute(new URL(values.webhook_url))) {
      violations.push({ field: 'webhook_url', message: 'webhook_url must be a Discord webhook URL' });
    }
    if (typeof values.name === 'string' && values.name.trim() === '') violations.push({ field: 'name', message: 'name must not be blank' });
    return violations;
  },
};
