import type { Db } from 'mongodb';
import type Redis from 'ioredis';
import { createMongoAnalyticsSnapshots, createMongoPostMetricsCaptures } from '../../adapters/mongo/analytics-history';
import { NETWORK_IMPRESSIONS } from '../../adapters/platforms';
import { createRedisResultCache } from '../../adapters/redis/cache';
import { createRequestRateLimiter } from '../../adapters/redis/rate-limit';
import type { HeraldConfig } from './config';

/** The analytics history's repositories (both daemons). */
export async function buildAnalyticsStorage(config: HeraldConfig, db: Db) {
  return {
    snapshots: await createMongoAnalyticsSnapshots(db, { impressions: NETWORK_IMPRESSIONS, concurrency: config.analyticsHistory.readConcurrency }),
    captures: await createMongoPostMetricsCaptures(db),
  };
}

/** What the API's analytics routes need beyond ApiDeps: storage, the live limit and the cache (Redis). */
export async function buildAnalyticsApi(config: HeraldConfig, db: Db, redis: Redis) {
  return {
    ...(await buildAnalyticsStorage(config, db)),
    cache: createRedisResultCache(redis, { keyPrefix: `${config.redisKeyPrefix}:cache` }),
    liveLimiter: createRequestRateLimiter(redis, {
      points: config.analyticsHistory.liveLimit.points, windowSeconds: config.analyticsHistory.liveLimit.windowSeconds, keyPrefix: `${config.redisKeyPrefix}:postanalytics`,
    }),
    cacheMs: config.analyticsHistory.liveCacheMs,
    captureRetentionMs: config.analyticsHistory.captureRetentionMs,
    snapshotLookbackDays: config.analyticsHistory.snapshotLookbackDays,
  };
}
