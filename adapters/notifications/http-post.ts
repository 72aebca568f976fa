import type { IncomingMessage } from 'node:http';
import type { SendOutcome } from '../../core/ports/notification-channels';
import { DestinationRefused, type DestinationRules } from '../net/destination';
import { outboundRequest } from '../net/outbound-http';

/** How much of an answer the delivery log keeps, and how much is read at all. */
export const RESPONSE_KEEP_BYTES = 1024;
const RESPONSE_READ_BYTES = 64 * 1024;

export interface PostOptions {
  /** The SSRF rules of integrators' addresses; the configured Telegram API is trusted (`anyAddress`). */
  rules: DestinationRules;
  timeoutMs: number;
}

/** The first bytes of an answer; never rejects (a cut connection keeps what came). */
function readPrefix(res: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const end = () => resolve(Buffer.concat(chunks));
    res.on('data', (chunk: Buffer) => {
      if (size < RESPONSE_READ_BYTES) chunks.push(chunk);
      size += chunk.length;
      if (size >= RESPONSE_READ_BYTES) res.destroy();
    });
    res.on('end', end);
    res.on('close', end);
    res.on('error', end);
  });
}

/**
 * One POST, never following redirects (a 3xx is a failed delivery), to the address checked at
 * this delivery (resolved once, every address checked, connected to as checked), within an overall
 * time limit. The first 1 KB of the answer is kept for the delivery log, except from a reserved
 * address let through by the allow list: the tenant would read an internal service's answer
 * there. Never throws: what happened is the outcome.
 */
export async function postOnce(rawUrl: string, body: string, headers: Record<string, string>, opts: PostOptions, shownAs = rawUrl): Promise<SendOutcome> {
  const started = performance.now();
  const done = (ok: boolean, statusCode: number | null, error: string | null, response: string | null): SendOutcome =>
    ({ ok, target: shownAs, statusCode, latencyMs: Math.round(performance.now() - started), error, response });
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return done(false, null, 'invalid URL', null);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return done(false, null, 'not an http(s) URL', null);
  const signal = AbortSignal.timeout(opts.timeoutMs);
  const timedOut = `no answer within ${opts.timeoutMs} ms (timeout)`;
  try {
    const { response: res, destination } = await outboundRequest(url, {
      method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: Buffer.from(body), signal, redirect: 'manual',
    }, opts.rules);
    const text = (await readPrefix(res)).subarray(0, RESPONSE_KEEP_BYTES).toString('utf8');
    const status = res.statusCode ?? 0;
    const ok = status >= 200 && status < 300;
    const error = ok ? null : status >= 300 && status < 400 ? `HTTP ${status} (redirects are not followed)` : `HTTP ${status}`;
    return done(ok, status, error, destination.reserved && !opts.rules.anyAddress ? null : text);
  } catch (err) {
    if (signal.aborted) return done(false, null, timedOut, null);
    if (err instanceof DestinationRefused) return done(false, null, err.code === 'EFORBIDDEN' ? `refused: ${err.message}` : err.message, null);
    const e = err as NodeJS.ErrnoException;
    return done(false, null, `connection failed: ${e.code ?? ''} ${e.message}`.replace(/\s+/g, ' ').trim(), null);
  }
}
