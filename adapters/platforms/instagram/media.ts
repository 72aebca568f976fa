/**
 * The media library: GET /{ig-user-id}/media (Instagram API with Instagram Login, "IG User Media"),
 * newest first, carousel children expanded in the same call, paged with Graph's cursor-based
 * pagination (`after`; `paging.next` is absent on the last page). Stories are not part of it.
 */
import type { LibraryMedia, LibraryMediaChild, LibraryMediaType, MediaLibrary } from '../../../core/ports/platform';
import { isObject, str, type Json } from '../kit/http';
import { fastUtcIso } from '../kit/iso-time';
import type { InstagramClient } from './client';

const CHILD_FIELDS = 'id,media_type,media_url,thumbnail_url,timestamp';
const FIELDS = `id,caption,media_type,media_url,permalink,thumbnail_url,timestamp,children{${CHILD_FIELDS}}`;

const typeOf = (v: unknown): LibraryMediaType => (v === 'VIDEO' ? 'VIDEO' : v === 'CAROUSEL_ALBUM' ? 'CAROUSEL_ALBUM' : 'IMAGE');
/**
 * Graph writes `2026-01-01T10:00:00+0000`; the spec wants ISO-8601 as JavaScript writes it. UTC
 * timestamps in range take the fast path (kit/iso-time.ts), the rest `Date.parse`.
 */
export const isoTime = (v: unknown): string | undefined => {
  if (typeof v !== 'string') return undefined;
  const fast = fastUtcIso(v);
  if (fast !== undefined) return fast;
  const t = Date.parse(v.replace(/([+-]\d{2})(\d{2})$/, '$1:$2'));
  return Number.isFinite(t) ? new Date(t).toISOString() : undefined;
};

function child(c: Json): LibraryMediaChild | undefined {
  const id = str(c.id);
  if (!id) return undefined;
  const mediaType = c.media_type === 'VIDEO' ? 'VIDEO' : 'IMAGE';
  const out: LibraryMediaChild = { id, mediaType };
  const mediaUrl = str(c.media_url);
  if (mediaUrl) out.mediaUrl = mediaUrl;
  const thumbnailUrl = mediaType === 'VIDEO' ? str(c.thumbnail_url) : undefined;
  if (thumbnailUrl) out.thumbnailUrl = thumbnailUrl;
  const timestamp = isoTime(c.timestamp);
  if (timestamp) out.timestamp = timestamp;
  return out;
}

/**
 * The fields Graph media of Instagram and Threads share, set on `out` after its id and type in the
 * order the response has always listed them: caption, media URL, permalink, time, thumbnail.
 */
export function graphMediaFields(out: LibraryMedia, caption: string | undefined, m: Json): LibraryMedia {
  if (caption) out.caption = caption;
  const mediaUrl = str(m.media_url);
  if (mediaUrl) out.mediaUrl = mediaUrl;
  const permalink = str(m.permalink);
  if (permalink) out.permalink = permalink;
  const timestamp = isoTime(m.timestamp);
  if (timestamp) out.timestamp = timestamp;
  const thumbnailUrl = str(m.thumbnail_url);
  if (thumbnailUrl) out.thumbnailUrl = thumbnailUrl;
  return out;
}

export function item(m: Json): LibraryMedia | undefined {
  const id = str(m.id);
  if (!id) return undefined;
  const mediaType = typeOf(m.media_type);
  // Fields are set in the order the response has always listed them.
  const out: LibraryMedia = { id, mediaType };
  graphMediaFields(out, str(m.caption), m);
  if (mediaType === 'CAROUSEL_ALBUM') {
    const children: LibraryMediaChild[] = [];
    if (isObject(m.children) && Array.isArray(m.children.data)) {
      for (const c of m.children.data) {
        const one = isObject(c) ? child(c) : undefined;
        if (one) children.push(one);
      }
    }
    out.children = children;
  }
  return out;
}

/** A Graph list page: its items and the `after` cursor when `paging.next` says there is more. */
export function graphPage<T>(body: Json, map: (m: Json) => T | undefined): { items: T[]; cursor?: string } {
  const items: T[] = [];
  if (Array.isArray(body.data)) {
    for (const m of body.data) {
      const one = isObject(m) ? map(m) : undefined;
      if (one !== undefined) items.push(one);
    }
  }
  const paging = isObject(body.paging) ? body.paging : {};
  const after = isObject(paging.cursors) ? str(paging.cursors.after) : undefined;
  return str(paging.next) && after ? { items, cursor: after } : { items };
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
