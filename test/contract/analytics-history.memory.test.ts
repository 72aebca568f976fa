import { NETWORK_IMPRESSIONS } from '../../adapters/platforms';
import { createMemoryAnalyticsSnapshots, createMemoryPostMetricsCaptures } from '../../adapters/memory/analytics-history';
import { analyticsSnapshotsContract, postMetricsCapturesContract } from './storage/analytics-history.contract';
import type { MakeRepository } from './storage/repository-under-test';

const fresh = <R>(create: () => R): MakeRepository<R> => async () => ({ repository: create(), cleanup: async () => {} });

analyticsSnapshotsContract('memory', fresh(() => createMemoryAnalyticsSnapshots(NETWORK_IMPRESSIONS)));
postMetricsCapturesContract('memory', fresh(createMemoryPostMetricsCaptures));
