import { createTemporalUploadRunner } from '../../adapters/temporal/upload-runner';
import { randomIds, s256Pkce, sha256KeyHasher, systemClock } from '../../adapters/crypto/node-crypto';
import { createMongoConnectStorage } from '../../adapters/mongo/connect-storage';
import { deleteExpiredConnectLinks } from '../../core/usecases/connect-links';
import { createHmac } from 'node:crypto';
import { loadConfig, requireSecretKey } from '../shared/config';
import { buildMedia, buildPlatforms, buildSecretBox, connectMongo, connectRecordChanges, connectTemporal, log } from '../shared/compose';
import { onShutdown } from '../shared/shutdown';
import { createHttpServer } from '../api/http-server';
import { createWeb } from './server';
import { createMongoNotificationOutbox } from '../../adapters/mongo/notifications/outbox';
import { lifecycleWiring } from '../shared/lifecycle';
import { startObservability } from '../shared/observability';
import { mongoReady, temporalReady } from '../shared/readiness';

/** How often expired connect links and sessions are deleted (FerretDB has no TTL indexes). */
const CLEANUP_EVERY_MS = 10 * 60_000;

/**
 * The hosted connect page and calendar (`{app_url}/connect`): server-rendered HTML on its own
 * port, over the same database, networks and Temporal as the API.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const observability = startObservability(config, 'web');
  const secretKey = requireSecretKey(config);
  const media = buildMedia(config, secretKey);
  // Connects, reconnects and pins made on the page reach the API's caches at once.
  const changes = connectRecordChanges(config);
  const mongo = await connectMongo(config, { announce: changes.publisher, stamps: changes.stamps });
  const temporal = await connectTemporal(config);
  const connect = await createMongoConnectStorage(mongo.db);
  const app = createWeb({
    storage: mongo.storage,
    leases: mongo.leases,
    connect,
    platforms: buildPlatforms(config),
    runner: createTemporalUploadRunner(temporal.client, { taskQueue: config.temporal.taskQueue, timing: config.uploadTiming }),
    secrets: buildSecretBox(config),
    media: media.access,
    ids: randomIds,
    clock: systemClock,
    hasher: sha256KeyHasher,
    pkce: s256Pkce,
    log,
    // Connects and disconnects made on the page are lifecycle transitions: events, refresh-ahead, pauses.
    notifier: await createMongoNotificationOutbox(mongo.db),
    ...lifecycleWiring(temporal.client, config),
  }, {
    publicBaseUrl: config.web.publicBaseUrl,
    apiPublicBaseUrl: config.media.publicBaseUrl,
    namespace: config.namespace,
    // A key of its own derived from the secret key: CSRF tokens never reveal anything about it.
    csrfKey: createHmac('sha256', Buffer.from(secretKey, 'base64')).update('herald web csrf v1').digest('base64'),
    trustProxy: config.api.trustProxy,
    telemetry: { logger: observability.logger, metrics: observability.metrics },
  });
  const server = createHttpServer(app, { requestTimeoutMs: 60_000 });
  await new Promise<void>((resolve) => server.listen(config.web.port, config.web.host, resolve));
  log('herald web listening', { url: `http://${config.web.host}:${config.web.port}/connect`, public_url: config.web.publicBaseUrl });
  // The operator port: /healthz, /readyz (MongoDB, Temporal), /metrics.
  await observability.serveOps({ mongodb: mongoReady(mongo.db), temporal: temporalReady(temporal.connection) });

  const cleanup = setInterval(() => {
    deleteExpiredConnectLinks({ connect, clock: systemClock })
      .then((n) => { if (n) log('expired connect links deleted', { count: n }); })
      .catch((err: Error) => log('connect link cleanup failed', { error: err.message }));
  }, CLEANUP_EVERY_MS);
  cleanup.unref();

  onShutdown(config.web.shutdownGraceMs, async () => {
    clearInterval(cleanup);
    server.closeIdleConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await Promise.allSettled([mongo.client.close(), temporal.connection.close(), changes.close(), observability.shutdown()]);
  }, () => server.closeAllConnections());
}

main().catch((err) => {
  log('herald web failed to start', { error: (err as Error).message });
  process.exit(1);
});
