import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedDelivery {
  path: string;
  headers: IncomingHttpHeaders;
  /** The body's exact bytes, as a receiver verifies the signature over them. */
  raw: Buffer;
  json: any;
  at: number;
}

/**
 * A loopback webhook receiver for tests and the benchmark: records every request (raw bytes and
 * headers) and answers through `respond` (200 by default). `respond` may hold a request open by
 * returning a promise, or never answer it.
 */
export async function startWebhookReceiver() {
  const received: ReceivedDelivery[] = [];
  let respond: (d: ReceivedDelivery, res: ServerResponse) => void | Promise<void> = (_d, res) => { res.writeHead(200); res.end('thanks'); };
  const waiters: (() => void)[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      let json: unknown;
      try { json = JSON.parse(raw.toString('utf8')); } catch { json = undefined; }
      const d: ReceivedDelivery = { path: req.url ?? '/', headers: req.headers, raw, json, at: Date.now() };
      received.push(d);
      for (const w of waiters.splice(0)) w();
      void Promise.resolve(respond(d, res)).catch(() => res.destroy());
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    port,
    url: (path = '/hook') => `http://127.0.0.1:${port}${path}`,
    received,
    /** Requests to one path. */
    at: (path: string) => received.filter((d) => d.path === path),
    setResponder(fn: typeof respond) { respond = fn; },
    /** Resolves when a request matching `ok` has arrived (checked on every arrival), or fails after `ms`. */
    async waitFor(ok: (all: ReceivedDelivery[]) => boolean, ms = 90_000, what = 'deliveries'): Promise<void> {
      const deadline = Date.now() + ms;
      while (!ok(received)) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`${what} not received within ${ms} ms; got ${received.length}: ${received.slice(-5).map((d) => `${d.path} ${d.headers['x-herald-event']}`).join(', ')}`);
        await new Promise<void>((resolve) => { const t = setTimeout(resolve, Math.min(left, 500)); waiters.push(() => { clearTimeout(t); resolve(); }); });
      }
    },
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
