import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createLocalMediaStore } from '../../adapters/media/local-store';
import { createMediaAccess, createMediaUrlSigner } from '../../adapters/media/signed-urls';
import { createPlatformRegistry } from '../../adapters/platforms/registry';
import { createRequestRateLimiter } from '../../adapters/redis/rate-limit';
import { s256Pkce } from '../../adapters/crypto/node-crypto';
import { invalidInput } from '../../core/domain/errors';
import { createProfile } from '../../core/usecases/profiles';
import { connectWithCredentials } from '../../core/usecases/connect-with-credentials';
import type { Storage } from '../../core/ports/storage';
import { createApi } from '../../apps/api/server';
import { createHttpServer } from '../../apps/api/http-server';
import { aWorld } from './world';
import { createMemoryNotificationStorage } from '../../adapters/memory/notifications';
import { webhookCrypto } from '../../adapters/notifications/signature';
import type { NotificationStorage } from '../../core/usecases/notifications/deps';
import { createMemoryConnectStorage } from '../../adapters/memory/connect-storage';
import type { UploadVersions } from '../../core/ports/upload-versions';

export interface HttpAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  /** The body parsed as JSON, undefined when it is not JSON. */
  json: any;
}

export interface RawRequest {
  method: string;
  path: string;
  headers?: Record<string, string | string[]>;
  /** Sent with a Content-Length; an array is sent chunk by chunk with chunked transfer encoding. */
  body?: string | Buffer | Array<string | Buffer>;
  /** Sends the key of the test operator unless false or a header of its own is given. */
  auth?: boolean;
}

/**
 * What FerretDB on PostgreSQL refuses, made to fail the same way in memory (a plain Error: a 500
 * if the API let it through): a NUL in any text, field names starting with `$` or holding `.`
 * or NUL, nesting deeper than 100. Every argument of every storage call is checked.
 */
function unstorable(value: unknown, depth = 0): string | null {
  if (typeof value === 'string') return value.includes('\u0000') ? 'a NUL in a text' : null;
  if (!value || typeof value !== 'object' || value instanceof Date || Buffer.isBuffer(value)) return null;
  if (depth > 100) return 'nested deeper than 100';
  for (const [key, child] of Object.entries(value)) {
    if (!Array.isArray(value) && (key.startsWith('$') || key.includes('.') || key.includes('\u0000'))) return `the field name ${JSON.stringify(key)}`;
    const found = unstorable(child, depth + 1);
    if (found) return found;
  }
  return null;
}

export function asStrictAsFerretDb(storage: Storage): Storage {
  const guard = <T extends object>(repo: T, name: string): T => new Proxy(repo, {
    get(target, prop, receiver) {
      const member = Reflect.get(target, prop, receiver) as unknown;
      if (typeof member !== 'function') return member;
      return (...args: unknown[]) => {
        const found = unstorable(args);
        if (found) throw new Error(`FerretDB would refuse ${name}.${String(prop)}: ${found}`);
        return (member as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return Object.fromEntries(Object.entries(storage).map(([name, repo]) => [name, guard(repo as object, name)])) as unknown as Storage;
}

/** What a second API server takes over from the first (anApiServer's `sharing`). */
export interface SharedApiWorld {
  world: ReturnType<typeof aWorld>;
  account: Awaited<ReturnType<ReturnType<typeof aWorld>['operator']>>['account'];
  secret: string;
  shared: { uploadVersions: UploadVersions | undefined; statusCacheMs: number };
}

/**
 * The API daemon's Koa app and Node server, in-process on a loopback port, over the in-memory
 * world: one operator (business plan), profile `alice` with a discord connection (the fake
 * network also takes photos and videos here, so the media endpoints get past their platform
 * checks). Media go to a temporary directory; URL media are refused (no network in unit tests).
 * The API's storage refuses what FerretDB refuses (the runner's does not: it is not the edge).
 */
export async function anApiServer(opts: {
  maxUploadBytes?: number; trustProxy?: number;
  /** Status reads cached this long (default 0), checked against these stamps (shared by `sharing`). */
  statusCacheMs?: number; uploadVersions?: UploadVersions;
  /** A second API process: this server's world (storage, runner, clock), operator and settings. */
  sharing?: SharedApiWorld;
} = {}) {
  const shared = opts.sharing?.shared;
  const uploadVersions = shared ? shared.uploadVersions : opts.uploadVersions;
  const statusCacheMs = shared ? shared.statusCacheMs : opts.statusCacheMs ?? 0;
  const world = shared ? opts.sharing!.world : aWorld(uploadVersions ? { uploadVersions } : {});
  const { account, secret } = shared ? opts.sharing! : await world.operator('business');
  if (!shared) {
    await createProfile(world.deps, account, { username: 'alice' });
    await connectWithCredentials(world.deps, account, 'discord', { profile_username: 'alice', secret: 'good' });
  }

  const dir = mkdtempSync(path.join(os.tmpdir(), 'herald-api-'));
  const mediaStore = createLocalMediaStore(dir);
  const signer = createMediaUrlSigner({ key: 'k', publicBaseUrl: 'http://127.0.0.1', ttlSeconds: 3600, clock: world.deps.clock });
  const discord = world.discord.adapter;
  const logged: Array<{ message: string; fields: Record<string, unknown> }> = [];
  const connect = createMemoryConnectStorage();
  const app = createApi({
    ...world.deps,
    storage: asStrictAsFerretDb(world.deps.storage),
    platforms: createPlatformRegistry([{ ...discord, descriptor: { ...discord.descriptor, endpoints: ['text', 'photo', 'video'] } }, world.telegram.adapter]),
    pkce: s256Pkce,
    limiter: createRequestRateLimiter(undefined, { points: 1_000_000, windowSeconds: 60, keyPrefix: `t${Math.random()}` }),
    log: (message, fields) => { logged.push({ message, fields }); },
    mediaStore,
    media: createMediaAccess(mediaStore, signer, async (id) => { throw new Error(`renditions are not made in API unit tests (${id})`); }),
    mediaProbe: { probe: async () => ({ durationSeconds: 5, width: 720, height: 1280, frameRate: 30, videoCodec: 'h264', audioCodec: 'aac', container: 'mov,mp4,m4a,3gp,3g2,mj2' }) },
    mediaFetcher: {
      fetch: async (url, field) => { throw invalidInput(`${field}: ${url} cannot be fetched in unit tests.`, undefined, 'media_url_unreachable'); },
      vet: async (url, field) => { throw invalidInput(`${field}: ${url} cannot be fetched in unit tests.`, undefined, 'media_url_unreachable'); },
    },
    mediaUrls: signer,
    health: async () => ({ memory: true }),
    // Notifications over memory; nothing leaves the process (every send fails as unreachable).
    notifications: {
      storage: asStrictAsFerretDb(world.deps.storage),
      notifications: asStrictAsFerretDb(createMemoryNotificationStorage() as unknown as Storage) as unknown as NotificationStorage,
      senders: {
        webhook: async (req) => ({ ok: false, target: req.url, statusCode: null, latencyMs: 0, error: 'no network in unit tests', response: null }),
        telegramConfigured: true,
        telegram: async (chatId) => ({ ok: false, target: `telegram:${chatId}`, statusCode: null, latencyMs: 0, error: 'no network in unit tests', response: null }),
        slack: async (url) => ({ ok: false, target: url, statusCode: null, latencyMs: 0, error: 'no network in unit tests', response: null }),
      },
      guard: {
        vet: async (url, field) => {
          if (!/^https?:\/\/[a-z0-9.-]+(:\d+)?(\/|$)/i.test(url)) throw invalidInput(`${field} must be an http(s) URL.`, undefined, 'webhook_url_invalid');
        },
      },
      crypto: webhookCrypto,
      secrets: world.deps.secrets,
      ids: world.deps.ids,
      clock: world.deps.clock,
      retentionMs: 30 * 24 * 3600_000,
    },
    connect,
    ...(uploadVersions ? { uploadVersions } : {}),
  }, {
    namespace: 'herald', syncTimeoutMs: 5_000, checkResponses: true, trustProxy: opts.trustProxy ?? 0, publicBaseUrl: 'http://127.0.0.1',
    duplicateWindowMs: 0, statusCacheMs, maxUploadBytes: opts.maxUploadBytes ?? 10 * 1024 * 1024,
    connectLinks: { ttlMs: 48 * 3600_000, webBaseUrl: 'http://127.0.0.1:8788' },
  });
  const server = createHttpServer(app, { requestTimeoutMs: 30_000 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  /** One request with full control over method, headers and bytes (fetch refuses some of these). */
  function send(req: RawRequest): Promise<HttpAnswer> {
    const headers: Record<string, string | string[]> = { ...(req.headers ?? {}) };
    // Node's client frames a DELETE body only when told how.
    if (Array.isArray(req.body)) headers['Transfer-Encoding'] = 'chunked';
    else if (req.body !== undefined) headers['Content-Length'] = String(Buffer.byteLength(req.body));
    if (req.auth !== false && !Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) headers.Authorization = `Apikey ${secret}`;
    return new Promise((resolve, reject) => {
      const r = httpRequest({ host: '127.0.0.1', port, method: req.method, path: req.path, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', reject);
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let json: unknown;
          try { json = JSON.parse(text); } catch { json = undefined; }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json });
        });
      });
      r.on('error', reject);
      // An answer that never comes is a failure of its own, not a hung test.
      r.setTimeout(20_000, () => r.destroy(new Error('no answer within 20 s')));
      const parts = req.body === undefined ? [] : Array.isArray(req.body) ? req.body : [req.body];
      for (const part of parts) r.write(part);
      r.end();
    });
  }

  return {
    app,
    world,
    shared: { uploadVersions, statusCacheMs },
    account,
    secret,
    port,
    logged,
    mediaStore,
    connect,
    send,
    json: (method: string, p: string, body: unknown, headers: Record<string, string> = {}) =>
      send({ method, path: p, headers: { 'Content-Type': 'application/json', ...headers }, body: JSON.stringify(body) }),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      if (!shared) await world.runner.settled();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A multipart/form-data body: fields, then files, with a fixed boundary. */
export function multipart(fields: Array<[string, string]>, files: Array<{ field: string; filename: string; type: string; data: Buffer }> = [], boundary = 'herald-test-boundary') {
  const parts: Buffer[] = [];
  for (const [name, value] of fields) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const f of files) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.filename}"\r\nContent-Type: ${f.type}\r\n\r\n`), f.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}
