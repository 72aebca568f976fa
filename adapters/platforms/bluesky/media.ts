/**
 * The media library: app.bsky.feed.getAuthorFeed (actor = the session's DID, filter
 * posts_no_replies so first comments and thread replies stay out), newest first, an opaque
 * `cursor`. The media URL is the first image's fullsize CDN URL, or a video's HLS playlist with
 * its thumbnail; the permalink is the web app's post URL.
 */
import type { LibraryMedia, LibraryMediaType, MediaLibrary } from '../../../core/ports/platform';
import { isObject, str, type Json } from '../kit/http';
import { isoOf } from '../kit/iso-time';
import type { BlueskyClient } from './client';
import { rkeyOf, sessionOf } from './session';

function mediaOf(embed: unknown): { type: LibraryMediaType; url?: string; thumb?: string } {
  if (!isObject(embed)) return { type: 'TEXT' };
  if (embed.$type === 'app.bsky.embed.recordWithMedia#view') return mediaOf(embed.media);
  if (embed.$type === 'app.bsky.embed.images#view' && Array.isArray(embed.images)) {
    const images = embed.images.filter(isObject);
    return { type: images.length > 1 ? 'CAROUSEL_ALBUM' : 'IMAGE', url: str(images[0]?.fullsize), thumb: str(images[0]?.thumb) };
  }
  if (embed.$type === 'app.bsky.embed.video#view') return { type: 'VIDEO', url: str(embed.playlist), thumb: str(embed.thumbnail) };
  return { type: 'TEXT' };
}

export function createBlueskyMediaLibrary(client: BlueskyClient, opts: { appUrl: string }): MediaLibrary {
  function item(entry: Json, handle: string): LibraryMedia | undefined {
    const post = isObject(entry.post) ? entry.post : undefined;
    const uri = str(post?.uri);
    if (!post || !uri) return undefined;
    const record = isObject(post.record) ? post.record : {};
    const media = mediaOf(post.embed);
    const timestamp = isoOf(str(record.createdAt) ?? str(post.indexedAt));
    // Fields are set in the order the response has always listed them.
    const out: LibraryMedia = { id: uri, mediaType: media.type };
    const caption = str(record.text);
    if (caption) out.caption = caption;
    if (media.url) out.mediaUrl = media.url;
    if (media.thumb) out.thumbnailUrl = media.thumb;
    out.permalink = `${opts.appUrl}/profile/${handle}/post/${rkeyOf(uri)}`;
    if (timestamp) out.timestamp = timestamp;
    return out;
  }

  return {
    maxLimit: 100,
    cursors: true,
    async list(ctx, { limit, cursor }) {
      const session = sessionOf(ctx.credentials);
      const { status, body } = await client.xrpc(session.service, 'app.bsky.feed.getAuthorFeed', {
        method: 'GET', token: session.accessJwt, signal: ctx.signal,
        query: { actor: session.did, limit: String(limit), filter: 'posts_no_replies', ...(cursor ? { cursor } : {}) },
      });
      if (!Array.isArray(body.feed)) throw client.failure({ kind: 'malformed', status, what: 'a feed' });
      const items = body.feed.filter(isObject).map((e) => item(e, session.handle)).filter((i): i is LibraryMedia => i !== undefined);
      return { items, ...(str(body.cursor) && items.length ? { cursor: str(body.cursor) } : {}) };
    },
  };
}
