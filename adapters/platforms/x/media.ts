/**
 * The media library: GET /2/users/:id/tweets (X API v2 "User Posts timeline") with
 * exclude=replies (first comments are replies), the attachments.media_keys expansion and
 * media.fields url + preview_image_url (the spec's media_url on X: the photo, or a video's preview
 * image). X takes max_results 5–100, so a smaller page asks for 5 and keeps the first ones; the
 * cursor is then the last post handed out, passed back as `until_id`, which pages correctly
 * whatever the page size.
 */
import { PlatformError } from '../../../core/domain/errors';
import type { LibraryMedia, LibraryMediaType, MediaLibrary } from '../../../core/ports/platform';
import { isObject, str, strList, type Json } from '../kit/http';
import type { XClient } from './client';

const X_MIN_RESULTS = 5;

export function createXMediaLibrary(client: XClient): MediaLibrary {
  return {
    maxLimit: 100,
    cursors: true,
    async list(ctx, { limit, cursor }) {
      const userId = ctx.credentials.user_id;
      if (!userId) throw new PlatformError('x', { kind: 'auth_expired', reason: 'credentials_missing' }, 'The stored X credentials have no user id; reconnect the account.');
      const untilId = cursor?.startsWith('x:') ? cursor.slice(2) : undefined;
      if (cursor !== undefined && !untilId) throw new PlatformError('x', { kind: 'invalid_content', code: 'invalid_cursor' }, 'This cursor was not handed out by the X media list; send pagination.next_cursor back unchanged.');
      const { status, body } = await client.api(client.accessToken(ctx), 'GET', `/2/users/${encodeURIComponent(userId)}/tweets`, {
        signal: ctx.signal,
        query: {
          max_results: String(Math.max(X_MIN_RESULTS, limit)), exclude: 'replies', expansions: 'attachments.media_keys',
          'tweet.fields': 'created_at,attachments', 'media.fields': 'type,url,preview_image_url',
          ...(untilId ? { until_id: untilId } : {}),
        },
      });
      if (body.data !== undefined && !Array.isArray(body.data)) throw client.failure({ kind: 'malformed', status, what: 'a post list' });
      const media = new Map<string, Json>();
      const includes = isObject(body.includes) && Array.isArray(body.includes.media) ? body.includes.media.filter(isObject) : [];
      for (const m of includes) if (str(m.media_key)) media.set(str(m.media_key)!, m);
      const handle = ctx.credentials.username;
      const posts = (Array.isArray(body.data) ? body.data.filter(isObject) : []).filter((t) => str(t.id));
      const items = posts.slice(0, limit).map((t): LibraryMedia => {
        const attached = strList(isObject(t.attachments) ? t.attachments.media_keys : undefined).map((k) => media.get(k)).filter((m): m is Json => m !== undefined);
        const first = attached[0];
        const mediaType: LibraryMediaType = !first ? 'TEXT' : attached.length > 1 ? 'CAROUSEL_ALBUM' : first.type === 'photo' ? 'IMAGE' : 'VIDEO';
        const url = first ? str(first.url) ?? str(first.preview_image_url) : undefined;
        const id = str(t.id)!;
        return {
          id, mediaType,
          ...(str(t.text) ? { caption: str(t.text) } : {}),
          ...(url ? { mediaUrl: url } : {}),
          ...(first && str(first.preview_image_url) ? { thumbnailUrl: str(first.preview_image_url) } : {}),
          permalink: handle ? `https://x.com/${handle}/status/${id}` : `https://x.com/i/web/status/${id}`,
          ...(str(t.created_at) ? { timestamp: new Date(str(t.created_at)!).toISOString() } : {}),
        };
      });
      const meta = isObject(body.meta) ? body.meta : {};
      const more = posts.length > limit || Boolean(str(meta.next_token));
      return { items, ...(more && items.length ? { cursor: `x:${items[items.length - 1]!.id}` } : {}) };
    },
  };
}
