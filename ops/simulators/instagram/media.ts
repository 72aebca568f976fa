/**
 * GET /{ig-user-id}/media as Instagram answers it: the account's published feed posts and reels
 * (stories are not in it), newest first, the fields asked for (children{…} of carousels
 * expanded), `limit` up to 100 and Graph cursors (`after`); an unknown cursor is a (#100) error.
 * Needs instagram_business_basic.
 */
import type { ServerResponse } from 'node:http';
import { sendJson, type SimRequest } from '../kit/http';
import { graphFields, graphListBody, pageAfter, pickGraph } from '../kit/paging';
import type { InstagramAccountFixture, InstagramMedia } from './model';

export const INSTAGRAM_SIM_CDN = 'https://scontent.cdninstagram.com/v/t51.sim';

export function listInstagramMedia(req: SimRequest, res: ServerResponse, input: {
  owner: InstagramAccountFixture; scopes: string[]; media: Iterable<InstagramMedia>; params: Record<string, string>; origin: string;
  paramError: (res: ServerResponse, message: string) => void; denied: (res: ServerResponse) => void;
}): void {
  const { owner, params: p } = input;
  if (!input.scopes.includes('instagram_business_basic')) return input.denied(res);
  const limit = p.limit === undefined ? 25 : Number(p.limit);
  if (!Number.isInteger(limit) || limit < 1) return input.paramError(res, 'limit must be a positive whole number.');
  const all = [...input.media].filter((m) => m.ownerId === owner.id && m.media_product_type !== 'STORY').reverse();
  const page = pageAfter(all, (m) => m.id, Math.min(limit, 100), p.after);
  if (!page) return input.paramError(res, 'The after cursor is invalid.');
  const fields = graphFields(p.fields, ['id']);
  const url = (id: string, video: boolean) => `${INSTAGRAM_SIM_CDN}/${id}.${video ? 'mp4' : 'jpg'}`;
  const data = page.items.map((m) => {
    const video = m.media_type === 'VIDEO';
    const cover = m.media_type === 'CAROUSEL_ALBUM' ? m.children[0] : undefined;
    return pickGraph({
      id: m.id, caption: m.caption, media_type: m.media_type, media_product_type: m.media_product_type, permalink: m.permalink,
      shortcode: m.shortcode, timestamp: m.timestamp, username: owner.username,
      media_url: url(cover?.id ?? m.id, cover ? Boolean(cover.params.video_url) : video),
      thumbnail_url: video ? `${INSTAGRAM_SIM_CDN}/${m.id}_thumb.jpg` : undefined,
    }, fields, {
      children: (sub) => (m.media_type !== 'CAROUSEL_ALBUM' ? undefined : {
        data: m.children.map((c) => pickGraph({
          id: c.id, media_type: c.params.video_url ? 'VIDEO' : 'IMAGE', media_url: url(c.id, Boolean(c.params.video_url)),
          thumbnail_url: c.params.video_url ? `${INSTAGRAM_SIM_CDN}/${c.id}_thumb.jpg` : undefined, timestamp: m.timestamp,
        }, graphFields(sub, ['id']))),
      }),
    });
  });
  const query = Object.fromEntries(Object.entries(p).filter(([k]) => k !== 'after' && k !== 'access_token'));
  sendJson(res, 200, graphListBody(input.origin, req.path, query, data, page, page.items[0]?.id));
}
