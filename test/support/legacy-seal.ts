import { createCipheriv, randomBytes } from 'node:crypto';

/** A value as releases before issue 26 sealed it: `v1`, AES-256-GCM without associated data. */
export function sealedUnbound(keyBase64: string, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', Buffer.from(keyBase64, 'base64'), iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', ...[iv, cipher.getAuthTag(), body].map((p) => p.toString('base64url'))].join('.');
}
