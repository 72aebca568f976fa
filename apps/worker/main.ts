import { NativeConnection, Worker } from '@temporalio/worker';
import { createUploadActivities } from '../../workflows/activities/upload';
import { createAccountPauseActivities } from '../../workflows/activities/account-pause';
import { createCheckpointProbeActivities } from '../../workflows/activities/checkpoint-probe';
import type { OperatorAccount } from '../../core/domain/operator';
import type { Storage } from '../../core/ports/storage';
import { createTemporalUploadRunner } from '../../adapters/temporal/upload-runner';
import { createTemporalAccountPauses } from '../../adapters/temporal/account-pauses';
import { createTemporalCheckpointProbes } from '../../adapters/temporal/checkpoint-probes';
import { createMongoEventOutbox } from '../../adapters/mongo/event-outbox';
import { createAesSecretBox, systemClock } from '../../adapters/crypto/node-crypto';
import { loadConfig, requireSecretKey } from '../shared/config';
import { buildMedia, buildPlatforms, connectMongo, connectTemporal, log, logMongoCommands } from '../shared/compose';
import { startPendingReconciler } from './reconciler';
import { createNotificationActivities } from '../../workflows/activities/notifications';
import { buildNotifications } from '../shared/notifications';
import { startNotificationDispatcher } from './notify-dispatcher';

/**
 * Operator accounts as the worker reads them: each publish's event carries the operator's email,
 * which never changes, and the plan may be a minute old. One read per account and minute instead
 * of one per published target.
 */
function withOperatorsCached(storage: Storage, ttlMs = 60_000): Storage {
  const cache = new Map<string, { at: number; account: Promise<OperatorAccount | null> }>();
  const findById = (id: string): Promise<OperatorAccount | null> => {
    const now = Date.now();
    const hit = cache.get(id);
    if (hit && now - hit.at < ttlMs) return hit.account;
    if (cache.size > 10_000) cache.clear();
    const account = storage.operators.findById(id);
    cache.set(id, { at: now, account });
    // A failed read is not remembered.
    account.catch(() => cache.delete(id));
    return account;
  };
  return { ...storage, operators: { ...storage.operators, findById } };
}

async function main(): Promise<void> {
  const config = loadConfig();
  const secretKey = requireSecretKey(config);
  const secrets = createAesSecretBox(secretKey);
  const media = buildMedia(config, secretKey);
  const mongo = await connectMongo(config);
  const stopCommandLog = config.debugTiming ? logMongoCommands(mongo.client) : undefined;
  const notifier = await createMongoEventOutbox(mongo.db);
  const temporal = await connectTemporal(config);

  const platforms = buildPlatforms(config);
  const notifications = await buildNotifications(config, mongo.db, mongo.storage, secrets, temporal.client);
  const connection = await NativeConnection.connect({ address: config.temporal.address });
  const worker = await Worker.create({
    connection,
    namespace: config.temporal.namespace,
    taskQueue: config.temporal.taskQueue,
    workflowsPath: require.resolve('../../workflows/index'),
    // One factory per workflow; the activity names are those recorded in workflow histories.
    activities: {
      ...createUploadActivities({
        storage: withOperatorsCached(mongo.storage), leases: mongo.leases, platforms, secrets, notifier, clock: systemClock, media: media.access, mediaFetcher: media.fetcher,
        pauses: createTemporalAccountPauses(temporal.client, { taskQueue: config.temporal.taskQueue }),
        checkpointProbes: createTemporalCheckpointProbes(temporal.client, { taskQueue: config.temporal.taskQueue, intervalMs: config.checkpointProbe.intervalMs }),
      }),
      ...createAccountPauseActivities({ storage: mongo.storage, clock: systemClock }),
      ...createCheckpointProbeActivities({ storage: mongo.storage, leases: mongo.leases, platforms, secrets, clock: systemClock }),
      ...createNotificationActivities(notifications),
    },
    // On SIGTERM running activities get this long to finish; what remains is handed back to Temporal.
    shutdownGraceTime: config.api.shutdownGraceMs,
  });

  // Uploads stored while Temporal was unreachable get their workflow here (starting is idempotent).
  const reconciler = startPendingReconciler({
    storage: mongo.storage,
    runner: createTemporalUploadRunner(temporal.client, { taskQueue: config.temporal.taskQueue, timing: config.uploadTiming }),
    clock: systemClock,
    log,
    ...config.reconciler,
  });

  // The event outbox → each channel's breaker workflow (webhook:<channel>).
  const dispatcher = startNotificationDispatcher({ deps: notifications, log, pollMs: config.notifications.pollMs, cleanupIntervalMs: config.notifications.cleanupIntervalMs });

  log('herald worker running', { task_queue: config.temporal.taskQueue, temporal: config.temporal.address });
  // Worker.run resolves after SIGTERM/SIGINT once in-flight work is finished or handed back.
  await worker.run();
  reconciler.stop();
  await dispatcher.stop();
  stopCommandLog?.();
  await Promise.allSettled([connection.close(), temporal.connection.close(), mongo.client.close()]);
  log('herald worker stopped', {});
}

main().catch((err) => {
  log('herald worker failed', { error: (err as Error).stack ?? String(err) });
  process.exit(1);
});
