/**
 * GET /v5/pins as Pinterest answers it (List Pins): the user's own Pins newest first, page_size
 * 1–250 (default 25), `bookmark` paging (null on the last page), optional `pin_filter`, images
 * sized on Pinterest's CDN. Needs boards:read and pins:read.
 */
import type { ServerResponse } from 'node:http';
import { sendJson, type SimRequest } from '../kit/http';
import { pageAfter } from '../kit/paging';
import { invalidParams, type PinterestSimPin } from './fixtures';

export const PINTEREST_SIM_CDN = 'https://i.pinimg.com';

/** A stored Pin as GET answers it: images in Pinterest's sizes. */
function pinView(stored: PinterestSimPin): Record<string, unknown> {
  const pin = stored.pin;
  const media = (pin.media ?? {}) as Record<string, unknown>;
  const id = String(pin.id);
  const sized = (key: string) => ({
    '150x150': { width: 150, height: 150, url: `${PINTEREST_SIM_CDN}/150x150/${key}.jpg` },
    '600x': { width: 600, height: 600, url: `${PINTEREST_SIM_CDN}/600x/${key}.jpg` },
    '1200x': { width: 1200, height: 1200, url: `${PINTEREST_SIM_CDN}/1200x/${key}.jpg` },
  });
  if (media.media_type === 'image') return { ...pin, media: { media_type: 'image', images: sized(id) } };
  if (media.media_type === 'multiple_images') {
    const items = Array.isArray(media.items) ? media.items : [];
    return { ...pin, media: { media_type: 'multiple_images', items: items.map((_, i) => ({ item_type: 'image', images: sized(`${id}_${i}`) })) } };
  }
  if (media.media_type === 'video') {
    return { ...pin, media: { ...media, cover_image_url: `${PINTEREST_SIM_CDN}/videos/thumbnails/originals/${id}.jpg`, images: sized(`${id}_cover`) } };
  }
  return pin;
}

export function listPins(req: SimRequest, res: ServerResponse, input: { accountId: string; pins: readonly PinterestSimPin[] }): void {
  const q = req.query as Record<string, string | undefined>;
  const pageSize = q.page_size === undefined ? 25 : Number(q.page_size);
  if (!Number.isInteger(pageSize) || pageSize < 1 || pageSize > 250) return sendJson(res, 400, invalidParams('page_size must be 1 to 250.'));
  if (q.pin_filter !== undefined && !['exclude_native', 'exclude_repins', 'has_been_promoted'].includes(q.pin_filter)) {
    return sendJson(res, 400, invalidParams('pin_filter must be exclude_native, exclude_repins or has_been_promoted.'));
  }
  const mine = input.pins.filter((p) => p.ownerId === input.accountId).slice().reverse();
  const page = pageAfter(mine, (p) => String(p.pin.id), pageSize, q.bookmark);
  if (!page) return sendJson(res, 400, invalidParams('bookmark is invalid.'));
  sendJson(res, 200, { items: page.items.map(pinView), bookmark: page.next ?? null });
}
