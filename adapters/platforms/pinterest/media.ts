/**
 * The media library: GET /v5/pins (List Pins), the user's own Pins newest first, `page_size` up
 * to 100 here (Pinterest takes 250), `bookmark` paging (null on the last page). Pinterest's own
 * media types map to the spec's: image → IMAGE, video → VIDEO, multiple_images → CAROUSEL_ALBUM;
 * the media URL is the largest image size offered (a video's cover).
 */
import type { LibraryMedia, LibraryMediaType, MediaLibrary } from '../../../core/ports/platform';
import { isObject, str, type Json } from '../kit/http';
import type { PinterestClient } from './client';

const SIZES = ['originals', '1200x', '600x', '400x300', '150x150'];

function largest(images: unknown): string | undefined {
  if (!isObject(images)) return undefined;
  for (const size of SIZES) {
    const entry = images[size];
    if (isObject(entry) && str(entry.url)) return str(entry.url);
  }
  return undefined;
}

function item(pin: Json): LibraryMedia | undefined {
  const id = str(pin.id);
  if (!id) return undefined;
  const media = isObject(pin.media) ? pin.media : {};
  const kind = str(media.media_type);
  const mediaType: LibraryMediaType = kind === 'video' ? 'VIDEO' : kind === 'multiple_images' || kind === 'multiple_mixed' ? 'CAROUSEL_ALBUM' : 'IMAGE';
  const firstItem = Array.isArray(media.items) && isObject(media.items[0]) ? media.items[0] : undefined;
  const url = mediaType === 'CAROUSEL_ALBUM' ? largest(firstItem?.images) : largest(media.images) ?? str(media.cover_image_url);
  const caption = [str(pin.title), str(pin.description)].filter(Boolean).join('\n');
  const created = str(pin.created_at);
  const time = created ? Date.parse(/Z|[+-]\d{2}:?\d{2}$/.test(created) ? created : `${created}Z`) : NaN;
  return {
    id, mediaType,
    ...(caption ? { caption } : {}),
    ...(url ? { mediaUrl: url } : {}),
    ...(mediaType === 'VIDEO' && str(media.cover_image_url) ? { thumbnailUrl: str(media.cover_image_url) } : {}),
    permalink: `https://www.pinterest.com/pin/${id}/`,
    ...(Number.isFinite(time) ? { timestamp: new Date(time).toISOString() } : {}),
  };
}

export function createPinterestMediaLibrary(client: PinterestClient): MediaLibrary {
  return {
    maxLimit: 100,
    cursors: true,
    async list(ctx, { limit, cursor }) {
      const token = client.accessToken(ctx.credentials);
      const query = new URLSearchParams({ page_size: String(limit), ...(cursor ? { bookmark: cursor } : {}) });
      const body = await client.call('GET', `/pins?${query}`, { token }, undefined, { what: 'a Pin list', has: (b) => Array.isArray(b.items) }, ctx.signal);
      const items = (body.items as unknown[]).filter(isObject).map(item).filter((i): i is LibraryMedia => i !== undefined);
      return { items, ...(str(body.bookmark) ? { cursor: str(body.bookmark) } : {}) };
    },
  };
}
