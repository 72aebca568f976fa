import { createTemporalUploadRunner } from '../../adapters/temporal/upload-runner';
import { createAuthFailureGuard, createRequestRateLimiter } from '../../adapters/redis/rate-limit';
import { createAesSecretBox, randomIds, s256Pkce, sha256KeyHasher, systemClock } from '../../adapters/crypto/node-crypto';
import { loadConfig, requireSecretKey } from '../shared/config';
import { buildMedia, buildPlatforms, connectMongo, connectRedis, connectTemporal, log } from '../shared/compose';
import { onShutdown } from '../shared/shutdown';
import { createHttpServer } from './http-server';
import { AuthCache } from '../../core/usecases/authenticate';
import { createApi } from './server';
import type { ApiDeps } from './deps';
import { createRequestTiming } from './timing';
import { createMongoConnectStorage } from '../../adapters/mongo/connect-storage';

async function main(): Promise<void> {
  const config = loadConfig();
  const secretKey = requireSecretKey(config);
  const secrets = createAesSecretBox(secretKey);
  const media = buildMedia(config, secretKey);
  const mongo = await connectMongo(config);
  const redis = connectRedis(config);
  const temporal = await connectTemporal(config);

  const connect = await createMongoConnectStorage(mongo.db);
  const timing = config.debugTiming ? createRequestTiming() : undefined;
  if (timing) timing.observe(mongo.client);
  const deps: ApiDeps = {
    storage: mongo.storage,
    leases: mongo.leases,
    platforms: buildPlatforms(config),
    runner: createTemporalUploadRunner(temporal.client, { taskQueue: config.temporal.taskQueue, timing: config.uploadTiming }),
    secrets,
    ids: randomIds,
    clock: systemClock,
    hasher: sha256KeyHasher,
    pkce: s256Pkce,
    guard: createAuthFailureGuard(redis, {
      maxFailures: config.rateLimit.authMaxFailures, blockSeconds: config.rateLimit.authBlockSeconds, keyPrefix: `${config.redisKeyPrefix}:authfail`,
    }),
    authCache: new AuthCache(config.api.authCacheMs),
    limiter: createRequestRateLimiter(redis, {
      points: config.rateLimit.points, windowSeconds: config.rateLimit.windowSeconds, keyPrefix: `${config.redisKeyPrefix}:req`,
    }),
    log,
    mediaStore: media.store,
    media: media.access,
    mediaProbe: media.probe,
    mediaFetcher: media.fetcher,
    mediaUrls: media.signer,
    health: async () => ({
      mongodb: await mongo.db.command({ ping: 1 }).then(() => true, () => false),
      redis: redis.status === 'ready',
      temporal: await temporal.connection.healthService.check({}).then(() => true, () => false),
    }),
    connect,
  };
  const app = createApi(timing ? timing.instrument(deps) : deps, { namespace: config.namespace, syncTimeoutMs: config.api.syncTimeoutMs, trustProxy: config.api.trustProxy, maxUploadBytes: config.media.maxBytes, duplicateWindowMs: config.api.duplicateWindowMs, statusCacheMs: config.api.statusCacheMs, publicBaseUrl: config.media.publicBaseUrl, connectLinks: { ttlMs: config.web.connectLinkTtlMs, webBaseUrl: config.web.publicBaseUrl } });

  // Synchronous uploads may hold a request for up to a minute.
  const server = createHttpServer(app, { requestTimeoutMs: config.api.syncTimeoutMs + 30_000, ...(timing ? { wrap: timing.handler } : {}) });
  await new Promise<void>((resolve) => server.listen(config.api.port, config.api.host, resolve));
  log('herald api listening', { url: `http://${config.api.host}:${config.api.port}/api`, namespace: config.namespace });

  onShutdown(config.api.shutdownGraceMs, async () => {
    // Stop accepting; in-flight requests finish (their uploads run on in Temporal either way).
    server.closeIdleConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await Promise.allSettled([mongo.client.close(), redis.quit(), temporal.connection.close()]);
  }, () => server.closeAllConnections());
}

main().catch((err) => {
  log('herald api failed to start', { error: (err as Error).message });
  process.exit(1);
});
