/**
 * What Discord accepts from Herald's clients: the per-post fields of Execute Webhook
 * (docs.discord.com/developers/resources/webhook#execute-webhook) and the fields of
 * `POST /users/discord/credentials` (a channel webhook's URL and an optional display name).
 * `discord_title` is not here: the engine folds `<platform>_title` into the post text.
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

const ALL = ['text', 'photo', 'video'] as const;
const MEDIA = ['photo', 'video'] as const;
/** Discord's attachment `description` (alt text) limit. */
export const DISCORD_ALT_TEXT_MAX = 1024;

export const discordSettings: SettingsSchema = {
  fields: [
    { name: 'discord_username', type: 'string', endpoints: ALL, maxLength: 80,
      description: "Overrides the webhook's name on this message (1-80 characters; Discord refuses names containing \"discord\" or \"clyde\")." },
    { name: 'discord_avatar_url', type: 'url', endpoints: ALL, description: "Overrides the webhook's avatar on this message." },
    { name: 'discord_thread_name', type: 'string', endpoints: ALL, maxLength: 100, description: 'Forum and media channels: the name of the thread (post) the message starts.' },
    { name: 'discord_silent', type: 'boolean', endpoints: ALL, default: false, description: 'Send without push and desktop notifications (SUPPRESS_NOTIFICATIONS).' },
    { name: 'discord_suppress_embeds', type: 'boolean', endpoints: ALL, default: false, description: 'No link previews under the message (SUPPRESS_EMBEDS).' },
    { name: 'discord_spoiler', type: 'boolean', endpoints: MEDIA, default: false, description: 'Blur the attachments until clicked (SPOILER_ file names).' },
    { name: 'discord_alt_text', type: 'string_list', endpoints: MEDIA, maxLength: 10, separator: '||',
      description: `Alt text per attachment, in order: repeated field, JSON array or "||"-separated; each at most ${DISCORD_ALT_TEXT_MAX} characters.` },
  ],
  check(values, ctx) {
    const violations: SettingViolation[] = [];
    const username = values.discord_username;
    if (typeof username === 'string' && (username.trim() === '' || /discord|clyde/i.test(username))) {
      violations.push({ field: 'discord_username', message: 'discord_username must not be blank nor contain "discord" or "clyde" (Discord refuses such names)' });
    }
    const alt = Array.isArray(values.discord_alt_text) ? values.discord_alt_text as string[] : [];
    if (alt.length > ctx.mediaCount) violations.push({ field: 'discord_alt_text', message: `discord_alt_text has ${alt.length} entries for ${ctx.mediaCount} attachments` });
    if (alt.some((a) => [...a].length > DISCORD_ALT_TEXT_MAX)) violations.push({ field: 'discord_alt_text', message: `each discord_alt_text is at most ${DISCORD_ALT_TEXT_MAX} characters` });
    return violations;
  },
};

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
