/**
 * The media library: the channel's uploads playlist (channels.list mine=true,
 * contentDetails.relatedPlaylists.uploads, remembered per channel) read with playlistItems.list
 * (part snippet,contentDetails; maxResults up to 50; pageToken). YouTube gives no direct media
 * URL (the spec: use the permalink, the watch URL); the largest thumbnail is the thumbnail.
 */
import type { LibraryMedia, MediaLibrary } from '../../../core/ports/platform';
import { isObject, str, type Json } from '../kit/http';
import { isoOf } from '../kit/iso-time';
import type { YoutubeClient } from './client';

const THUMBS = ['maxres', 'standard', 'high', 'medium', 'default'];

function item(row: Json): LibraryMedia | undefined {
  const snippet = isObject(row.snippet) ? row.snippet : {};
  const details = isObject(row.contentDetails) ? row.contentDetails : {};
  const videoId = str(details.videoId) ?? (isObject(snippet.resourceId) ? str(snippet.resourceId.videoId) : undefined);
  if (!videoId) return undefined;
  const thumbnails = isObject(snippet.thumbnails) ? snippet.thumbnails : {};
  const thumb = THUMBS.map((k) => thumbnails[k]).find(isObject);
  const published = str(details.videoPublishedAt) ?? str(snippet.publishedAt);
  const timestamp = isoOf(published);
  const caption = [str(snippet.title), str(snippet.description)].filter(Boolean).join('\n');
  return {
    id: videoId, mediaType: 'VIDEO',
    ...(caption ? { caption } : {}),
    permalink: `https://www.youtube.com/watch?v=${encodeURIComponent(videoId)}`,
    ...(thumb && str(thumb.url) ? { thumbnailUrl: str(thumb.url) } : {}),
    ...(timestamp ? { timestamp } : {}),
  };
}

export function createYoutubeMediaLibrary(client: YoutubeClient): MediaLibrary {
  /** Uploads playlist per channel: it never changes, so one channels.list per channel per process. */
  const uploads = new Map<string, string>();

  async function uploadsPlaylist(token: string, channelId: string | undefined, signal?: AbortSignal): Promise<string> {
    const known = channelId ? uploads.get(channelId) : undefined;
    if (known) return known;
    const body = await client.api(token, 'GET', '/youtube/v3/channels?part=contentDetails&mine=true', undefined, signal);
    const channel = Array.isArray(body.items) ? body.items.find(isObject) : undefined;
    const details = channel && isObject(channel.contentDetails) && isObject(channel.contentDetails.relatedPlaylists) ? channel.contentDetails.relatedPlaylists : {};
    const playlist = str(details.uploads);
    if (!playlist) throw client.failure({ kind: 'malformed', status: 200, what: "the channel's uploads playlist" });
    if (channelId && uploads.size < 10_000) uploads.set(channelId, playlist);
    return playlist;
  }

  return {
    maxLimit: 50,
    cursors: true,
    async list(ctx, { limit, cursor }) {
      const token = client.tokenOf(ctx);
      const playlistId = await uploadsPlaylist(token, ctx.credentials.channel_id, ctx.signal);
      const query = new URLSearchParams({ part: 'snippet,contentDetails', playlistId, maxResults: String(limit), ...(cursor ? { pageToken: cursor } : {}) });
      const body = await client.api(token, 'GET', `/youtube/v3/playlistItems?${query}`, undefined, ctx.signal);
      if (!Array.isArray(body.items)) throw client.failure({ kind: 'malformed', status: 200, what: 'a playlist item list' });
      const items = body.items.filter(isObject).map(item).filter((i): i is LibraryMedia => i !== undefined);
      return { items, ...(str(body.nextPageToken) ? { cursor: str(body.nextPageToken) } : {}) };
    },
  };
}
