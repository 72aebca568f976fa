import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Clock, IdGenerator, KeyHasher, Pkce, SealedAt, SecretBox } from '../../core/ports/system';
import { BoundedMemo } from '../bounded-memo';

export const systemClock: Clock = { now: () => new Date() };

export const randomIds: IdGenerator = {
  next: (prefix?: string) => {
    const id = randomBytes(12).toString('base64url');
    return prefix ? `${prefix}_${id}` : id;
  },
};

/** API keys are 256-bit random secrets, so an unsalted SHA-256 is a safe lookup digest. */
export const sha256KeyHasher: KeyHasher = {
  newApiKey: () => `hk_${randomBytes(32).toString('base64url')}`,
  hash: (secret: string) => createHash('sha256').update(secret).digest('hex'),
};

/** Opened secrets remembered by a SecretBox (createAesSecretBox's `openCacheEntries`). */
export const DEFAULT_OPEN_CACHE_ENTRIES = 1000;
/** Sealed texts longer than this are opened every time (the memo stays small). */
const OPEN_CACHE_MAX_CHARS = 64 * 1024;

/** Sealed with the place as associated data; `v1` texts (before issue 26) have none. */
const BOUND = 'v2';
const UNBOUND = 'v1';

/** The associated data of a place: unambiguous whatever characters its parts hold. */
const placeOf = (at: SealedAt): string => JSON.stringify([at.record, at.key, at.field]);

/**
 * AES-256-GCM with a 32-byte key; sealed text is `v2.<iv>.<tag>.<ciphertext>` in base64url, with
 * the place it is stored (`SealedAt`: record, key, field) as GCM associated data, so it opens only
 * there. `v1.…` texts, sealed without associated data, still open anywhere (`isUnbound`): whoever
 * writes the field seals it again as `v2`, and `herald secrets reseal` (apps/cli) does it for every
 * stored value; `acceptUnbound: false` refuses them once that ran (docs/security/at-rest.md).
 *
 * `open` remembers what it opened for the last `openCacheEntries` (place, sealed text) pairs
 * (least recently used first out; 0 turns it off): every read of a connected account opens its
 * credentials, and the API reads the same few records again and again. A sealed text has a random
 * IV and its own authentication tag, so it opens to one plaintext under the box's key forever: a
 * changed or rotated secret is a different sealed text and never meets an entry of its
 * predecessor. The place is part of the memo's key, so a text opened at its own place is not
 * answered from the memo when asked for at another. Only successful opens are remembered (a
 * tampered or misplaced text throws every time). The answer is a string, so no caller can change
 * what the next one gets. The plaintexts are held in this process's memory, as the records they
 * came from are.
 */
export function createAesSecretBox(keyBase64: string, opts: { openCacheEntries?: number; acceptUnbound?: boolean } = {}): SecretBox {
  const key = Buffer.from(keyBase64, 'base64');
  if (key.length !== 32) throw new Error('the secret key must be 32 bytes, base64-encoded (openssl rand -base64 32)');
  const acceptUnbound = opts.acceptUnbound ?? true;
  const opened = new BoundedMemo<string>(Math.max(0, opts.openCacheEntries ?? DEFAULT_OPEN_CACHE_ENTRIES), (memoKey) => memoKey.length <= OPEN_CACHE_MAX_CHARS);

  function decrypt(sealed: string, place: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if ((version !== BOUND && version !== UNBOUND) || !iv || !tag || body === undefined) throw new Error('sealed secret has an unknown format');
    if (version === UNBOUND && !acceptUnbound) throw new Error('sealed secret is not bound to its record (v1): run `herald secrets reseal`');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    if (version === BOUND) decipher.setAAD(Buffer.from(place, 'utf8'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }

  return {
    seal(plain, at) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(placeOf(at), 'utf8'));
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [BOUND, ...[iv, cipher.getAuthTag(), body].map((p) => p.toString('base64url'))].join('.');
    },
    open(sealed, at) {
      const place = placeOf(at);
      return opened.get(`${place}\n${sealed}`, () => decrypt(sealed, place));
    },
    isUnbound: (sealed) => sealed.startsWith(`${UNBOUND}.`),
  };
}

export const s256Pkce: Pkce = {
  newVerifier: () => randomBytes(48).toString('base64url'),
  challenge: (verifier: string) => createHash('sha256').update(verifier).digest('base64url'),
};
