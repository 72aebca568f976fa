import { z } from 'zod';
import { CHANNEL_KINDS } from '../../../core/domain/notifications';
import { HERALD_EVENT_NAMES } from '../../../core/ports/notifications';
import { notFound } from '../../../core/domain/errors';
import { MAX_URL, optionalText, parseChannels, parseEventFilter } from '../../../core/usecases/notifications/settings';
import { profileOf } from '../../../core/usecases/notifications/profile-webhooks';
import { DELIVERY_FILTERS } from '../../../core/usecases/notifications/delivery-log';
import { operation, queryRuledBy, ruledBy } from './types';
import { ok, ProfileUsername } from './common';

/** Webhook and chat notifications: settings, the per-profile webhook, test sends, the delivery log. */

const EVENTS = HERALD_EVENT_NAMES as unknown as [string, ...string[]];
const ACCOUNT_ONLY = ' Only the account\'s own API key may call it (403 for a connect-page session).';
const EventFilter = z.partialRecord(z.enum(EVENTS), z.boolean()).describe(`Events to send, by name (${HERALD_EVENT_NAMES.join(', ')}); omitted = all.`);
const Notifications = z.object({
  channels: z.object({ webhook: z.boolean(), telegram: z.boolean(), slack: z.boolean() }),
  webhook_url: z.string().nullable(),
  telegram_chat_id: z.string().nullable(),
  slack_webhook_url: z.string().nullable().describe('Masked, the URL being the channel\'s credential: origin, first path segment and the first character of the second, e.g. https://hooks.slack.com/services/T…/…/****. Sending it back unchanged keeps the stored URL.'),
  webhook_secret: z.string().nullable().describe('Signing secret of the webhook (created with the first webhook_url).'),
  webhook_events: EventFilter,
});
const ProfileWebhook = ok({ profile_username: z.string(), webhook_url: z.string().nullable(), webhook_events: EventFilter.nullable().describe('null: every event.') });
const Attempt = z.object({
  attempt_id: z.string(), delivery_id: z.string(), event: z.string(), channel: z.enum(CHANNEL_KINDS as [string, ...string[]]), profile_username: z.string().optional(),
  url: z.string().nullable(), status_code: z.number().nullable(), latency_ms: z.number().nullable(), error: z.string().nullable(), response_body: z.string().nullable(),
  outcome: z.enum(['delivered', 'failed', 'skipped']), trigger: z.string(), created_at: z.string(),
});
const FORBIDDEN = { 403: 'Not the account\'s own credential.' } as const;

export const getNotifications = operation({
  id: 'getNotifications', method: 'get', path: '/svc/users/notifications', tags: ['notifications'],
  summary: 'Notification settings',
  description: `The account's notification channels (webhook, telegram, slack), their addresses, the webhook signing secret and the event filter.${ACCOUNT_ONLY}`,
  auth: 'apiKey',
  responses: { 200: { description: 'Settings.', schema: ok({ notifications: Notifications }) } },
  errors: FORBIDDEN,
});

export const saveNotifications = operation({
  id: 'saveNotifications', method: 'post', path: '/svc/users/notifications', tags: ['notifications'],
  summary: 'Save notification settings',
  description: `Sets the webhook URL (checked: public http(s) only), telegram chat, slack webhook (stored sealed; reads show it masked, and the masked value sent back keeps it), channels on/off and the event filter; omitted fields stay. The signing secret is created with the first webhook_url. Errors: 400 naming the field.${ACCOUNT_ONLY}`,
  auth: 'apiKey',
  body: z.looseObject({
    // Whether an address is public (SSRF rules) and a chat id's form are the core's (core/usecases/notifications/settings.ts).
    webhook_url: ruledBy((_, all) => optionalText(all, 'webhook_url', MAX_URL), z.string().nullable().optional().describe('A public http(s) URL; null clears it.')),
    telegram_chat_id: ruledBy((_, all) => optionalText(all, 'telegram_chat_id', 200), z.string().nullable().optional().describe('A numeric chat id or a public @username; null clears it.')),
    slack_webhook_url: ruledBy((_, all) => optionalText(all, 'slack_webhook_url', MAX_URL), z.string().nullable().optional().describe('A Slack incoming-webhook URL; null clears it.')),
    channels: ruledBy(parseChannels, z.object({ webhook: z.boolean().optional(), telegram: z.boolean().optional(), slack: z.boolean().optional() }).optional()),
    webhook_events: ruledBy((v) => parseEventFilter(v), z.union([EventFilter, z.array(z.enum(EVENTS))]).nullable().optional().describe('Object of event names to booleans (a name left out stays on), or the list of the events wanted (the others off); omitted or null = all.')),
  }),
  responses: { 200: { description: 'The saved settings.', schema: ok({ notifications: Notifications }) } },
  errors: { 400: 'A field is invalid (named).', ...FORBIDDEN },
});

export const deleteNotifications = operation({
  id: 'deleteNotifications', method: 'delete', path: '/svc/users/notifications', tags: ['notifications'],
  summary: 'Remove the webhook',
  description: `Clears webhook_url, webhook_events and the secret and turns the webhook channel off; telegram and slack stay.${ACCOUNT_ONLY}`,
  auth: 'apiKey',
  responses: { 200: { description: 'The settings after.', schema: ok({ notifications: Notifications }) } },
  errors: FORBIDDEN,
});

export const rotateWebhookSecret = operation({
  id: 'rotateWebhookSecret', method: 'post', path: '/svc/users/webhook-secret', tags: ['notifications'],
  summary: 'Rotate the webhook secret',
  description: `A new signing secret, effective immediately.${ACCOUNT_ONLY}`,
  auth: 'apiKey',
  responses: { 200: { description: 'The new secret.', schema: ok({ webhook_secret: z.string() }) } },
  errors: { 400: 'No webhook is configured.', ...FORBIDDEN },
});

export const getProfileWebhook = operation({
  id: 'getProfileWebhook', method: 'get', path: '/svc/users/profile-webhook', tags: ['notifications'],
  summary: 'Webhook of a profile',
  description: `The extra webhook of one profile (events of that profile only, signed with the account secret).${ACCOUNT_ONLY}`,
  auth: 'apiKey',
  query: z.object({ profile_username: ruledBy(profileOf, ProfileUsername) }),
  responses: { 200: { description: 'The profile webhook.', schema: ProfileWebhook } },
  errors: { 400: 'profile_username is required.', 404: 'PROFILE_NOT_FOUND.', ...FORBIDDEN },
});

export const saveProfileWebhook = operation({
  id: 'saveProfileWebhook', method: 'post', path: '/svc/users/profile-webhook', tags: ['notifications'],
  summary: 'Set the webhook of a profile',
  description: `Sets a profile's webhook (in addition to the account webhook).${ACCOUNT_ONLY}`,
  auth: 'apiKey',
  body: z.looseObject({
    profile_username: ruledBy(profileOf, ProfileUsername),
    webhook_url: ruledBy((_, all) => optionalText(all, 'webhook_url', MAX_URL), z.string({ error: 'webhook_url is required.' }).describe('A public http(s) URL.')),
    webhook_events: ruledBy((v) => parseEventFilter(v), z.union([EventFilter, z.array(z.enum(EVENTS))]).nullable().optional().describe('An object of event names to booleans or a list of the events wanted; omitted = all events, null = reset.')),
  }),
  responses: { 200: { description: 'The profile webhook.', schema: ProfileWebhook } },
  errors: { 400: 'A field is invalid (named).', 404: 'PROFILE_NOT_FOUND.', ...FORBIDDEN },
});

export const deleteProfileWebhook = operation({
  id: 'deleteProfileWebhook', method: 'delete', path: '/svc/users/profile-webhook', tags: ['notifications'],
  summary: 'Remove the webhook of a profile',
  description: `Removes a profile's webhook (body or query profile_username).${ACCOUNT_ONLY}`,
  auth: 'apiKey',
  query: z.object({ profile_username: ProfileUsername.optional() }),
  body: z.looseObject({ profile_username: ProfileUsername.optional() }),
  responses: { 200: { description: 'Removed.', schema: ProfileWebhook } },
  errors: { 400: 'profile_username is required.', 404: 'PROFILE_NOT_FOUND.', ...FORBIDDEN },
});

export const sendTestNotification = operation({
  id: 'sendTestNotification', method: 'post', path: '/svc/users/notifications/test', tags: ['notifications'],
  summary: 'Send a test notification',
  description: `Sends a test event to every channel that is on, now, and returns each attempt (status code, latency, response). Errors: 400 \`no_channel_enabled\`.${ACCOUNT_ONLY}`,
  auth: 'apiKey',
  responses: { 200: { description: 'One attempt per channel.', schema: ok({ all_delivered: z.boolean(), results: z.array(Attempt) }) } },
  errors: { 400: 'no_channel_enabled.', ...FORBIDDEN },
});

export const listDeliveries = operation({
  id: 'listDeliveries', method: 'get', path: '/svc/users/notifications/deliveries', tags: ['notifications'],
  summary: 'Delivery log',
  description: 'Delivery attempts of notifications, newest first, filtered by event, channel, outcome, date or delivery_id. Use to see why a webhook did not arrive. '
    + 'Page by `page` or, to walk the whole log, by `cursor` = the previous page\'s `next_cursor` (null on the last page) with the same filters: both cost the same on any page. '
    + `Attempts are kept for the deployment's retention (30 days by default). Errors: 400 naming the filter, 400 \`invalid_cursor\`.${ACCOUNT_ONLY}`,
  auth: 'apiKey',
  query: z.object({
    // Each filter as the delivery log reads it (core/usecases/notifications/delivery-log.ts).
    page: queryRuledBy(DELIVERY_FILTERS.page, 'Page, from 1 (ignored with cursor).'),
    limit: queryRuledBy(DELIVERY_FILTERS.limit, '1-100, default 50.'),
    event: queryRuledBy(DELIVERY_FILTERS.event, `One of ${HERALD_EVENT_NAMES.join(', ')}, test.`),
    channel: queryRuledBy(DELIVERY_FILTERS.channel, `One of ${CHANNEL_KINDS.join(', ')}.`),
    outcome: queryRuledBy(DELIVERY_FILTERS.outcome, 'delivered, failed or skipped.'),
    start: queryRuledBy(DELIVERY_FILTERS.start, 'ISO-8601 or Unix seconds (alias since).'),
    since: queryRuledBy(DELIVERY_FILTERS.start, 'Alias of start.'),
    end: queryRuledBy(DELIVERY_FILTERS.end, 'ISO-8601 or Unix seconds (alias until).'),
    until: queryRuledBy(DELIVERY_FILTERS.end, 'Alias of end.'),
    delivery_id: z.string().optional(),
    cursor: z.string().optional().describe('Cursor form: the next_cursor of the previous page, sent with the same filters (page is then ignored); other filters answer 400 invalid_cursor.'),
  }),
  responses: {
    200: {
      description: 'One page of attempts.',
      schema: ok({
        deliveries: z.array(Attempt), page: z.number(), limit: z.number(), total: z.number().describe('Attempts matching the filters.'), has_more: z.boolean(),
        next_cursor: z.string().nullable().describe('The cursor of the next page (send it as cursor); null on the last page.'),
      }),
    },
  },
  errors: { 400: 'A filter is invalid (named), or invalid_cursor.', ...FORBIDDEN },
});

export const redeliverNotification = operation({
  id: 'redeliverNotification', method: 'post', path: '/svc/users/notifications/deliveries/{delivery_id}/redeliver', tags: ['notifications'],
  summary: 'Redeliver a notification',
  description: `Sends one delivery of the log again, now, and returns the attempt. Errors: 404 \`DELIVERY_NOT_FOUND\`.${ACCOUNT_ONLY}`,
  auth: 'apiKey',
  params: z.object({
    delivery_id: ruledBy((id) => {
      if (typeof id !== 'string' || !/^dlv_[0-9a-f]{32}$/.test(id)) throw notFound(`No delivery ${String(id).slice(0, 64)} in the delivery log.`, 'DELIVERY_NOT_FOUND');
      return id;
    }, z.string().regex(/^dlv_[0-9a-f]{32}$/).describe('dlv_ and 32 hex digits, from listDeliveries.')),
  }),
  responses: { 200: { description: 'The attempt.', schema: ok({ delivered: z.boolean(), attempt: Attempt }) } },
  errors: { 404: 'DELIVERY_NOT_FOUND.', ...FORBIDDEN },
});

export const notificationOperations = [
  getNotifications, saveNotifications, deleteNotifications, rotateWebhookSecret, getProfileWebhook, saveProfileWebhook, deleteProfileWebhook,
  sendTestNotification, listDeliveries, redeliverNotification,
];
