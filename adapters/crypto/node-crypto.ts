import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Clock, IdGenerator, KeyHasher, Pkce, SecretBox } from '../../core/ports/system';

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

/** AES-256-GCM with a 32-byte key; sealed text is `v1.<iv>.<tag>.<ciphertext>` in base64url. */
export function createAesSecretBox(keyBase64: string): SecretBox {
  const key = Buffer.from(keyBase64, 'base64');
  if (key.length !== 32) throw new Error('the secret key must be 32 bytes, base64-encoded (openssl rand -base64 32)');
  return {
    seal(plain: string): string {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
    },
    open(sealed: string): string {
      const [version, iv, tag, body] = sealed.split('.');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('sealed secret has an unknown format');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

export const s256Pkce: Pkce = {
  newVerifier: () => randomBytes(48).toString('base64url'),
  challenge: (verifier: string) => createHash('sha256').update(verifier).digest('base64url'),
};
