/**
 * The media library: POST /v2/video/list/ (Display API "List Videos", scope video.list): the
 * user's public videos newest first, `max_count` up to 20, `cursor` a millisecond timestamp that
 * TikTok hands back with `has_more`. TikTok gives no direct media URL (the spec: use the
 * permalink, `share_url`); the cover image is the thumbnail.
 */
import type { LibraryMedia, MediaLibrary } from '../../../core/ports/platform';
import { isObject, num, str } from '../kit/http';
import type { TikTokClient } from './client';
import { fail } from './client';

const FIELDS = 'id,create_time,cover_image_url,share_url,title,video_description';

export function createTikTokMediaLibrary(client: TikTokClient): MediaLibrary {
  return {
    maxLimit: 20,
    cursors: true,
    async list(ctx, { limit, cursor }) {
      const at = cursor === undefined ? undefined : Number(cursor);
      if (cursor !== undefined && (!/^\d+$/.test(cursor) || !Number.isSafeInteger(at))) {
        throw fail({ kind: 'invalid_content', code: 'invalid_cursor' }, 'This cursor was not handed out by the TikTok media list; send pagination.next_cursor back unchanged.');
      }
      const data = await client.api(client.tokenOf(ctx), 'POST', `/v2/video/list/?fields=${FIELDS}`,
        { max_count: limit, ...(at !== undefined ? { cursor: at } : {}) }, ctx.signal);
      if (!Array.isArray(data.videos)) throw client.failure({ kind: 'malformed', status: 200, what: 'a video list' });
      const items = data.videos.filter(isObject).flatMap((v): LibraryMedia[] => {
        const id = str(v.id) ?? (typeof v.id === 'number' ? String(v.id) : undefined);
        if (!id) return [];
        const created = num(v.create_time);
        const caption = str(v.video_description) ?? str(v.title);
        return [{
          id, mediaType: 'VIDEO',
          ...(caption ? { caption } : {}),
          ...(str(v.share_url) ? { permalink: str(v.share_url) } : {}),
          ...(str(v.cover_image_url) ? { thumbnailUrl: str(v.cover_image_url) } : {}),
          ...(created !== undefined ? { timestamp: new Date(created * 1000).toISOString() } : {}),
        }];
      });
      const next = num(data.cursor);
      return { items, ...(data.has_more === true && next !== undefined && items.length ? { cursor: String(next) } : {}) };
    },
  };
}
