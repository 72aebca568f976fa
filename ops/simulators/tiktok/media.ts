/**
 * POST /v2/video/list/?fields=… (Display API "List Videos") as TikTok answers it: the user's
 * public posts newest first, `max_count` 1–20 (default 10), `cursor` a UTC epoch in milliseconds
 * (posts strictly older than it), `has_more`, only the fields asked for. Needs video.list.
 */
import type { ServerResponse } from 'node:http';
import type { SimRequest } from '../kit/http';
import { isRecord, type Grant, type TikTokAccountFixture, type TikTokPost } from './fixtures';

export const TIKTOK_VIDEO_FIELDS = ['id', 'create_time', 'cover_image_url', 'share_url', 'video_description', 'duration', 'height', 'width',
  'title', 'embed_html', 'embed_link', 'like_count', 'comment_count', 'share_count', 'view_count'];

export function listTikTokVideos(req: SimRequest, res: ServerResponse, input: {
  grant: Grant; account: TikTokAccountFixture; posts: readonly TikTokPost[];
  ok: (res: ServerResponse, data: unknown) => void; error: (res: ServerResponse, status: number, code: string, message: string) => void;
}): void {
  const { grant, account } = input;
  if (!grant.scope.includes('video.list')) return input.error(res, 401, 'scope_not_authorized', 'video.list is required.');
  const fields = String(req.query.fields ?? '').split(',').map((f) => f.trim()).filter(Boolean);
  const unknown = fields.filter((f) => !TIKTOK_VIDEO_FIELDS.includes(f));
  if (!fields.length || unknown.length) return input.error(res, 400, 'invalid_params', `Invalid fields: ${unknown.join(',') || '(none)'}`);
  const body = req.body.kind === 'json' && isRecord(req.body.value) ? req.body.value : {};
  const max = body.max_count === undefined ? 10 : body.max_count;
  if (typeof max !== 'number' || !Number.isInteger(max) || max < 1 || max > 20) return input.error(res, 400, 'invalid_params', 'max_count must be an integer from 1 to 20.');
  if (body.cursor !== undefined && (typeof body.cursor !== 'number' || !Number.isInteger(body.cursor) || body.cursor < 0)) {
    return input.error(res, 400, 'invalid_params', 'cursor must be a UTC Unix timestamp in milliseconds.');
  }
  const before = typeof body.cursor === 'number' && body.cursor > 0 ? body.cursor : Infinity;
  const mine = input.posts.filter((p) => p.openId === account.openId && p.state === 'published' && p.createdAt.getTime() < before)
    // Newest first; posts of the same millisecond, the later one first.
    .reverse().sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  const page = mine.slice(0, max);
  const videos = page.map((p) => {
    const info = p.postInfo;
    const all: Record<string, unknown> = {
      id: p.id, create_time: Math.floor(p.createdAt.getTime() / 1000),
      cover_image_url: `https://p16-sign.tiktokcdn-us.com/tos-useast5-p-0068-tx/${p.id}~c5_300x400.jpeg`,
      share_url: `https://www.tiktok.com/@${account.username}/video/${p.id}`,
      video_description: typeof info.description === 'string' ? info.description : typeof info.title === 'string' ? info.title : '',
      title: typeof info.title === 'string' ? info.title : '', duration: 10, height: 1920, width: 1080,
      embed_link: `https://www.tiktok.com/player/v1/${p.id}`, embed_html: `<blockquote class="tiktok-embed" data-video-id="${p.id}"></blockquote>`,
      like_count: 0, comment_count: 0, share_count: 0, view_count: 0,
    };
    return Object.fromEntries(fields.map((f) => [f, all[f]]));
  });
  const last = page[page.length - 1];
  input.ok(res, { videos, cursor: last ? last.createdAt.getTime() : 0, has_more: mine.length > page.length });
}
