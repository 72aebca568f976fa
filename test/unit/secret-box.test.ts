import { createAesSecretBox } from '../../adapters/crypto/node-crypto';
import { SEALED_FIELDS } from '../../core/domain/sealed-fields';
import { sealedUnbound } from '../support/legacy-seal';

/** Issue 26: a sealed value opens only where it is stored (record kind, record key, field). */
const KEY = Buffer.alloc(32, 5).toString('base64');
const alice = SEALED_FIELDS.connectionCredentials({ accountId: 'acc-1', profileUsername: 'alice', platform: 'x' });
const bob = SEALED_FIELDS.connectionCredentials({ accountId: 'acc-1', profileUsername: 'bob', platform: 'x' });

describe('secret box: sealed values bound to their record', () => {
  it('opens a value where it was sealed and nowhere else: another record, another field, another kind', () => {
    const box = createAesSecretBox(KEY, { openCacheEntries: 0 });
    const sealed = box.seal('{"access_token":"alice-token"}', alice);
    expect(box.open(sealed, alice)).toBe('{"access_token":"alice-token"}');
    expect(() => box.open(sealed, bob)).toThrow();
    expect(() => box.open(sealed, { ...alice, field: 'other' })).toThrow();
    const secret = box.seal('whsec_1', SEALED_FIELDS.webhookSecret('acc-1'));
    expect(() => box.open(secret, SEALED_FIELDS.slackWebhookUrl('acc-1'))).toThrow();
    expect(() => box.open(secret, SEALED_FIELDS.webhookSecret('acc-2'))).toThrow();
    expect(box.isUnbound(sealed)).toBe(false);
  });

  it('keys its memo by the place too: a value opened at home is not answered for another record', () => {
    const box = createAesSecretBox(KEY, { openCacheEntries: 10 });
    const sealed = box.seal('{"access_token":"alice-token"}', alice);
    expect(box.open(sealed, alice)).toBe('{"access_token":"alice-token"}');
    expect(box.open(sealed, alice)).toBe('{"access_token":"alice-token"}');
    for (let i = 0; i < 2; i++) expect(() => box.open(sealed, bob)).toThrow();
  });

  it('tells apart key parts that would join to the same text', () => {
    const box = createAesSecretBox(KEY, { openCacheEntries: 0 });
    const a = { record: 'r', key: ['a|b', 'c'], field: 'f' };
    const b = { record: 'r', key: ['a', 'b|c'], field: 'f' };
    expect(() => box.open(box.seal('x', a), b)).toThrow();
  });

  it('still opens a value sealed before binding (v1), anywhere, until told not to', () => {
    const old = sealedUnbound(KEY, '{"access_token":"legacy"}');
    const box = createAesSecretBox(KEY);
    expect(box.isUnbound(old)).toBe(true);
    expect(box.open(old, alice)).toBe('{"access_token":"legacy"}');
    expect(box.open(old, bob)).toBe('{"access_token":"legacy"}');
    const strict = createAesSecretBox(KEY, { acceptUnbound: false });
    expect(() => strict.open(old, alice)).toThrow(/herald secrets reseal/);
    // What the reseal step writes opens under the strict box, at its place only.
    const resealed = box.seal(box.open(old, alice), alice);
    expect(strict.open(resealed, alice)).toBe('{"access_token":"legacy"}');
    expect(() => strict.open(resealed, bob)).toThrow();
  });
});
