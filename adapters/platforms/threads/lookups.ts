/**
 * GET /svc/threads/publishing_limit: GET /{threads-user-id}/threads_publishing_limit
 * (Threads "Publishing limits": 250 posts and 1,000 replies per moving 24 hours).
 */
import { PlatformError } from '../../../core/domain/errors';
import type { Lookups } from '../../../core/ports/platform';
import { isObject, num, type Json } from '../kit/http';
import type { ThreadsClient } from './client';

const FIELDS = 'quota_usage,config,reply_quota_usage,reply_config';

export function createThreadsLookups(client: ThreadsClient): Lookups {
  return {
    lists: [],
    records: ['publishing_limit'],
    async list(_ctx, kind) {
      throw new PlatformError('threads', { kind: 'unsupported' }, `Threads has no "${kind}" list.`);
    },
    async read(ctx, kind) {
      if (kind !== 'publishing_limit') throw new PlatformError('threads', { kind: 'unsupported' }, `Threads has no "${kind}" lookup.`);
      const { token, userId } = client.account(ctx.credentials);
      const body = await client.graphCall('GET', `/${encodeURIComponent(userId)}/threads_publishing_limit`, { fields: FIELDS }, token, 'the publishing limit', ctx.signal);
      const row: Json = Array.isArray(body.data) && isObject(body.data[0]) ? body.data[0] : {};
      const quota = (usage: unknown, config: unknown) => {
        const used = num(usage);
        const total = isObject(config) ? num(config.quota_total) : undefined;
        if (used === undefined || total === undefined) throw client.fail({ kind: 'malformed', status: 200, what: 'quota_usage and config.quota_total' });
        const seconds = (isObject(config) ? num(config.quota_duration) : undefined) ?? 86400;
        return { usage: used, total, remaining: Math.max(0, total - used), duration_seconds: seconds };
      };
      return { posts: quota(row.quota_usage, row.config), replies: quota(row.reply_quota_usage, row.reply_config) };
    },
  };
}
