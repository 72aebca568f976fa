import { createTemporalUploadRunner } from '../../adapters/temporal/upload-runner';
import { createMongoNotificationOutbox } from '../../adapters/mongo/notifications/outbox';
import { lifecycleWiring } from '../shared/lifecycle';
import { createAuthFailureGuard, createRequestRateLimiter } from '../../adapters/redis/rate-limit';
import { createRedisResultCache } from '../../adapters/redis/cache';
import { createRedisDuplicateWindow } from '../../adapters/redis/duplicate-window';
import { randomIds, s256Pkce, sha256KeyHasher, systemClock } from '../../adapters/crypto/node-crypto';
import { loadConfig, requireSecretKey } from '../shared/config';
import { buildMedia, buildPlatforms, buildSecretBox, connectMongo, connectRecordChanges, connectRedis, connectTemporal, log } from '../shared/compose';
import { onShutdown } from '../shared/shutdown';
import { createHttpServer } from './http-server';
import { AuthCache } from '../../core/usecases/authenticate';
import { ConnectionReadCache, ProfileReadCache } from '../../core/usecases/connection-read-cache';
import { createRedisRecordChangeFeed } from '../../adapters/redis/record-changes';
import { createApi } from './server';
import type { ApiDeps } from './deps';
import { createRequestTiming } from './timing';
import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import { startObservability } from '../shared/observability';
import { mongoReady, redisReady, temporalReady } from '../shared/readiness';
import { readiness } from '../shared/ops-server';
import { buildMediaJobs } from '../shared/media-jobs';
import { buildMediaUploads } from '../shared/media-uploads';
import { expireMediaUploads } from '../../core/usecases/media-uploads';
import { createTemporalMediaJobRunner } from '../../adapters/temporal/media-jobs';
import { createMediaJobOutputLinks } from '../../adapters/media/signed-urls';
import { documentPath } from './catalogue/mount';
import { downloadMediaJobOutput } from './catalogue/media-jobs';
import { buildNotifications } from '../shared/notifications';
import { buildAnalyticsApi } from '../shared/analytics';
import { createMongoConnectStorage } from '../../adapters/mongo/connect-storage';
import { createMongoAgentOAuthStore } from '../../adapters/mongo/agent-oauth';
import { agentResourceOf } from '../../core/domain/agent-oauth';

async function main(): Promise<void> {
  const config = loadConfig();
  const observability = startObservability(config, 'api');
  const secretKey = requireSecretKey(config);
  const secrets = buildSecretBox(config);
  const media = buildMedia(config, secretKey);
  const changes = connectRecordChanges(config);
  const mongo = await connectMongo(config, { announce: changes.publisher, stamps: changes.stamps });
  const redis = connectRedis(config);
  // Every daemon's profile and connection writes, announced: the caches below drop them as they land.
  const changeFeed = createRedisRecordChangeFeed(config.redisUrl, { channel: changes.channel, log });
  // Traced: the workflow start carries the request's trace context into the workflow and its activities.
  const temporal = await connectTemporal(config, observability.tracing.enabled ? { interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } } : {});
  const checks = { mongodb: mongoReady(mongo.db), redis: redisReady(redis), temporal: temporalReady(temporal.connection) };

  const mediaJobs = await buildMediaJobs(config, mongo.db, media.store, log);
  const connect = await createMongoConnectStorage(mongo.db);
  const mediaUploads = await buildMediaUploads(config, mongo.db, mongo.storage, media, secretKey);
  const timing = config.debugTiming ? createRequestTiming() : undefined;
  if (timing) timing.observe(mongo.client);
  const deps: ApiDeps = {
    storage: mongo.storage,
    leases: mongo.leases,
    platforms: buildPlatforms(config, observability.fetchOf),
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
    agentTokens: { store: await createMongoAgentOAuthStore(mongo.db), resource: agentResourceOf(config.mcp.publicBaseUrl) },
    limiter: createRequestRateLimiter(redis, {
      points: config.rateLimit.points, windowSeconds: config.rateLimit.windowSeconds, keyPrefix: `${config.redisKeyPrefix}:req`, lease: config.rateLimit.lease,
    }),
    duplicates: createRedisDuplicateWindow(redis, { keyPrefix: `${config.redisKeyPrefix}:dup` }),
    log,
    mediaStore: media.store,
    media: media.access,
    mediaProbe: media.probe,
    mediaFetcher: media.fetcher,
    mediaUrls: media.signer,
    notifier: await createMongoNotificationOutbox(mongo.db),
    ...lifecycleWiring(temporal.client, config),
    mediaUploads,
    mediaJobs: {
      ...mediaJobs, ids: randomIds, clock: systemClock,
      outputLinks: createMediaJobOutputLinks({
        key: secretKey, publicBaseUrl: config.media.publicBaseUrl, ttlSeconds: config.media.urlTtlSeconds, clock: systemClock,
        pathOf: (jobId) => documentPath(downloadMediaJobOutput, config.namespace).replace('{job_id}', encodeURIComponent(jobId)),
      }),
      runner: createTemporalMediaJobRunner(temporal.client, { taskQueue: config.mediaJobs.taskQueue, timing: config.mediaJobs.timing }),
    },
    notifications: await buildNotifications(config, mongo.db, mongo.storage, secrets, temporal.client),
    health: async () => (await readiness(checks)).checks,
    telemetry: { logger: observability.logger, metrics: observability.metrics },
    metrics: observability.metrics,
    connect,
    analytics: { cache: createRedisResultCache(redis, { keyPrefix: `${config.redisKeyPrefix}:cache` }), cacheTtlMs: config.analytics.cacheMs },
    analyticsHistory: await buildAnalyticsApi(config, mongo.db, redis),
    uploadVersions: changes.stamps,
    ...(config.api.connectionCacheMs > 0 ? {
      connectionCache: new ConnectionReadCache({ ttlMs: config.api.connectionCacheMs, clock: systemClock }),
      profileCache: new ProfileReadCache({ ttlMs: config.api.connectionCacheMs, clock: systemClock }),
      changeFeed,
    } : {}),
  };
  deps.connectionCache?.follow(changeFeed);
  deps.profileCache?.follow(changeFeed);
  const app = createApi(timing ? timing.instrument(deps) : deps, { namespace: config.namespace, syncTimeoutMs: config.api.syncTimeoutMs, trustProxy: config.api.trustProxy, maxUploadBytes: config.media.maxBytes, uploadDir: media.store.stagingDir, duplicateWindowMs: config.api.duplicateWindowMs, statusCacheMs: config.api.statusCacheMs, publicBaseUrl: config.media.publicBaseUrl, connectLinks: { ttlMs: config.web.connectLinkTtlMs, webBaseUrl: config.web.publicBaseUrl }, checkResponses: config.checkResponses });

  // Synchronous uploads may hold a request for up to a minute.
  const server = createHttpServer(app, { requestTimeoutMs: config.api.syncTimeoutMs + 30_000, ...(timing ? { wrap: timing.handler } : {}) });
  await new Promise<void>((resolve) => server.listen(config.api.port, config.api.host, resolve));
  log('herald api listening', { url: `http://${config.api.host}:${config.api.port}/api`, namespace: config.namespace });
  await observability.serveOps(checks);
  // Expired staged uploads go with their bytes (several API processes may sweep: deletes are idempotent).
  const sweep = setInterval(() => {
    expireMediaUploads(mediaUploads).catch((err: unknown) => log('media upload cleanup failed', { error: (err as Error).message }));
  }, config.mediaUploads.cleanupIntervalMs);
  sweep.unref();

  onShutdown(config.api.shutdownGraceMs, async () => {
    clearInterval(sweep);
    // Stop accepting; in-flight requests finish (their uploads run on in Temporal either way).
    server.closeIdleConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await Promise.allSettled([mongo.client.close(), redis.quit(), changeFeed.close(), changes.close(), temporal.connection.close(), observability.shutdown()]);
  }, () => server.closeAllConnections());
}

main().catch((err) => {
  log('herald api failed to start', { error: (err as Error).message });
  process.exit(1);
});
