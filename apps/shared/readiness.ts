import type { Db } from 'mongodb';
import type Redis from 'ioredis';
import type { Connection } from '@temporalio/client';
import type { ReadinessCheck } from './ops-server';

/** The database answers a ping. */
export const mongoReady = (db: Db): ReadinessCheck => async () => {
  await db.command({ ping: 1 });
  return true;
};

/** Redis is connected and answers a PING (no offline queue: a down Redis fails at once). */
export const redisReady = (redis: Redis): ReadinessCheck => async () => redis.status === 'ready' && (await redis.ping()) === 'PONG';

/** The Temporal frontend answers its health check. */
export const temporalReady = (connection: Connection): ReadinessCheck => async () => {
  await connection.healthService.check({});
  return true;
};
