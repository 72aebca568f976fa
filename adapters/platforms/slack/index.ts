/**
 * Slack (api.slack.com): a bot token and a channel (auth.test + conversations.info to connect,
 * chat.postMessage to publish, chat.update / chat.delete to edit and remove), or an incoming
 * webhook for text only. Plain HTTP: the Web API is JSON and form posts.
 */
import type { PlatformAdapter } from '../../../core/ports/platform';
import { hostList, httpUrl } from '../kit/env';
import { systemNow } from '../kit/http';
import { defineNetwork, type CommonOptions } from '../kit/network';
import { createSlackClient, DEFAULT_TIMEOUT_MS, SLACK_API_BASE, SLACK_WEBHOOK_BASE } from './client';
import { createSlackConnector } from './connect';
import { slackDescriptor } from './descriptor';
import { createSlackPostEditor } from './posts';
import { createSlackPublisher } from './publish';

export { mapSlackFailure, SLACK_API_BASE, SLACK_WEBHOOK_BASE, type SlackOutcome } from './client';
export { slackDescriptor } from './descriptor';
export { slackCredentialFields, slackSettings, webhookPath } from './settings';

/** Hosts Slack hands out incoming webhook URLs on. */
export const SLACK_WEBHOOK_HOSTS: readonly string[] = ['hooks.slack.com'];

export interface SlackPlatformOptions extends CommonOptions {
  /** Default https://slack.com/api; a simulator's base URL in tests and the sandbox. */
  apiBase?: string;
  /** Where webhook posts are sent (default https://hooks.slack.com): a submitted URL only supplies the path. */
  webhookBase?: string;
  /** Hosts accepted (over https) in submitted webhook URLs; the host of `webhookBase` is always accepted. */
  allowedWebhookHosts?: readonly string[];
}

export function createSlackPlatform(opts: SlackPlatformOptions = {}): PlatformAdapter {
  const webhookBase = opts.webhookBase ?? SLACK_WEBHOOK_BASE;
  const client = createSlackClient({
    apiBase: opts.apiBase ?? SLACK_API_BASE, webhookBase, timeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, fetch: opts.fetch ?? fetch, now: opts.now ?? systemNow,
  });
  return {
    descriptor: slackDescriptor,
    credentials: createSlackConnector(client, { webhookBase, allowedWebhookHosts: opts.allowedWebhookHosts ?? SLACK_WEBHOOK_HOSTS }),
    publisher: createSlackPublisher(client),
    postEditor: createSlackPostEditor(client),
  };
}

export const slack = defineNetwork<'slack', SlackPlatformOptions>({
  id: 'slack',
  descriptor: slackDescriptor,
  env: {
    apiBase: ['SLACK_API_BASE', httpUrl, { meaning: 'Slack Web API.', default: '`https://slack.com/api`' }],
    webhookBase: ['SLACK_WEBHOOK_BASE', httpUrl, { meaning: 'Where incoming-webhook posts go (a submitted webhook URL only supplies its path).', default: '`https://hooks.slack.com`' }],
    allowedWebhookHosts: ['SLACK_ALLOWED_WEBHOOK_HOSTS', hostList, { meaning: 'Hosts accepted (over https) in submitted Slack webhook URLs; `SLACK_WEBHOOK_BASE`\'s host always is.', default: '`hooks.slack.com`' }],
  },
  create: createSlackPlatform,
});
