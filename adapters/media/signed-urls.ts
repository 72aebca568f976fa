import { createHmac, timingSafeEqual } from 'node:crypto';
import type { MediaStore } from '../../core/ports/media';
import type { MediaAccess } from '../../core/ports/platform';
import type { Clock } from '../../core/ports/system';
import type { UploadUrls } from '../../core/ports/media-uploads';

/**
 * Signed, expiring URLs for stored media, for networks that fetch media themselves (Instagram,
 * Threads, Pinterest, TikTok PULL_FROM_URL). The API serves `/media/<id>?exp=&sig=` after
 * checking the signature, so a URL cannot be forged or used past its expiry.
 */
export interface MediaUrlSigner {
  url(id: string): string;
  verify(id: string, exp: string | undefined, sig: string | undefined): boolean;
}

export function createMediaUrlSigner(opts: { key: string; publicBaseUrl: string; ttlSeconds: number; clock: Clock }): MediaUrlSigner {
  const base = opts.publicBaseUrl.replace(/\/+$/, '');
  const mac = (id: string, exp: string) => createHmac('sha256', `media-url:${opts.key}`).update(`${id}.${exp}`).digest('base64url');
  return {
    url(id) {
      const exp = String(Math.floor(opts.clock.now().getTime() / 1000) + opts.ttlSeconds);
      return `${base}/media/${id}?exp=${exp}&sig=${mac(id, exp)}`;
    },
    verify(id, exp, sig) {
      if (!exp || !sig || !/^\d+$/.test(exp) || Number(exp) * 1000 < opts.clock.now().getTime()) return false;
      const expected = Buffer.from(mac(id, exp));
      const given = Buffer.from(sig);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}

export function createMediaAccess(store: MediaStore, signer: MediaUrlSigner, rendition: MediaAccess['rendition']): MediaAccess {
  return {
    read: (id, range) => store.read(id, range),
    publicUrl: (id) => signer.url(id),
    rendition,
  };
}

/**
 * The signed URLs staged media uploads are PUT to (`<base>/api/<ns>/media-uploads/<id>/bytes?exp=&sig=`).
 * The HMAC binds the upload id and the expiry (a key of its own, derived like the media URLs'),
 * so neither can be changed nor a URL made for another upload; the URL is the only credential.
 */
export function createUploadUrlSigner(opts: { key: string; publicBaseUrl: string; namespace: string; clock: Clock }): UploadUrls {
  const base = opts.publicBaseUrl.replace(/\/+$/, '');
  const mac = (id: string, exp: string) => createHmac('sha256', `media-upload-url:${opts.key}`).update(`${id}.${exp}`).digest('base64url');
  return {
    url(id, expiresAt) {
      const exp = String(Math.ceil(expiresAt.getTime() / 1000));
      return `${base}/api/${opts.namespace}/media-uploads/${encodeURIComponent(id)}/bytes?exp=${exp}&sig=${mac(id, exp)}`;
    },
    verify(id, exp, sig) {
      if (!exp || !sig || !/^\d{1,12}$/.test(exp)) return 'forged';
      const expected = Buffer.from(mac(id, exp));
      const given = Buffer.from(sig);
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) return 'forged';
      return Number(exp) * 1000 <= opts.clock.now().getTime() ? 'expired' : 'ok';
    },
  };
}
