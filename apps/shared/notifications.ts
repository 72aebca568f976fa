import type { Db } from 'mongodb';
import type { Client } from '@temporalio/client';
import type { Storage } from '../../core/ports/storage';
import type { SecretBox } from '../../core/ports/system';
import type { NotificationDeps } from '../../core/usecases/notifications/deps';
import { createMongoNotificationStorage } from '../../adapters/mongo/notifications';
import { createNotificationSenders } from '../../adapters/notifications/senders';
import { createWebhookUrlGuard } from '../../adapters/notifications/url-guard';
import { AllowList } from '../../adapters/net/destination';
import { webhookCrypto } from '../../adapters/notifications/signature';
import { createTemporalNotificationChannelQueue } from '../../adapters/temporal/notification-channels';
import { randomIds, systemClock } from '../../adapters/crypto/node-crypto';
import type { HeraldConfig } from './config';

/** Notifications as the API and the worker both use them: storage, senders, SSRF rules, the breaker workflows. */
export async function buildNotifications(config: HeraldConfig, db: Db, storage: Pick<Storage, 'profiles'>, secrets: SecretBox, temporal: Client): Promise<NotificationDeps & { queue: NonNullable<NotificationDeps['queue']> }> {
  const n = config.notifications;
  return {
    storage,
    notifications: await createMongoNotificationStorage(db),
    senders: createNotificationSenders({ headerPrefix: n.headerPrefix, userAgent: n.userAgent, timeoutMs: n.receiverTimeoutMs, allow: n.allow, loopback: n.allowLoopback, telegram: n.telegram }),
    guard: createWebhookUrlGuard({ allow: new AllowList(n.allow), loopback: n.allowLoopback }),
    crypto: webhookCrypto,
    secrets,
    ids: randomIds,
    clock: systemClock,
    retentionMs: n.retentionMs,
    eventRetentionMs: n.eventRetentionMs,
    queue: createTemporalNotificationChannelQueue(temporal, {
      // The notify pool's queue (runs started on the publishing queue before it existed move there at their next delivery).
      taskQueue: n.taskQueue,
      timing: {
        failureThreshold: n.breakerFailures, pauseMs: n.breakerPauseMs, receiverTimeoutMs: n.receiverTimeoutMs,
        heartbeatTimeoutMs: config.uploadTiming.heartbeatTimeoutMs, idleMs: n.channelIdleMs,
      },
    }),
  };
}
