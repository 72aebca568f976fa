import { createMongoMediaUploads } from '../../adapters/mongo/media-uploads';
import { mediaUploadsContract } from './storage/media-uploads.contract';
import { inFreshDatabase } from '../support/mongo-db';

/** Staged media uploads on the MongoDB-wire server at MONGODB_URI (FerretDB), each test in a database of its own. */
mediaUploadsContract('mongo', inFreshDatabase((db) => createMongoMediaUploads(db)));
