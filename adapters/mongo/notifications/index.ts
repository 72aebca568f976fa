import type { Db } from 'mongodb';
import type { NotificationStorage } from '../../../core/usecases/notifications/deps';
import { createMongoNotificationDeliveryLog } from './delivery-log';
import { createMongoNotificationOutbox } from './outbox';
import { createMongoNotificationSettings } from './settings';
import { createMongoNotificationProfileWebhooks } from './profile-webhooks';

/** The notification repositories on `db` (indexes first, one repository after the other). */
export async function createMongoNotificationStorage(db: Db): Promise<NotificationStorage> {
  const settings = await createMongoNotificationSettings(db);
  const profileWebhooks = await createMongoNotificationProfileWebhooks(db);
  const deliveries = await createMongoNotificationDeliveryLog(db);
  const outbox = await createMongoNotificationOutbox(db);
  return { settings, profileWebhooks, deliveries, outbox };
}
