import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Clock, IdGenerator, KeyHasher, Pkce, SecretBox } from '../../core/ports/system';
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

/**
 * AES-256-GCM with a 32-byte key; sealed text is `v1.<iv>.<tag>.<ciphertext>` in base64url.
 *
 * `open` remembers what it opened for the last `openCacheEntries` sealed texts (least recently
 * used first out; 0 turns it off), keyed by the sealed text itself: every read of a connected
 * account opens its credentials, and the API reads the same few records again and again. A sealed
 * text has a random IV and its own authentication tag, so it opens to one plaintext under the
 * box's key forever: a changed or rotated secret is a different sealed text and never meets an
 * entry of its predecessor. Only successful opens are remembered (a tampered text throws every
 * time). The answer is a string, so no caller can change what the next one gets. The plaintexts
 * are held in this process's memory, as the records they came from are.
 */
export function createAesSecretBox(keyBase64: string, opts: { openCacheEntries?: number } = {}): SecretBox {
  const key = Buffer.from(keyBase64, 'base64');
  if (key.length !== 32) throw new Error('the secret key must be 32 bytes, base64-encoded (openssl rand -base64 32)');
  const opened = new BoundedMemo<string>(Math.max(0, opts.openCacheEntries ?? DEFAULT_OPEN_CACHE_ENTRIES), (sealed) => sealed.length <= OPEN_CACHE_MAX_CHARS);

  function decrypt(sealed: string): string {
    const [version, iv, tag, body] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('sealed secret has an unknown format');
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  }

  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
    },
    open(sealed: string): string {
      return opened.get(sealed, () => decrypt(sealed));
    },
  };
}

export const s256Pkce: Pkce = {
  newVerifier: () => randomBytes(48).toString('base64url'),
  challenge: (verifier: string) => createHash('sha256').update(verifier).digest('base64url'),
};
