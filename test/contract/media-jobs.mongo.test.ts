import { createMongoMediaJobs } from '../../adapters/mongo/media-jobs';
import { createMongoMediaUsage } from '../../adapters/mongo/media-usage';
import { mediaJobsContract, mediaUsageContract } from './storage/media-jobs.contract';
import { inFreshDatabase } from '../support/mongo-db';

/** The media job and usage contracts on the MongoDB-wire server at MONGODB_URI (FerretDB), a database per test. */
mediaJobsContract('mongo', inFreshDatabase(createMongoMediaJobs));
mediaUsageContract('mongo', inFreshDatabase(createMongoMediaUsage));
