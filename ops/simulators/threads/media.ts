/**
 * GET /{threads-user-id}/threads as Threads answers it: the account's own top-level posts (not
 * replies), newest first, the fields asked for, `limit` up to 100 and Graph cursors (`after`).
 * Needs threads_basic.
 */
import type { ServerResponse } from 'node:http';
import { sendJson, type SimRequest } from '../kit/http';
import { graphFields, graphListBody, pageAfter, pickGraph } from '../kit/paging';

/** What the list reads of a stored post (the simulator's ThreadsPost). */
interface ListedThread {
  id: string; ownerId: string; media_type: string; text?: string; permalink: string; shortcode: string; timestamp: string;
  replyToId?: string; quotePostId?: string;
}

export const THREADS_SIM_CDN = 'https://scontent.cdninstagram.com/v/t51.threads-sim';

export function listThreadsPosts(req: SimRequest, res: ServerResponse, input: {
  owner: { id: string; username: string }; scopes: string[]; posts: Iterable<ListedThread>; params: Record<string, string>; origin: string;
  paramError: (res: ServerResponse, message: string) => void; denied: (res: ServerResponse) => void;
}): void {
  const { owner, params: p } = input;
  if (!input.scopes.includes('threads_basic')) return input.denied(res);
  const limit = p.limit === undefined ? 25 : Number(p.limit);
  if (!Number.isInteger(limit) || limit < 1) return input.paramError(res, 'Param limit must be a positive integer');
  const all = [...input.posts].filter((t) => t.ownerId === owner.id && !t.replyToId).reverse();
  const page = pageAfter(all, (t) => t.id, Math.min(limit, 100), p.after);
  if (!page) return input.paramError(res, 'Param after is not a valid cursor');
  const fields = graphFields(p.fields, ['id']);
  const data = page.items.map((t) => pickGraph({
    id: t.id, media_product_type: 'THREADS', media_type: t.media_type, text: t.text, permalink: t.permalink, shortcode: t.shortcode,
    timestamp: t.timestamp, username: owner.username, owner: { id: owner.id }, is_quote_post: Boolean(t.quotePostId),
    media_url: t.media_type === 'TEXT_POST' ? undefined : `${THREADS_SIM_CDN}/${t.id}.${t.media_type === 'VIDEO' ? 'mp4' : 'jpg'}`,
    thumbnail_url: t.media_type === 'VIDEO' ? `${THREADS_SIM_CDN}/${t.id}_thumb.jpg` : undefined,
  }, fields));
  const query = Object.fromEntries(Object.entries(p).filter(([k]) => k !== 'after' && k !== 'access_token'));
  sendJson(res, 200, graphListBody(input.origin, req.path, query, data, page, page.items[0]?.id));
}
