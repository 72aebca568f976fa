import { createMongoConnectStorage } from '../../adapters/mongo/connect-storage';
import { connectStorageContract } from './storage/connect-storage.contract';
import { inFreshDatabase } from '../support/mongo-db';

/** The connect page's repositories on the MongoDB-wire server at MONGODB_URI (FerretDB), each test in a database of its own. */
connectStorageContract('mongo', inFreshDatabase(createMongoConnectStorage));
