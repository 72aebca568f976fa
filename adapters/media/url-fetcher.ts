import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { invalidInput } from '../../core/domain/errors';
import type { MediaStore, StoredMedia } from '../../core/ports/media';
import { MediaTooLargeError } from '../../core/ports/media';
import { isReservedAddress } from '../net/reserved-addresses';

/**
 * Fetches media from a URL the caller gave, into the media store, refusing what would make Herald
 * a proxy into private networks (SSRF): loopback, link-local (cloud metadata), private and other
 * non-public addresses, unless the exact host:port is allow-listed (the local simulators need it).
 * Redirects are followed by hand so every hop is checked.
 */
export interface UrlFetcherOptions {
  /** `host:port` pairs allowed even on private addresses (e.g. `127.0.0.1:4101`). */
  allow: readonly string[];
  maxBytes: number;
  timeoutMs: number;
  fetch?: typeof fetch;
}

export function createUrlMediaFetcher(store: MediaStore, opts: UrlFetcherOptions) {
  const doFetch = opts.fetch ?? fetch;
  const allowed = new Set(opts.allow.map((a) => a.toLowerCase()));

  async function check(url: URL): Promise<void> {
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidInput(`Media URL ${url} must be http(s).`);
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (allowed.has(`${host}:${port}`)) return;
    const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true }).catch(() => []);
    if (!addresses.length) throw invalidInput(`Media URL host ${host} does not resolve.`, undefined, 'media_url_unreachable');
    for (const a of addresses) {
      if (isReservedAddress(a.address)) {
        throw invalidInput(`Media URL ${url.origin} points to a private or reserved address; use a public URL.`, undefined, 'media_url_forbidden');
      }
    }
  }

  const parse = (raw: string, field: string): URL => {
    try {
      return new URL(raw);
    } catch {
      throw invalidInput(`${field}: "${raw}" is neither a file nor a URL.`);
    }
  };

  return {
    /** The checks of the first hop without downloading (a URL accepted now, fetched later). */
    async vet(raw: string, field: string): Promise<void> {
      await check(parse(raw, field));
    },

    /** Downloads `raw` into the store; `accept` checks the content type (e.g. video/*). */
    async fetchInto(raw: string, accept: (contentType: string) => boolean, field: string): Promise<StoredMedia & { filename: string }> {
      let url = parse(raw, field);
      let res: Response | undefined;
      for (let hop = 0; hop < 4; hop += 1) {
        await check(url);
        res = await doFetch(url, { redirect: 'manual', signal: AbortSignal.timeout(opts.timeoutMs) }).catch((err: Error) => {
          throw invalidInput(`${field}: could not download ${url.origin}: ${err.message}`, undefined, 'media_url_unreachable');
        });
        const location = res.headers.get('location');
        if (res.status >= 300 && res.status < 400 && location) {
          url = new URL(location, url);
          continue;
        }
        break;
      }
      if (!res || !res.ok || !res.body) throw invalidInput(`${field}: downloading ${url.origin}${url.pathname} answered HTTP ${res?.status}.`, undefined, 'media_url_unreachable');
      const contentType = (res.headers.get('content-type') ?? 'application/octet-stream').split(';')[0]!.trim().toLowerCase();
      if (!accept(contentType)) throw invalidInput(`${field}: ${url.pathname} is ${contentType}, which this field does not take.`, undefined, 'media_type_unsupported');
      const declared = Number(res.headers.get('content-length'));
      if (Number.isFinite(declared) && declared > opts.maxBytes) throw invalidInput(`${field}: the file is larger than ${opts.maxBytes} bytes.`, undefined, 'media_too_large');
      try {
        const stored = await store.put(Readable.fromWeb(res.body as unknown as WebReadableStream<Uint8Array>), { contentType, maxBytes: opts.maxBytes });
        return { ...stored, filename: url.pathname.split('/').pop() || 'media' };
      } catch (err) {
        if (err instanceof MediaTooLargeError) throw invalidInput(`${field}: the file is larger than ${opts.maxBytes} bytes.`, undefined, 'media_too_large');
        throw err;
      }
    },
  };
}

export type UrlMediaFetcher = ReturnType<typeof createUrlMediaFetcher>;
