/**
 * What Slack accepts from Herald's clients: the per-post fields of the text endpoint, and the
 * fields of `POST /users/slack/credentials`: a bot token plus a channel, or an incoming-webhook URL
 * (text only, no edit: Slack's webhooks return no message id).
 *
 * slack_title is not a setting: the engine folds it into post.title for every network.
 */
import type { SettingsSchema, SettingViolation } from '../../../core/domain/settings';
import { credentialField } from '../kit/credentials';

const BOT_TOKEN = /^xox[bp]-[A-Za-z0-9-]{10,250}$/;
const CHANNEL_ID = /^[CGD][A-Z0-9]{6,20}$/;
const THREAD_TS = /^\d{9,11}\.\d{6}$/;

/** The ids in an incoming webhook's path (`/services/T…/B…/<secret>`), undefined when it is not one. */
export function webhookPath(url: URL): { team: string; hook: string; path: string } | undefined {
  if (url.username || url.password || url.search) return undefined;
  const route = /^\/services\/(T[A-Z0-9]{4,20})\/(B[A-Z0-9]{4,20})\/([A-Za-z0-9]{8,64})\/?$/.exec(url.pathname);
  return route ? { team: route[1]!, hook: route[2]!, path: `/services/${route[1]}/${route[2]}/${route[3]}` } : undefined;
}

export const slackSettings: SettingsSchema = {
  fields: [
    { name: 'slack_unfurl_links', type: 'boolean', endpoints: ['text'], default: false, description: 'Let Slack unfurl links in the text (default false).' },
    { name: 'slack_unfurl_media', type: 'boolean', endpoints: ['text'], default: true, description: 'Let Slack unfurl media links (default true).' },
    { name: 'slack_mrkdwn', type: 'boolean', endpoints: ['text'], default: true, description: 'Read the text as Slack mrkdwn (default true); false posts it literally.' },
    { name: 'slack_thread_ts', type: 'string', endpoints: ['text'], description: 'Reply in the thread of this message timestamp (such as 1700000000.123456).' },
    { name: 'slack_reply_broadcast', type: 'boolean', endpoints: ['text'], default: false, description: 'With slack_thread_ts: also show the reply in the channel.' },
  ],
  check(values) {
    const violations: SettingViolation[] = [];
    if (typeof values.slack_thread_ts === 'string' && !THREAD_TS.test(values.slack_thread_ts)) {
      violations.push({ field: 'slack_thread_ts', message: 'slack_thread_ts must be a Slack message timestamp such as 1700000000.123456' });
    }
    if (values.slack_reply_broadcast === true && values.slack_thread_ts === undefined) {
      violations.push({ field: 'slack_reply_broadcast', message: 'slack_reply_broadcast needs slack_thread_ts' });
    }
    return violations;
  },
};

export const slackCredentialFields: SettingsSchema = {
  fields: [
    credentialField({
      name: 'bot_token', type: 'string',
      description: 'A bot token (xoxb-…) of a Slack app with the chat:write scope (OAuth & Permissions → Bot User OAuth Token); with channel_id.',
    }),
    credentialField({
      name: 'channel_id', type: 'string', aliases: ['channel'],
      description: 'The id of the channel to post to, such as C0123456789 (channel details → About); the app must be in it. With bot_token.',
    }),
    credentialField({
      name: 'webhook_url', type: 'url',
      description: 'Instead of bot_token and channel_id: an incoming webhook URL such as https://hooks.slack.com/services/T…/B…/… (text posts only, no edits).',
    }),
    credentialField({ name: 'name', type: 'string', description: 'The display name of the connection; default: the channel\'s name.' }),
  ],
  check(values) {
    const violations: SettingViolation[] = [];
    const bot = values.bot_token !== undefined || values.channel_id !== undefined;
    if (values.webhook_url !== undefined && bot) {
      violations.push({ field: 'webhook_url', message: 'give either webhook_url or bot_token with channel_id, not both' });
      return violations;
    }
    if (values.webhook_url === undefined && !bot) {
      violations.push({ field: 'bot_token', message: 'bot_token and channel_id (or webhook_url) are required' });
      return violations;
    }
    if (typeof values.webhook_url === 'string' && !webhookPath(new URL(values.webhook_url))) {
      violations.push({ field: 'webhook_url', message: 'webhook_url must be a Slack incoming webhook URL' });
    }
    if (bot) {
      if (typeof values.bot_token !== 'string' || !BOT_TOKEN.test(values.bot_token.trim())) violations.push({ field: 'bot_token', message: 'bot_token must be a Slack bot token (xoxb-…)' });
      if (typeof values.channel_id !== 'string' || !CHANNEL_ID.test(values.channel_id.trim())) violations.push({ field: 'channel_id', message: 'channel_id must be a Slack channel id such as C0123456789' });
    }
    if (typeof values.name === 'string' && values.name.trim() === '') violations.push({ field: 'name', message: 'name must not be blank' });
    return violations;
  },
};
