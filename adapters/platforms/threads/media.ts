/**
 * The media library: GET /{threads-user-id}/threads (Threads "Retrieve a List of All a User's
 * Threads"): the account's own posts newest first (replies are not in it), Graph cursors (`after`).
 * Threads' TEXT_POST is the spec's TEXT; REPOST_FACADE and AUDIO have no spec type and are left out.
 */
import type { LibraryMedia, LibraryMediaType, MediaLibrary } from '../../../core/ports/platform';
import { str, type Json } from '../kit/http';
import { graphMediaFields, graphPage } from '../instagram/media';
import type { ThreadsClient } from './client';

const FIELDS = 'id,media_type,media_url,permalink,text,timestamp,thumbnail_url';
const TYPES: Record<string, LibraryMediaType> = { TEXT_POST: 'TEXT', IMAGE: 'IMAGE', VIDEO: 'VIDEO', CAROUSEL_ALBUM: 'CAROUSEL_ALBUM' };

function item(m: Json): LibraryMedia | undefined {
  const id = str(m.id);
  const mediaType = TYPES[String(m.media_type)];
  if (!id || !mediaType) return undefined;
  return graphMediaFields({ id, mediaType }, str(m.text), m);
}

export function createThreadsMediaLibrary(client: ThreadsClient): MediaLibrary {
  return {
    maxLimit: 100,
    cursors: true,
    async list(ctx, { limit, cursor }) {
      const { token, userId } = client.account(ctx.credentials);
      const body = await client.graphCall('GET', `/${encodeURIComponent(userId)}/threads`,
        { fields: FIELDS, limit: String(limit), ...(cursor ? { after: cursor } : {}) }, token, 'a threads list', ctx.signal);
      if (!Array.isArray(body.data)) throw client.fail({ kind: 'malformed', status: 200, what: 'a threads list' });
      return graphPage(body, item);
    },
  };
}
