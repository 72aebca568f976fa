import type { HeraldEvent, HeraldEventName } from '../ports/notifications';
import { HERALD_EVENT_NAMES } from '../ports/notifications';

/**
 * Notification settings of one operator account (the spec's "Notification settings" resource),
 * the per-profile webhooks, and what is sent: the public payload of each event (exactly the
 * spec's fields, never internal ones such as `account_id`) and the readable chat message.
 */

/** Which events pass; `null` = every event (the spec: omitted means all). */
export type EventFilter = Record<HeraldEventName, boolean> | null;

export interface NotificationSettings {
  accountId: string;
  channels: { webhook: boolean; telegram: boolean; slack: boolean };
  webhookUrl: string | null;
  telegramChatId: string | null;
  /** The Slack incoming-webhook URL, sealed (SecretBox): the URL is the credential of the channel. */
  sealedSlackWebhookUrl: string | null;
  /** Before issue 26 the Slack URL was stored in plain text under this name: still read, dropped by the next save. */
  slackWebhookUrl?: string | null;
  /** The signing secret, sealed (SecretBox); created the first time a webhook URL is saved. */
  sealedWebhookSecret: string | null;
  webhookEvents: EventFilter;
  updatedAt: Date;
}

/** A profile's own webhook, in addition to the account's, signed with the account's secret. */
export interface ProfileWebhook {
  accountId: string;
  profileUsername: string;
  webhookUrl: string;
  webhookEvents: EventFilter;
  updatedAt: Date;
}

export function defaultNotificationSettings(accountId: string, now: Date): NotificationSettings {
  return {
    accountId,
    channels: { webhook: false, telegram: false, slack: false },
    webhookUrl: null,
    telegramChatId: null,
    sealedSlackWebhookUrl: null,
    sealedWebhookSecret: null,
    webhookEvents: null,
    updatedAt: now,
  };
}

/**
 * A Slack incoming-webhook URL as the API and the delivery log show it. Whoever has the URL posts
 * to the channel, so only a prefix that names no secret is kept: the origin, the first path
 * segment and the first character of the second (Slack's `T` of the workspace id), each later
 * segment shown as `…` and the last as `****`: `https://hooks.slack.com/services/T…/…/****`.
 * Query and fragment are dropped. Never a working URL, so sending it back means "unchanged".
 */
export function maskedSlackUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return '****';
  }
  const segments = url.pathname.split('/').filter(Boolean);
  const kept = segments.slice(0, -1).map((segment, i) => (i === 0 ? segment : i === 1 ? `${segment[0]}…` : '…'));
  return [url.origin, ...kept, '****'].join('/');
}

/** The filter as the API shows it: every event named, true unless turned off. */
export function filterView(filter: EventFilter): Record<HeraldEventName, boolean> {
  return Object.fromEntries(HERALD_EVENT_NAMES.map((name) => [name, filter ? filter[name] !== false : true])) as Record<HeraldEventName, boolean>;
}

export function filterLets(filter: EventFilter, event: HeraldEventName): boolean {
  return !filter || filter[event] !== false;
}

/** The kinds of channel; a profile webhook is a webhook of one profile. */
export type ChannelKind = 'webhook' | 'profile_webhook' | 'telegram' | 'slack';
export const CHANNEL_KINDS: readonly ChannelKind[] = ['webhook', 'profile_webhook', 'telegram', 'slack'];

/**
 * One channel of one account: the unit of the circuit breaker (workflow `webhook:<channel id>`).
 * Id: `<account id>:webhook`, `<account id>:telegram`, `<account id>:slack`,
 * `<account id>:profile:<username>`.
 */
export interface ChannelRef {
  accountId: string;
  kind: ChannelKind;
  profileUsername?: string;
}

export function channelId(ref: ChannelRef): string {
  return ref.kind === 'profile_webhook' ? `${ref.accountId}:profile:${ref.profileUsername}` : `${ref.accountId}:${ref.kind}`;
}

export function parseChannelId(id: string): ChannelRef | null {
  const profile = /^([^:]+):profile:(.+)$/.exec(id);
  if (profile) return { accountId: profile[1]!, kind: 'profile_webhook', profileUsername: profile[2]! };
  const plain = /^([^:]+):(webhook|telegram|slack)$/.exec(id);
  return plain ? { accountId: plain[1]!, kind: plain[2] as ChannelKind } : null;
}

/** The body a receiver gets: the spec's payload fields only, in the spec's order. */
export type PublicPayload = Record<string, unknown>;

export function publicPayload(event: HeraldEvent): PublicPayload {
  if (event.event === 'upload_completed') {
    return {
      event: event.event,
      ...(event.job_id ? { job_id: event.job_id } : {}),
      user_email: event.user_email,
      profile_username: event.profile_username,
      platform: event.platform,
      media_type: event.media_type,
      title: event.title,
      caption: event.caption,
      result: {
        success: event.result.success,
        url: event.result.url,
        publish_id: event.result.publish_id,
        post_id: event.result.post_id,
        error: event.result.success ? null : event.result.error,
      },
      created_at: event.created_at,
    };
  }
  return {
    event: event.event,
    user_email: event.user_email,
    platform: event.platform,
    account_name: event.account_name,
    status: event.status,
    ...(event.profile_username ? { profile_username: event.profile_username } : {}),
    ...(event.event !== 'social_account_connected' ? { reason: event.reason } : {}),
    created_at: event.created_at,
  };
}

/** The test event of `POST /users/notifications/test` (not one of the spec's four). */
export function testPayload(userEmail: string, now: Date): PublicPayload {
  return { event: 'test', user_email: userEmail, message: 'Test notification from Herald: this channel is set up correctly.', created_at: now.toISOString() };
}

/** The event as a short readable message for chat channels (Telegram, Slack). */
export function chatText(payload: PublicPayload): string {
  const p = payload as Record<string, any>;
  const who = p.profile_username ? ` (profile ${p.profile_username})` : '';
  switch (p.event) {
    case 'upload_completed': {
      const r = p.result ?? {};
      const head = r.success ? `✅ Published to ${p.platform}${who}` : `❌ Publishing to ${p.platform} failed${who}`;
      const lines = [head, p.title ? `“${String(p.title).slice(0, 300)}”` : '', r.success ? (r.url ?? '') : `Error: ${r.error ?? 'unknown'}`];
      if (p.job_id) lines.push(`Job ${p.job_id}`);
      return lines.filter(Boolean).join('\n');
    }
    case 'social_account_connected':
      return `🔗 ${p.platform} account ${p.account_name} connected${who}`;
    case 'social_account_disconnected':
      return `⛓️‍💥 ${p.platform} account ${p.account_name} disconnected${who}: ${p.reason}`;
    case 'social_account_reauth_required':
      return `⚠️ ${p.platform} account ${p.account_name} needs to be reconnected${who}: ${p.reason}`;
    default:
      return `🔔 ${String(p.message ?? p.event)}`;
  }
}

/** The event a channel may receive: profile webhooks only see their profile's events. */
export function channelWants(ref: ChannelRef, event: HeraldEvent, filter: EventFilter): boolean {
  if (ref.kind === 'profile_webhook' && event.profile_username !== ref.profileUsername) return false;
  return filterLets(filter, event.event);
}
