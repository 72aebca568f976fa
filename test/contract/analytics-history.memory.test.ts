import { createMemoryAnalyticsSnapshots, createMemoryPostMetricsCaptures } from '../../adapters/memory/analytics-history';
import { analyticsSnapshotsContract, postMetricsCapturesContract } from './storage/analytics-history.contract';
import type { MakeRepository } from './storage/repository-under-test';

const fresh = <R>(create: () => R): MakeRepository<R> => async () => ({ repository: create(), cleanup: async () => {} });

analyticsSnapshotsContract('memory', fresh(createMemoryAnalyticsSnapshots));
postMetricsCapturesContract('memory', fresh(createMemoryPostMetricsCaptures));
