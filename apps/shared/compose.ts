import { MongoClient, type Db } from 'mongodb';
import Redis from 'ioredis';
import { Client, Connection, type ClientOptions } from '@temporalio/client';
import { withoutAsyncHooksForNamespaceScopes } from '../../adapters/temporal/call-context';
import type { PlatformRegistry } from '../../core/ports/platform';
import type { Storage } from '../../core/ports/storage';
import { createMongoStorage } from '../../adapters/mongo/storage';
import { pendingMigrations } from '../../adapters/mongo/migrate';
import { createMongoCredentialLeases } from '../../adapters/mongo/credential-leases';
import { createMongoDispatchClaims } from '../../adapters/mongo/dispatch-claims';
import type { DispatchClaims } from '../../core/ports/dispatch-claims';
import { applyCapabilities, detectCapabilities, type MongoCapabilities } from '../../adapters/mongo/capabilities';
import type { CredentialLeases } from '../../core/ports/credential-leases';
import { createLocalMediaStore } from '../../adapters/media/local-store';
import { createMediaAccess, createMediaUrlSigner } from '../../adapters/media/signed-urls';
import { createFfprobe } from '../../adapters/media/ffprobe';
import { createRenditions } from '../../adapters/media/renditions';
import { createUrlMediaFetcher } from '../../adapters/media/url-fetcher';
import { createMediaFetcher } from '../../adapters/media/describe';
import { createAesSecretBox, systemClock } from '../../adapters/crypto/node-crypto';
import type { SecretBox } from '../../core/ports/system';
import { requireSecretKey, type HeraldConfig } from './config';
import { buildPlatforms as buildPlatformRegistry } from './platforms';
import { logWith, rootLogger } from './logging';
import type { RecordChangePublisher } from '../../core/ports/record-changes';
import { createRedisRecordChangePublisher } from '../../adapters/redis/record-changes';
import { announcingChanges } from '../../core/usecases/record-changes';
import type { UploadVersions } from '../../core/ports/upload-versions';
import { createRedisUploadVersions } from '../../adapters/redis/upload-versions';
import { stampedUploadWrites } from '../../core/usecases/upload-versions';

/**
 * Logs one JSON line per event through the daemon's pino logger (apps/shared/logging.ts: level,
 * pretty output, redaction); callers pass ids, not tokens, and the logger scrubs what slips through.
 */
export const log: (message: string, fields?: Record<string, unknown>) => void = logWith(rootLogger);

/** The secret box of HERALD_SECRET_KEY; `acceptUnbound` overrides HERALD_SECRETS_ACCEPT_UNBOUND (the reseal step). */
export function buildSecretBox(config: HeraldConfig, opts: { acceptUnbound?: boolean } = {}): SecretBox {
  return createAesSecretBox(requireSecretKey(config), { acceptUnbound: opts.acceptUnbound ?? config.secretsAcceptUnbound });
}

/**
 * Announcements of profile and connected-account writes (core/usecases/record-changes.ts): every
 * daemon that writes them publishes on `<prefix>:record-changes`; API processes follow them to
 * drop what they cached. A connection of its own, so announcing never waits on the rate limits'
 * fail-fast client; a lost announcement is bounded by the readers' TTL. On the same connection,
 * `stamps`: each account's upload stamp (core/usecases/upload-versions.ts), moved by every write
 * of its uploads and read by the API's status reads.
 */
export function connectRecordChanges(config: HeraldConfig): { publisher: RecordChangePublisher; channel: string; stamps: UploadVersions; close(): Promise<void> } {
  const redis = new Redis(config.redisUrl, { maxRetriesPerRequest: 1, lazyConnect: false });
  redis.on('error', (err) => log('redis error (record change announcements)', { error: err.message }));
  const channel = `${config.redisKeyPrefix}:record-changes`;
  return {
    publisher: createRedisRecordChangePublisher(redis, { channel, log }), channel,
    stamps: createRedisUploadVersions(redis, { keyPrefix: `${config.redisKeyPrefix}:upload-stamp`, log }),
    close: async () => { await redis.quit().catch(() => redis.disconnect()); },
  };
}

export async function connectMongo(config: HeraldConfig, opts: { announce?: RecordChangePublisher; stamps?: UploadVersions } = {}): Promise<{
  client: MongoClient; db: Db; storage: Storage; leases: CredentialLeases; claims: DispatchClaims; capabilities: MongoCapabilities;
}> {
  const client = new MongoClient(config.mongoUri, {
    serverSelectionTimeoutMS: 10_000, maxPoolSize: config.mongoMaxPoolSize, monitorCommands: config.debugTiming,
  });
  try {
    await client.connect();
  } catch (err) {
    throw new Error(`cannot reach the MongoDB-wire database at ${config.mongoUri}: ${(err as Error).message}`);
  }
  const db = client.db();
  const stored = await createMongoStorage(db);
  const announced = opts.announce ? announcingChanges(stored, opts.announce) : stored;
  const storage = opts.stamps ? { ...announced, uploads: stampedUploadWrites(announced.uploads, opts.stamps) } : announced;
  // MongoDB replica set or FerretDB: the extras (TTL indexes, transactions) only where supported.
  const capabilities = await detectCapabilities(db);
  const extras = await applyCapabilities(db, capabilities);
  log('database capabilities', { ...capabilities, created: extras });
  const notMigrated = await pendingMigrations(db);
  if (notMigrated.length > 0) {
    log('stored data is not migrated to this version: lists miss the records written before it until `npm run herald -- migrate` runs (docs/storage/migrations.md)', { pending: notMigrated });
  }
  return { client, db, storage, leases: createMongoCredentialLeases(db), claims: createMongoDispatchClaims(db), capabilities };
}

/**
 * HERALD_DEBUG_TIMING: the MongoDB commands this process has sent so far (count and time, per
 * command name), logged every `everyMs` while it changes. Benchmarks divide it by the work done.
 */
export function logMongoCommands(client: MongoClient, everyMs = 2_000): () => void {
  const byCommand: Record<string, { n: number; ms: number }> = {};
  // The same, by "<command> <collection>": which repository sends what.
  const byTarget: Record<string, { n: number; ms: number }> = {};
  const targets = new Map<number, string>();
  let total = 0;
  let logged = 0;
  client.on('commandStarted', (e: { requestId: number; commandName: string; command: Record<string, unknown> }) => {
    const collection = e.command[e.commandName];
    targets.set(e.requestId, `${e.commandName} ${typeof collection === 'string' ? collection : '-'}`);
  });
  const add = (to: Record<string, { n: number; ms: number }>, key: string, duration: number) => {
    const c = (to[key] ??= { n: 0, ms: 0 });
    c.n += 1;
    c.ms += duration;
  };
  const done = (e: { requestId: number; commandName: string; duration: number }) => {
    add(byCommand, e.commandName, e.duration);
    add(byTarget, targets.get(e.requestId) ?? `${e.commandName} -`, e.duration);
    targets.delete(e.requestId);
    total += 1;
  };
  client.on('commandSucceeded', done);
  client.on('commandFailed', done);
  const report = () => {
    if (total === logged) return;
    logged = total;
    log('mongo commands', { total, by_command: byCommand, by_target: byTarget });
  };
  const timer = setInterval(report, everyMs);
  timer.unref();
  return () => {
    clearInterval(timer);
    report();
  };
}

/**
 * Fails fast per command when Redis is down, so the in-memory insurance limiter takes over at once.
 * Commands that concurrent requests issue in the same tick go out in one write (auto-pipelining):
 * every authenticated request sends one, and a socket write each was a tenth of the API's CPU.
 */
export function connectRedis(config: HeraldConfig): Redis {
  const redis = new Redis(config.redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, lazyConnect: false, enableAutoPipelining: true });
  redis.on('error', (err) => log('redis error (rate limits fall back to in-memory)', { error: err.message }));
  return redis;
}

export async function connectTemporal(config: HeraldConfig, clientOptions: Pick<ClientOptions, 'interceptors'> = {}): Promise<{ connection: Connection; client: Client }> {
  let connection: Connection;
  try {
    connection = await Connection.connect({ address: config.temporal.address });
  } catch (err) {
    throw new Error(`cannot reach Temporal at ${config.temporal.address}: ${(err as Error).message}`);
  }
  withoutAsyncHooksForNamespaceScopes(connection);
  return { connection, client: new Client({ connection, namespace: config.temporal.namespace, ...clientOptions }) };
}

/** The adapters of every configured network (apps/shared/platforms.ts); logs which, never their credentials. */
export function buildPlatforms(config: HeraldConfig, fetchOf?: (network: string) => typeof fetch): PlatformRegistry {
  const registry = buildPlatformRegistry(config.platforms, fetchOf);
  log('platforms registered', {
    platforms: registry.list().map((a) => a.descriptor.id),
    ...(config.platforms.unconfigured.length
      ? { not_configured: Object.fromEntries(config.platforms.unconfigured.map((u) => [u.network, `${u.missing.join(' and ')} not set`])) }
      : {}),
  });
  return registry;
}

/** The media store, URL signer and the access adapters get (bytes + signed public URLs). */
export function buildMedia(config: HeraldConfig, secretKey: string) {
  const store = createLocalMediaStore(config.media.dir);
  const signer = createMediaUrlSigner({
    key: secretKey, publicBaseUrl: config.media.publicBaseUrl, ttlSeconds: config.media.urlTtlSeconds, clock: systemClock,
  });
  const probe = createFfprobe({ pathOf: store.pathOf });
  return {
    store,
    signer,
    access: createMediaAccess(store, signer, createRenditions({ store, pathOf: store.pathOf, probe })),
    probe,
    fetcher: createMediaFetcher(
      createUrlMediaFetcher(store, { allow: config.media.fetchAllow, maxBytes: config.media.maxBytes, timeoutMs: config.media.fetchTimeoutMs }), probe),
  };
}
