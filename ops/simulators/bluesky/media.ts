/**
 * app.bsky.feed.getAuthorFeed as the PDS (proxying the AppView) answers it: the actor's posts
 * newest first as post views (record, embed views with CDN image and video URLs), `limit` 1–100,
 * an opaque `cursor`, and the `filter` values posts_with_replies (default), posts_no_replies,
 * posts_with_media.
 */
import type { ServerResponse } from 'node:http';
import { sendJson, type SimRequest } from '../kit/http';
import { pageAfter } from '../kit/paging';
import type { createBlueskyAuth } from './auth';
import { POST, type BlueskyRecord, type BlueskyState } from './state';
import { invalidRequest, isObj } from './xrpc';

export const BLUESKY_SIM_CDN = 'https://cdn.bsky.app/img';
export const BLUESKY_SIM_VIDEO_CDN = 'https://video.bsky.app/watch';
const FILTERS = ['posts_with_replies', 'posts_no_replies', 'posts_with_media', 'posts_and_author_threads'];

const linkOf = (blob: unknown): string | undefined => (isObj(blob) && isObj(blob.ref) && typeof blob.ref.$link === 'string' ? blob.ref.$link : undefined);

/** The view of a record's embed, as the AppView hydrates it. */
function embedView(did: string, embed: unknown): Record<string, unknown> | undefined {
  if (!isObj(embed)) return undefined;
  if (embed.$type === 'app.bsky.embed.recordWithMedia') {
    const media = embedView(did, embed.media);
    return media ? { $type: 'app.bsky.embed.recordWithMedia#view', media } : undefined;
  }
  if (embed.$type === 'app.bsky.embed.images' && Array.isArray(embed.images)) {
    return {
      $type: 'app.bsky.embed.images#view',
      images: embed.images.filter(isObj).map((i) => ({
        thumb: `${BLUESKY_SIM_CDN}/feed_thumbnail/plain/${did}/${linkOf(i.image)}@jpeg`,
        fullsize: `${BLUESKY_SIM_CDN}/feed_fullsize/plain/${did}/${linkOf(i.image)}@jpeg`, alt: typeof i.alt === 'string' ? i.alt : '',
      })),
    };
  }
  if (embed.$type === 'app.bsky.embed.video') {
    const cid = linkOf(embed.video);
    return { $type: 'app.bsky.embed.video#view', cid, playlist: `${BLUESKY_SIM_VIDEO_CDN}/${encodeURIComponent(did)}/${cid}/playlist.m3u8`,
      thumbnail: `${BLUESKY_SIM_VIDEO_CDN}/${encodeURIComponent(did)}/${cid}/thumbnail.jpg` };
  }
  if (embed.$type === 'app.bsky.embed.external' && isObj(embed.external)) return { $type: 'app.bsky.embed.external#view', external: embed.external };
  return undefined;
}

export function authorFeed(
  s: BlueskyState, auth: ReturnType<typeof createBlueskyAuth>, req: SimRequest, res: ServerResponse,
  /** The post's reply, repost, like and quote counts (the analytics model's); zero without it. */
  counts?: (r: BlueskyRecord) => { replyCount: number; repostCount: number; likeCount: number; quoteCount: number },
): void {
  auth.authenticate(req, 'access');
  const actor = auth.findAccount(String(req.query.actor ?? ''));
  if (!actor) throw invalidRequest('Profile not found');
  const limit = req.query.limit === undefined ? 50 : Number(req.query.limit);
  if (!Number.isInteger(limit) || limit < 1 || limit > 100) throw invalidRequest('Error: limit must be an integer from 1 to 100');
  const filter = String(req.query.filter ?? 'posts_with_replies');
  if (!FILTERS.includes(filter)) throw invalidRequest(`Error: filter must be one of ${FILTERS.join(', ')}`);
  const posts = [...s.records.values()].filter((r) => r.did === actor.did && r.collection === POST)
    .filter((r) => filter === 'posts_with_replies' || !isObj(r.value.reply))
    .filter((r) => filter !== 'posts_with_media' || embedView(r.did, r.value.embed) !== undefined)
    .reverse();
  const page = pageAfter(posts, (r) => r.uri, limit, req.query.cursor);
  if (!page) throw invalidRequest('Malformed cursor');
  const feed = page.items.map((r) => {
    const embed = embedView(r.did, r.value.embed);
    return {
      post: {
        uri: r.uri, cid: r.cid, author: { did: actor.did, handle: actor.handle, displayName: actor.displayName },
        record: r.value, ...(embed ? { embed } : {}), ...(counts ? counts(r) : { replyCount: 0, repostCount: 0, likeCount: 0, quoteCount: 0 }), indexedAt: r.indexedAt, labels: [],
      },
    };
  });
  sendJson(res, 200, { feed, ...(page.next ? { cursor: page.next } : {}) });
}
