import type { NotificationStorage } from '../../../core/usecases/notifications/deps';
import { createMemoryNotificationDeliveryLog } from './delivery-log';
import { createMemoryNotificationOutbox } from './outbox';
import { createMemoryNotificationSettings } from './settings';
import { createMemoryNotificationProfileWebhooks } from './profile-webhooks';

export function createMemoryNotificationStorage(clock?: { now(): Date }): NotificationStorage & { outbox: ReturnType<typeof createMemoryNotificationOutbox> } {
  return {
    settings: createMemoryNotificationSettings(),
    profileWebhooks: createMemoryNotificationProfileWebhooks(),
    deliveries: createMemoryNotificationDeliveryLog(),
    outbox: createMemoryNotificationOutbox(clock),
  };
}
