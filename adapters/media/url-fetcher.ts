import { invalidInput, type HeraldError } from '../../core/domain/errors';
import type { MediaStore, StoredMedia } from '../../core/ports/media';
import { MediaTooLargeError } from '../../core/ports/media';
import { AllowList, DestinationRefused, resolveDestination, type DestinationRules, type Resolver } from '../net/destination';
import { decodedBody, outboundRequest } from '../net/outbound-http';

/**
 * Fetches media from a URL the caller gave, into the media store, refusing what would make Herald
 * a proxy into private networks (SSRF): loopback, link-local (cloud metadata), private and other
 * non-public addresses, unless the host and port are allow-listed (the local simulators need it).
 * Every hop, redirects included, is resolved once, checked and connected to at the checked
 * address (adapters/net/outbound-http.ts): no DNS-rebinding window.
 */
export interface UrlFetcherOptions {
  /** `host:port` pairs (a bare host: its scheme's default port) allowed even on private addresses (e.g. `127.0.0.1:4101`). */
  allow: readonly string[];
  maxBytes: number;
  timeoutMs: number;
  /** The DNS; tests give a fake one. */
  resolve?: Resolver;
}

/** Hops: the URL given and up to three redirects. */
const MAX_REDIRECTS = 3;

export function createUrlMediaFetcher(store: MediaStore, opts: UrlFetcherOptions) {
  const rules: DestinationRules = { allow: new AllowList(opts.allow), resolve: opts.resolve };

  const parse = (raw: string, field: string): URL => {
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw invalidInput(`${field}: "${raw}" is neither a file nor a URL.`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw invalidInput(`Media URL ${url} must be http(s).`);
    return url;
  };

  /** A refused hop (the URL given or one it redirects to) or a failed download as the caller's error. */
  const failure = (err: unknown, given: URL, field: string): HeraldError => {
    const code = err instanceof DestinationRefused ? err.code : undefined;
    const url = (err instanceof DestinationRefused && err.url) || given;
    if (code === 'EFORBIDDEN') return invalidInput(`Media URL ${url.origin} points to a private or reserved address; use a public URL.`, undefined, 'media_url_forbidden');
    if (code === 'EPROTO') return invalidInput(`${field}: a redirect led to a URL that is not http(s).`);
    if (code === 'ENOTFOUND') return invalidInput(`Media URL host ${url.hostname} does not resolve.`, undefined, 'media_url_unreachable');
    return invalidInput(`${field}: could not download ${url.origin}: ${(err as Error).message}`, undefined, 'media_url_unreachable');
  };

  return {
    /** The checks of the first hop without downloading (a URL accepted now, fetched later). */
    async vet(raw: string, field: string): Promise<void> {
      const url = parse(raw, field);
      await resolveDestination(url, rules).catch((err: unknown) => { throw failure(err, url, field); });
    },

    /** Downloads `raw` into the store; `accept` checks the content type (e.g. video/*). */
    async fetchInto(raw: string, accept: (contentType: string) => boolean, field: string): Promise<StoredMedia & { filename: string }> {
      const first = parse(raw, field);
      const signal = AbortSignal.timeout(opts.timeoutMs);
      const { url, response: res } = await outboundRequest(first, { signal, maxRedirects: MAX_REDIRECTS }, rules).catch((err: unknown) => {
        throw failure(signal.aborted ? new Error(`no answer within ${opts.timeoutMs} ms`) : err, first, field);
      });
      const status = res.statusCode ?? 0;
      if (status < 200 || status >= 300) {
        res.resume();
        throw invalidInput(`${field}: downloading ${url.origin}${url.pathname} answered HTTP ${status}.`, undefined, 'media_url_unreachable');
      }
      const contentType = String(res.headers['content-type'] ?? 'application/octet-stream').split(';')[0]!.trim().toLowerCase();
      const tooLarge = () => invalidInput(`${field}: the file is larger than ${opts.maxBytes} bytes.`, undefined, 'media_too_large');
      if (!accept(contentType)) {
        res.destroy();
        throw invalidInput(`${field}: ${url.pathname} is ${contentType}, which this field does not take.`, undefined, 'media_type_unsupported');
      }
      const declared = Number(res.headers['content-length']);
      if (Number.isFinite(declared) && declared > opts.maxBytes) {
        res.destroy();
        throw tooLarge();
      }
      try {
        const stored = await store.put(decodedBody(res), { contentType, maxBytes: opts.maxBytes });
        return { ...stored, filename: url.pathname.split('/').pop() || 'media' };
      } catch (err) {
        if (err instanceof MediaTooLargeError) throw tooLarge();
        throw err;
      }
    },
  };
}

export type UrlMediaFetcher = ReturnType<typeof createUrlMediaFetcher>;
