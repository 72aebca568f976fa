import { maskedSlackUrl } from '../../core/domain/notifications';
import type { NotificationSenders, SendOutcome } from '../../core/ports/notification-channels';
import { AllowList, type DestinationRules, type Resolver } from '../net/destination';
import { postOnce } from './http-post';
import { signWebhook } from './signature';

export interface SenderOptions {
  /** `X-Herald-` by default: a deployment replacing another provider keeps its receivers unchanged. */
  headerPrefix: string;
  /** The User-Agent, `Herald-Webhooks/1.0` by default. */
  userAgent: string;
  /** Receivers must answer 2xx within this (10 s). */
  timeoutMs: number;
  /** `host:port` pairs (a bare host: its scheme's default port) notifications may reach although private (tests, sandbox). */
  allow: readonly string[];
  /** Loopback on any port too (the sandbox: HERALD_WEBHOOK_ALLOW_LOOPBACK). */
  loopback?: boolean;
  /** The DNS; tests give a fake one. */
  resolve?: Resolver;
  telegram: { botToken: string | null; apiBase: string };
  now?: () => number;
}

/** Telegram's answer `{ok, description}` as the delivery's error. */
function telegramOutcome(outcome: SendOutcome): SendOutcome {
  if (outcome.ok || !outcome.response) return outcome;
  try {
    const parsed = JSON.parse(outcome.response) as { description?: string };
    return parsed.description ? { ...outcome, error: `${outcome.error}: ${parsed.description}` } : outcome;
  } catch {
    return outcome;
  }
}

export function createNotificationSenders(opts: SenderOptions): NotificationSenders {
  const rules: DestinationRules = { allow: new AllowList(opts.allow), loopback: opts.loopback ?? false, resolve: opts.resolve };
  const trusted: DestinationRules = { anyAddress: true, resolve: opts.resolve };
  const now = opts.now ?? Date.now;
  const h = (name: string) => `${opts.headerPrefix}${name}`;
  return {
    async webhook(req) {
      const body = JSON.stringify(req.payload);
      const timestamp = Math.floor(now() / 1000);
      const headers: Record<string, string> = {
        'User-Agent': opts.userAgent,
        [h('Timestamp')]: String(timestamp),
        [h('Event')]: req.event,
        [h('Delivery')]: req.deliveryId,
      };
      if (req.secret) headers[h('Signature')] = signWebhook(req.secret, timestamp, body);
      return postOnce(req.url, body, headers, { rules, timeoutMs: opts.timeoutMs });
    },
    telegramConfigured: Boolean(opts.telegram.botToken),
    async telegram(chatId, text) {
      const shown = `telegram:${chatId}`;
      if (!opts.telegram.botToken) return { ok: false, target: shown, statusCode: null, latencyMs: 0, error: 'no Telegram bot token configured', response: null };
      const url = `${opts.telegram.apiBase.replace(/\/+$/, '')}/bot${opts.telegram.botToken}/sendMessage`;
      const body = JSON.stringify({ chat_id: /^-?\d+$/.test(chatId) ? Number(chatId) : chatId, text: [...text].slice(0, 4096).join(''), disable_web_page_preview: true });
      return telegramOutcome(await postOnce(url, body, { 'User-Agent': opts.userAgent }, { rules: trusted, timeoutMs: opts.timeoutMs }, shown));
    },
    // Slack incoming-webhook URLs are credentials: the delivery log keeps them masked.
    async slack(webhookUrl, text) {
      return postOnce(webhookUrl, JSON.stringify({ text }), { 'User-Agent': opts.userAgent }, { rules, timeoutMs: opts.timeoutMs }, maskedSlackUrl(webhookUrl));
    },
  };
}
