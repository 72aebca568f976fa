import { createHmac, timingSafeEqual } from 'node:crypto';
import type { MediaJobOutputLinks, MediaStore } from '../../core/ports/media';
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

/** HMAC over `<subject>.<exp>` with a key of its own per use, so a signature of one use is worth nothing in another. */
function expiringSignature(secret: string, clock: Clock) {
  const mac = (subject: string, exp: string) => createHmac('sha256', secret).update(`${subject}.${exp}`).digest('base64url');
  return {
    sign(subject: string, expSeconds: number): { exp: string; sig: string } {
      const exp = String(expSeconds);
      return { exp, sig: mac(subject, exp) };
    },
    verify(subject: string, exp: string | undefined, sig: string | undefined): boolean {
      if (!exp || !sig || !/^\d+$/.test(exp) || Number(exp) * 1000 < clock.now().getTime()) return false;
      const expected = Buffer.from(mac(subject, exp));
      const given = Buffer.from(sig);
      return expected.length === given.length && timingSafeEqual(expected, given);
    },
  };
}

export function createMediaUrlSigner(opts: { key: string; publicBaseUrl: string; ttlSeconds: number; clock: Clock }): MediaUrlSigner {
  const base = opts.publicBaseUrl.replace(/\/+$/, '');
  const signature = expiringSignature(`media-url:${opts.key}`, opts.clock);
  return {
    url(id) {
      const { exp, sig } = signature.sign(id, Math.floor(opts.clock.now().getTime() / 1000) + opts.ttlSeconds);
      return `${base}/media/${id}?exp=${exp}&sig=${sig}`;
    },
    verify: (id, exp, sig) => signature.verify(id, exp, sig),
  };
}

/**
 * Links to media jobs' outputs (the download route's own path, `pathOf(jobId)`, with `exp` and
 * `sig`): a browser downloads with the link alone, until `ttlSeconds` have passed or the output
 * expires, whichever comes first.
 */
export function createMediaJobOutputLinks(opts: { key: string; publicBaseUrl: string; pathOf: (jobId: string) => string; ttlSeconds: number; clock: Clock }): MediaJobOutputLinks {
  const base = opts.publicBaseUrl.replace(/\/+$/, '');
  const signature = expiringSignature(`media-job-output:${opts.key}`, opts.clock);
  return {
    url(jobId, notAfter) {
      const ttlEnd = Math.floor(opts.clock.now().getTime() / 1000) + opts.ttlSeconds;
      const { exp, sig } = signature.sign(jobId, notAfter ? Math.min(ttlEnd, Math.floor(notAfter.getTime() / 1000)) : ttlEnd);
      return `${base}${opts.pathOf(jobId)}?exp=${exp}&sig=${sig}`;
    },
    verify: (jobId, exp, sig) => signature.verify(jobId, exp, sig),
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
