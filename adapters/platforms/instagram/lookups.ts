/**
 * GET /svc/instagram/publishing_limit: GET /{ig-user-id}/content_publishing_limit?fields=quota_usage,config
 * (Instagram Content Publishing, "Rate Limit"): API-published posts in the moving 24-hour window.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { Lookups } from '../../../core/ports/platform';
import { isObject, num } from '../kit/http';
import type { InstagramClient } from './client';

export function createInstagramLookups(client: InstagramClient): Lookups {
  return {
    lists: [],
    records: ['publishing_limit'],
    async list(_ctx, kind) {
      throw new PlatformError('instagram', { kind: 'unsupported' }, `Instagram has no "${kind}" list.`);
    },
    async read(ctx, kind) {
      if (kind !== 'publishing_limit') throw new PlatformError('instagram', { kind: 'unsupported' }, `Instagram has no "${kind}" lookup.`);
      const { token, igUserId } = client.account(ctx.credentials);
      const body = await client.meta.graphCall('GET', `/${encodeURIComponent(igUserId)}/content_publishing_limit`,
        { fields: 'quota_usage,config' }, token, 'the publishing limit', {}, ctx.signal);
      const row = Array.isArray(body.data) && isObject(body.data[0]) ? body.data[0] : undefined;
      const config = row && isObject(row.config) ? row.config : {};
      const used = num(row?.quota_usage);
      const total = num(config.quota_total);
      if (used === undefined || total === undefined) throw client.fail({ kind: 'malformed', status: 200, what: 'quota_usage and config.quota_total' });
      const seconds = num(config.quota_duration) ?? 86400;
      return { quota_usage: used, quota_total: total, quota_remaining: Math.max(0, total - used), quota_duration_seconds: seconds };
    },
  };
}
