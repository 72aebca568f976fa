import type { PublicPayload } from '../domain/notifications';

/**
 * How notifications leave Herald: a signed webhook POST, a Telegram Bot API message, a Slack
 * incoming-webhook message. Each send is one attempt and never throws for what the receiver did
 * (timeout, refused connection, non-2xx): that is the attempt's outcome.
 */
export interface SendOutcome {
  ok: boolean;
  /** Where it went, as the delivery log shows it (no bot tokens, Slack webhook secrets masked). */
  target: string;
  statusCode: number | null;
  latencyMs: number;
  error: string | null;
  /** The first 1 KB of the answer. */
  response: string | null;
}

export interface WebhookRequest {
  url: string;
  /** The account's signing secret (plain), or null: then no signature header. */
  secret: string | null;
  event: string;
  deliveryId: string;
  payload: PublicPayload;
}

export interface NotificationSenders {
  webhook(request: WebhookRequest): Promise<SendOutcome>;
  /** Whether a Telegram bot token is configured (without one the channel cannot be enabled). */
  telegramConfigured: boolean;
  telegram(chatId: string, text: string): Promise<SendOutcome>;
  slack(webhookUrl: string, text: string): Promise<SendOutcome>;
}

/**
 * The SSRF rules for addresses integrators give: http(s) only, no loopback, private, link-local or
 * metadata addresses unless allow-listed by configuration. Throws invalid_input (400) with
 * `webhook_url_forbidden` / `webhook_url_invalid`.
 */
export interface WebhookUrlGuard {
  vet(url: string, field: string): Promise<void>;
}

/** Secrets and signatures (HMAC-SHA256 over `<timestamp>.<raw body>`). */
export interface WebhookCrypto {
  newSecret(): string;
  /** Deterministic id of (event, channel): the same on every retry and redelivery. */
  deliveryId(eventKey: string, channelId: string): string;
}

/** Hands deliveries to their channel's breaker workflow (`webhook:<channel id>`), in order. */
export interface NotificationChannelQueue {
  enqueue(channelId: string, deliveries: Array<{ deliveryId: string; eventKey: string }>): Promise<void>;
  /** The channel's breaker state, or null when its workflow is not running. */
  breaker?(channelId: string): Promise<BreakerView | null>;
  /** Closes an open breaker now (the address changed): its pause timer moves to now. */
  resume?(channelId: string): Promise<void>;
}

export interface BreakerView {
  state: 'closed' | 'open' | 'half_open';
  consecutive_failures: number;
  paused_until: string | null;
}
