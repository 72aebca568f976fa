import type { Db } from 'mongodb';
import type { NotificationStorage } from '../../core/usecases/notifications';
import { createMongoDeliveryLog } from './delivery-log';
import { createMongoEventOutbox } from './event-outbox';
import { createMongoNotificationSettings } from './notification-settings';
import { createMongoProfileWebhooks } from './profile-webhooks';

/** The notification repositories on `db` (indexes first, one repository after the other). */
export async function createMongoNotificationStorage(db: Db): Promise<NotificationStorage> {
  const settings = await createMongoNotificationSettings(db);
  const profileWebhooks = await createMongoProfileWebhooks(db);
  const deliveries = await createMongoDeliveryLog(db);
  const outbox = await createMongoEventOutbox(db);
  return { settings, profileWebhooks, deliveries, outbox };
}
