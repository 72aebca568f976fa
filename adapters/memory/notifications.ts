import type { NotificationStorage } from '../../core/usecases/notifications';
import { createMemoryDeliveryLog } from './delivery-log';
import { createMemoryEventOutbox } from './event-outbox';
import { createMemoryNotificationSettings } from './notification-settings';
import { createMemoryProfileWebhooks } from './profile-webhooks';

export function createMemoryNotificationStorage(clock?: { now(): Date }): NotificationStorage & { outbox: ReturnType<typeof createMemoryEventOutbox> } {
  return {
    settings: createMemoryNotificationSettings(),
    profileWebhooks: createMemoryProfileWebhooks(),
    deliveries: createMemoryDeliveryLog(),
    outbox: createMemoryEventOutbox(clock),
  };
}
