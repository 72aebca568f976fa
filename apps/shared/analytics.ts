import type { Db } from 'mongodb';
import type Redis from 'ioredis';
import { createMongoAnalyticsSnapshots, createMongoPostMetricsCaptures } from '../../adapters/mongo/analytics-history';
import { createRedisPostMetricsCache } from '../../adapters/redis/post-metrics-cache';
import { createRequestRateLimiter } from '../../adapters/redis/rate-limit';
import type { HeraldConfig } from './config';

/** The analytics history's repositories (both daemons). */
export async function buildAnalyticsStorage(config: HeraldConfig, db: Db) {
  return {
    snapshots: await createMongoAnalyticsSnapshots(db, { concurrency: config.analytics.readConcurrency }),
    captures: await createMongoPostMetricsCaptures(db),
  };
}

/** What the API's analytics routes need beyond ApiDeps: storage, the live limit and the cache (Redis). */
export async function buildAnalyticsApi(config: HeraldConfig, db: Db, redis: Redis, log?: (message: string, fields?: Record<string, unknown>) => void) {
  return {
    ...(await buildAnalyticsStorage(config, db)),
    cache: createRedisPostMetricsCache(redis, { keyPrefix: `${config.redisKeyPrefix}:postmetrics`, ...(log ? { log } : {}) }),
    liveLimiter: createRequestRateLimiter(redis, {
      points: config.analytics.liveLimit.points, windowSeconds: config.analytics.liveLimit.windowSeconds, keyPrefix: `${config.redisKeyPrefix}:postanalytics`,
    }),
    cacheMs: config.analytics.liveCacheMs,
    captureRetentionMs: config.analytics.captureRetentionMs,
    snapshotLookbackDays: config.analytics.snapshotLookbackDays,
  };
}
