import { createMemoryMediaJobs } from '../../adapters/memory/media-jobs';
import { createMemoryMediaUsage } from '../../adapters/memory/media-usage';
import { mediaJobsContract, mediaUsageContract } from './storage/media-jobs.contract';
import type { MakeRepository } from './storage/repository-under-test';

const fresh = <R>(create: () => R): MakeRepository<R> => async () => ({ repository: create(), cleanup: async () => {} });

mediaJobsContract('memory', fresh(createMemoryMediaJobs));
mediaUsageContract('memory', fresh(createMemoryMediaUsage));
