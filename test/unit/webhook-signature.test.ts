import { signWebhook, verifyWebhook, webhookCrypto } from '../../adapters/notifications/signature';

/** The vector was computed outside Herald: printf '%s' '<ts>.<body>' | openssl dgst -sha256 -hmac '<secret>'. */
const SECRET = 'whsec_fixed_vector_secret';
const BODY = '{"event":"upload_completed","platform":"x"}';
const TS = 1700000000;
const EXPECTED = 'sha256=a9159dac31a2c88a33fa1777b655fd057c36aa42b098a59006ed13b5648014ec';

describe('webhook signature', () => {
  it('is HMAC-SHA256 over "<timestamp>.<raw body>", hex, prefixed sha256= (fixed vector)', () => {
    expect(signWebhook(SECRET, TS, BODY)).toBe(EXPECTED);
    expect(signWebhook(SECRET, TS, Buffer.from(BODY))).toBe(EXPECTED);
  });

  it('changes with the secret, the timestamp and any byte of the body', () => {
    expect(signWebhook('other', TS, BODY)).not.toBe(EXPECTED);
    expect(signWebhook(SECRET, TS + 1, BODY)).not.toBe(EXPECTED);
    expect(signWebhook(SECRET, TS, BODY.replace('"x"', '"y"'))).not.toBe(EXPECTED);
    // Re-serialized JSON with other spacing is other bytes: receivers verify the raw body.
    expect(signWebhook(SECRET, TS, JSON.stringify(JSON.parse(BODY), null, 1))).not.toBe(EXPECTED);
  });

  it('verifies as a receiver does: raw bytes, constant-time compare, stale timestamps refused', () => {
    expect(verifyWebhook(SECRET, String(TS), BODY, EXPECTED, { nowSeconds: TS + 10 })).toBe(true);
    expect(verifyWebhook(SECRET, String(TS), BODY, EXPECTED, { nowSeconds: TS + 301 })).toBe(false);
    expect(verifyWebhook('wrong', String(TS), BODY, EXPECTED, { nowSeconds: TS })).toBe(false);
    expect(verifyWebhook(SECRET, String(TS), BODY, 'sha256=00', { nowSeconds: TS })).toBe(false);
    expect(verifyWebhook(SECRET, 'soon', BODY, EXPECTED, { nowSeconds: TS })).toBe(false);
  });

  it('derives one stable delivery id per event and channel, and fresh 256-bit secrets', () => {
    const a = webhookCrypto.deliveryId('upload_completed:acct:r1:0:x', 'acct:webhook');
    expect(a).toMatch(/^dlv_[0-9a-f]{32}$/);
    expect(webhookCrypto.deliveryId('upload_completed:acct:r1:0:x', 'acct:webhook')).toBe(a);
    expect(webhookCrypto.deliveryId('upload_completed:acct:r1:0:x', 'acct:telegram')).not.toBe(a);
    expect(webhookCrypto.deliveryId('upload_completed:acct:r1:1:x', 'acct:webhook')).not.toBe(a);
    const s = webhookCrypto.newSecret();
    expect(s).toMatch(/^whsec_[0-9a-f]{64}$/);
    expect(webhookCrypto.newSecret()).not.toBe(s);
  });
});
