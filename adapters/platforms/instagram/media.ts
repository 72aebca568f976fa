/**
 * The media library: GET /{ig-user-id}/media (Instagram API with Instagram Login, "IG User Media"),
 * newest first, carousel children expanded in the same call, paged with Graph's cursor-based
 * pagination (`after`; `paging.next` is absent on the last page). Stories are not part of it.
 */
import type { LibraryMedia, LibraryMediaChild, LibraryMediaType, MediaLibrary } from '../../../core/ports/platform';
import { isObject, str, type Json } from '../kit/http';
import type { InstagramClient } from './client';

const CHILD_FIELDS = 'id,media_type,media_url,thumbnail_url,timestamp';
const FIELDS = `id,caption,media_type,media_url,permalink,thumbnail_url,timestamp,children{${CHILD_FIELDS}}`;

const typeOf = (v: unknown): LibraryMediaType => (v === 'VIDEO' ? 'VIDEO' : v === 'CAROUSEL_ALBUM' ? 'CAROUSEL_ALBUM' : 'IMAGE');
/** Graph writes `2026-01-01T10:00:00+0000`; the spec wants ISO-8601 as JavaScript writes it. */
export const isoTime = (v: unknown): string | undefined => {
  const t = typeof v === 'string' ? Date.parse(v.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')) : NaN;
  return Number.isFinite(t) ? new Date(t).toISOString() : undefined;
};

function child(c: Json): LibraryMediaChild | undefined {
  const id = str(c.id);
  if (!id) return undefined;
  const mediaType = c.media_type === 'VIDEO' ? 'VIDEO' : 'IMAGE';
  return {
    id, mediaType,
    ...(str(c.media_url) ? { mediaUrl: str(c.media_url) } : {}),
    ...(mediaType === 'VIDEO' && str(c.thumbnail_url) ? { thumbnailUrl: str(c.thumbnail_url) } : {}),
    ...(isoTime(c.timestamp) ? { timestamp: isoTime(c.timestamp) } : {}),
  };
}

export function item(m: Json): LibraryMedia | undefined {
  const id = str(m.id);
  if (!id) return undefined;
  const mediaType = typeOf(m.media_type);
  const children = isObject(m.children) && Array.isArray(m.children.data)
    ? m.children.data.filter(isObject).map(child).filter((c): c is LibraryMediaChild => c !== undefined) : undefined;
  return {
    id, mediaType,
    ...(str(m.caption) ? { caption: str(m.caption) } : {}),
    ...(str(m.media_url) ? { mediaUrl: str(m.media_url) } : {}),
    ...(str(m.permalink) ? { permalink: str(m.permalink) } : {}),
    ...(isoTime(m.timestamp) ? { timestamp: isoTime(m.timestamp) } : {}),
    ...(str(m.thumbnail_url) ? { thumbnailUrl: str(m.thumbnail_url) } : {}),
    ...(mediaType === 'CAROUSEL_ALBUM' ? { children: children ?? [] } : {}),
  };
}

/** A Graph list page: its items and the `after` cursor when `paging.next` says there is more. */
export function graphPage<T>(body: Json, map: (m: Json) => T | undefined): { items: T[]; cursor?: string } {
  const data = Array.isArray(body.data) ? body.data.filter(isObject) : [];
  const paging = isObject(body.paging) ? body.paging : {};
  const after = isObject(paging.cursors) ? str(paging.cursors.after) : undefined;
  return { items: data.map(map).filter((i): i is T => i !== undefined), ...(str(paging.next) && after ? { cursor: after } : {}) };
}

export function createInstagramMediaLibrary(client: InstagramClient): MediaLibrary {
  return {
    maxLimit: 100,
    cursors: true,
    async list(ctx, { limit, cursor }) {
      const { token, igUserId } = client.account(ctx.credentials);
      const body = await client.meta.graphCall('GET', `/${encodeURIComponent(igUserId)}/media`,
        { fields: FIELDS, limit: String(limit), ...(cursor ? { after: cursor } : {}) }, token, 'a media list', {}, ctx.signal);
      if (!Array.isArray(body.data)) throw client.fail({ kind: 'malformed', status: 200, what: 'a media list' });
      return graphPage(body, item);
    },
  };
}
