/**
 * GET /youtube/v3/playlistItems as YouTube answers it: a playlist's items with the parts asked for
 * (snippet, contentDetails, status), `maxResults` 0–50 (default 5), `pageToken`
 * (nextPageToken/prevPageToken). The channel's uploads playlist (`UU…`, from channels.list
 * contentDetails.relatedPlaylists.uploads) lists its uploaded videos newest first; other
 * playlists their inserted items. A private playlist of another channel is playlistNotFound.
 */
import type { ServerResponse } from 'node:http';
import { sendJson, type SimRequest } from '../kit/http';
import { encodeCursor, pageAfter } from '../kit/paging';
import type { SimChannel, SimPlaylistItem, SimVideo } from './types';

/** YouTube's uploads playlist id of a channel: UC… → UU…. */
export const uploadsPlaylistOf = (channelId: string): string => `UU${channelId.slice(2)}`;

export function listPlaylistItems(req: SimRequest, res: ServerResponse, input: {
  channel: SimChannel; channels: ReadonlyMap<string, SimChannel>; videos: ReadonlyMap<string, SimVideo>;
  playlists: ReadonlyMap<string, { id: string; channelId: string; title: string }>; items: readonly SimPlaylistItem[];
  apiError: (res: ServerResponse, status: number, reason: string, message: string, domain: string) => void;
  etag: () => string; thumbnails: (url: string) => Record<string, unknown>;
}): void {
  const q = req.query as Record<string, string | undefined>;
  const parts = (q.part ?? '').split(',').filter(Boolean);
  if (!parts.length) return input.apiError(res, 400, 'required', 'Required parameter: part', 'global');
  if (parts.some((p) => !['id', 'snippet', 'contentDetails', 'status'].includes(p))) return input.apiError(res, 400, 'unknownPart', `Unknown part ${parts.join(',')}`, 'youtube.part');
  if (!q.playlistId && !q.id) return input.apiError(res, 400, 'missingRequiredParameter', 'No filter selected. Expected one of: id, playlistId.', 'youtube.parameter');
  const max = q.maxResults === undefined ? 5 : Number(q.maxResults);
  if (!Number.isInteger(max) || max < 0 || max > 50) return input.apiError(res, 400, 'invalidValue', "Invalid value for parameter 'maxResults'. Expected 0-50.", 'youtube.parameter');
  const owner = [...input.channels.values()].find((c) => uploadsPlaylistOf(c.id) === q.playlistId);
  let rows: Array<{ id: string; video: SimVideo; position: number; playlistId: string }>;
  if (owner) {
    const uploads = [...input.videos.values()].filter((v) => v.channelId === owner.id)
      .filter((v) => owner.id === input.channel.id || (v.resource.status as { privacyStatus?: string } | undefined)?.privacyStatus !== 'private')
      // Newest first; uploads of the same millisecond, the later one first.
      .reverse().sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
    rows = uploads.map((video, position) => ({ id: Buffer.from(`${q.playlistId}.${video.id}`).toString('base64url'), video, position, playlistId: q.playlistId! }));
  } else {
    const playlist = input.playlists.get(q.playlistId ?? '');
    if (!playlist || playlist.channelId !== input.channel.id) {
      return input.apiError(res, 404, 'playlistNotFound', 'The playlist identified with the request\'s <code>playlistId</code> parameter cannot be found.', 'youtube.playlistItem');
    }
    rows = input.items.filter((i) => i.playlistId === playlist.id).flatMap((i) => {
      const video = input.videos.get(i.videoId);
      return video ? [{ id: i.id, video, position: i.position, playlistId: playlist.id }] : [];
    });
  }
  const page = pageAfter(rows, (r) => r.id, max, q.pageToken);
  if (!page) return input.apiError(res, 400, 'invalidPageToken', 'The request specifies an invalid page token.', 'youtube.parameter');
  const items = page.items.map((r) => {
    const snippet = (r.video.resource.snippet ?? {}) as Record<string, unknown>;
    const status = (r.video.resource.status ?? {}) as Record<string, unknown>;
    const channel = input.channels.get(r.video.channelId);
    return {
      kind: 'youtube#playlistItem', etag: input.etag(), id: r.id,
      ...(parts.includes('snippet') ? { snippet: {
        publishedAt: r.video.createdAt.toISOString(), channelId: r.video.channelId, title: snippet.title ?? '', description: snippet.description ?? '',
        thumbnails: input.thumbnails(`https://i.ytimg.com/vi/${r.video.id}/default.jpg`), channelTitle: channel?.title ?? '',
        playlistId: r.playlistId, position: r.position, resourceId: { kind: 'youtube#video', videoId: r.video.id },
        videoOwnerChannelTitle: channel?.title ?? '', videoOwnerChannelId: r.video.channelId,
      } } : {}),
      ...(parts.includes('contentDetails') ? { contentDetails: { videoId: r.video.id, videoPublishedAt: r.video.createdAt.toISOString() } } : {}),
      ...(parts.includes('status') ? { status: { privacyStatus: status.privacyStatus ?? 'public' } } : {}),
    };
  });
  sendJson(res, 200, {
    kind: 'youtube#playlistItemListResponse', etag: input.etag(),
    ...(page.next ? { nextPageToken: page.next } : {}),
    ...(q.pageToken && page.items[0] ? { prevPageToken: encodeCursor(`prev:${page.items[0].id}`) } : {}),
    items, pageInfo: { totalResults: rows.length, resultsPerPage: max },
  });
}
