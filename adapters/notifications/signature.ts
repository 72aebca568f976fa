import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { WebhookCrypto } from '../../core/ports/notification-channels';

/**
 * The webhook signature of the spec: `sha256=<hex HMAC-SHA256>` keyed with the account's secret
 * over the text `<timestamp>.<raw body>` (timestamp in Unix seconds, the body's exact bytes).
 */
export function signWebhook(secret: string, timestamp: number, rawBody: string | Buffer): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex')}`;
}

/** What a receiver does: recompute over the raw bytes and compare in constant time; refuse stale timestamps. */
export function verifyWebhook(secret: string, timestamp: string, rawBody: string | Buffer, signature: string, opts: { nowSeconds?: number; toleranceSeconds?: number } = {}): boolean {
  const ts = Number(timestamp);
  if (!Number.isInteger(ts)) return false;
  const now = opts.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - ts) > (opts.toleranceSeconds ?? 300)) return false;
  const expected = Buffer.from(signWebhook(secret, ts, rawBody));
  const given = Buffer.from(signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}

export const webhookCrypto: WebhookCrypto = {
  newSecret: () => `whsec_${randomBytes(32).toString('hex')}`,
  deliveryId: (eventKey: string, channelId: string) => `dlv_${createHash('sha256').update(`${eventKey}\n${channelId}`).digest('hex').slice(0, 32)}`,
};
