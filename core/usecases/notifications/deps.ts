import { forbidden } from '../../domain/errors';
import type { NotificationChannelQueue, NotificationSenders, WebhookCrypto, WebhookUrlGuard } from '../../ports/notification-channels';
import type { NotificationDeliveryLogRepository } from '../../ports/storage/notification-delivery-log';
import type { NotificationOutboxRepository } from '../../ports/storage/notification-outbox';
import type { NotificationProfileWebhookRepository } from '../../ports/storage/notification-profile-webhooks';
import type { NotificationSettingsRepository } from '../../ports/storage/notification-settings';
import type { Storage } from '../../ports/storage';
import type { Clock, IdGenerator, SecretBox } from '../../ports/system';

/** The notification repositories, built together by each adapter. */
export interface NotificationStorage {
  settings: NotificationSettingsRepository;
  profileWebhooks: NotificationProfileWebhookRepository;
  deliveries: NotificationDeliveryLogRepository;
  outbox: NotificationOutboxRepository;
}

export interface NotificationDeps {
  storage: Pick<Storage, 'profiles'>;
  notifications: NotificationStorage;
  senders: NotificationSenders;
  guard: WebhookUrlGuard;
  crypto: WebhookCrypto;
  secrets: SecretBox;
  ids: IdGenerator;
  clock: Clock;
  /** How long delivery attempts are kept (HERALD_DELIVERY_LOG_RETENTION_DAYS, 30 days). */
  retentionMs: number;
  /**
   * How long an event is kept after it was handed to its channels (HERALD_EVENT_RETENTION_DAYS,
   * 30 days): a redelivery needs it. Absent: as long as the attempts.
   */
  eventRetentionMs?: number;
  /** The breaker workflows; the API reads their state and resumes them when an address changes. */
  queue?: NotificationChannelQueue;
}

/**
 * Authentication 6: webhook configuration accepts the account's own credential (the API key;
 * a dashboard session later). A profile-scoped credential (the connect token) cannot change
 * webhooks: 403. Callers without a scope are API-key callers.
 */
export function requireAccountPrincipal(caller: { scope?: string }): void {
  if (caller.scope !== undefined && caller.scope !== 'account') {
    throw forbidden('Webhook and notification settings need the account API key; a profile-scoped token cannot change them.', 'account_key_required');
  }
}
