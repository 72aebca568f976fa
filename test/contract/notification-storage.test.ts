import { createMemoryNotificationStorage } from '../../adapters/memory/notifications';
import { createMongoNotificationStorage } from '../../adapters/mongo/notifications';
import { notificationStorageContract } from './storage/notifications.contract';
import { inFreshDatabase } from '../support/mongo-db';

/** The notification repositories' contract on memory and on the MongoDB-wire server at MONGODB_URI (FerretDB). */
notificationStorageContract('memory', async () => ({ repository: createMemoryNotificationStorage(), cleanup: async () => {} }));

notificationStorageContract('mongo', inFreshDatabase(createMongoNotificationStorage));
