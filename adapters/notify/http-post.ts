import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import type { SendOutcome } from '../../core/ports/notification-channels';
import { AddressRules, isBlockedAddress } from './address-rules';

/** How much of an answer the delivery log keeps, and how much is read at all. */
export const RESPONSE_KEEP_BYTES = 1024;
const RESPONSE_READ_BYTES = 64 * 1024;

export interface PostOptions {
  rules: AddressRules;
  timeoutMs: number;
  /** Whether the SSRF rules apply (integrators' addresses); the configured Telegram API is trusted. */
  guarded: boolean;
}

/**
 * One POST, never following redirects (a 3xx is a failed delivery), with the address checked
 * again at connect time, an overall time limit, and the first 1 KB of the answer kept. Never
 * throws: what happened is the outcome.
 */
export function postOnce(rawUrl: string, body: string, headers: Record<string, string>, opts: PostOptions, shownAs = rawUrl): Promise<SendOutcome> {
  const started = performance.now();
  const done = (ok: boolean, statusCode: number | null, error: string | null, response: string | null): SendOutcome =>
    ({ ok, target: shownAs, statusCode, latencyMs: Math.round(performance.now() - started), error, response });
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return Promise.resolve(done(false, null, 'invalid URL', null));
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return Promise.resolve(done(false, null, 'not an http(s) URL', null));
  const { host, port } = AddressRules.hostPort(url);
  if (opts.guarded && isIP(host) && isBlockedAddress(host) && !opts.rules.isAllowed(host, port)) {
    return Promise.resolve(done(false, null, `refused: ${host} is a private or reserved address`, null));
  }
  return new Promise((resolve) => {
    let settled = false;
    const finish = (outcome: SendOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(outcome);
    };
    const client = url.protocol === 'https:' ? https : http;
    const payload = Buffer.from(body);
    const req = client.request(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'Content-Length': String(payload.length), ...headers },
      agent: false,
      ...(opts.guarded ? { lookup: opts.rules.guardedLookup(port) as never } : {}),
    }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        if (size < RESPONSE_READ_BYTES) chunks.push(chunk);
        size += chunk.length;
        if (size >= RESPONSE_READ_BYTES) res.destroy();
      });
      const end = () => {
        const status = res.statusCode ?? 0;
        const text = Buffer.concat(chunks).subarray(0, RESPONSE_KEEP_BYTES).toString('utf8');
        const ok = status >= 200 && status < 300;
        const error = ok ? null : status >= 300 && status < 400 ? `HTTP ${status} (redirects are not followed)` : `HTTP ${status}`;
        finish(done(ok, status, error, text));
      };
      res.on('end', end);
      res.on('close', end);
      res.on('error', end);
    });
    const timer = setTimeout(() => {
      req.destroy(new Error(`no answer within ${opts.timeoutMs} ms (timeout)`));
    }, opts.timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      finish(done(false, null, err.message.includes('timeout') ? err.message : `connection failed: ${err.code ?? ''} ${err.message}`.replace(/\s+/g, ' ').trim(), null));
    });
    req.end(payload);
  });
}
