/**
 * The helpers behind TikTok's music and location fields. TikTok's public reference does not
 * document them (the capability-gated post_info fields music_id and location_id are not in it
 * either), so this is Herald's model of them, in the Content Posting API's conventions (POST,
 * Bearer token with video.publish, answers under `data` with `error.code`):
 * - POST /v2/post/publish/music/trending/ {max_count 1–50, cursor} → {music_list, cursor, has_more}
 * - POST /v2/post/publish/music/search/ {keyword, max_count 1–50, cursor} → same
 * - POST /v2/post/publish/location/search/ {keyword, max_count 1–20} → {locations}
 * over a small fixed catalogue the simulator keeps.
 */
import type { ServerResponse } from 'node:http';
import type { SimRequest } from '../kit/http';
import { isRecord, type Grant } from './fixtures';

export interface TikTokSimMusic { music_id: string; title: string; author: string; duration: number; cover_url: string; trending_rank?: number }
export interface TikTokSimLocation { location_id: string; name: string; address: string }

const cover = (id: string) => `https://p16-sg.tiktokcdn.com/aweme/music/${id}.jpeg`;
export const TIKTOK_SIM_MUSIC: readonly TikTokSimMusic[] = [
  ['7301000000000000001', 'Summer Vibes', 'Sunny Beats', 30, 1], ['7301000000000000002', 'Morning Coffee', 'Lo-Fi Kitchen', 45, 2],
  ['7301000000000000003', 'City Lights', 'Night Drive', 60, 3], ['7301000000000000004', 'Dance All Night', 'Disco Twins', 28, 4],
  ['7301000000000000005', 'Ocean Breeze', 'Sunny Beats', 52], ['7301000000000000006', 'Bakery Morning', 'Lo-Fi Kitchen', 38],
  ['7301000000000000007', 'Rainy Day Jazz', 'Blue Note Trio', 90], ['7301000000000000008', 'Epic Workout', 'Gym Heroes', 33, 5],
].map(([id, title, author, duration, rank]) => ({
  music_id: String(id), title: String(title), author: String(author), duration: Number(duration), cover_url: cover(String(id)),
  ...(rank !== undefined ? { trending_rank: Number(rank) } : {}),
}));

export const TIKTOK_SIM_LOCATIONS: readonly TikTokSimLocation[] = Array.from({ length: 30 }, (_, i) => ({
  location_id: String(22535000000000000n + BigInt(i + 1)),
  name: i < 25 ? `Paris Bakery ${i + 1}` : ['Eiffel Tower', 'Louvre Museum', 'Berlin Cathedral', 'Tokyo Tower', 'Central Park'][i - 25]!,
  address: i < 25 ? `${i + 1} Rue de la Paix, 75002 Paris, France` : ['Champ de Mars, Paris', 'Rue de Rivoli, Paris', 'Am Lustgarten, Berlin', 'Minato City, Tokyo', 'New York, NY'][i - 25]!,
}));

type Answer = { ok: (res: ServerResponse, data: unknown) => void; error: (res: ServerResponse, status: number, code: string, message: string) => void };

const bodyOf = (req: SimRequest): Record<string, unknown> => (req.body.kind === 'json' && isRecord(req.body.value) ? req.body.value : {});

function count(body: Record<string, unknown>, max: number, fallback: number): number | undefined {
  const n = body.max_count ?? fallback;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 && n <= max ? n : undefined;
}

export function tiktokLookup(req: SimRequest, res: ServerResponse, grant: Grant, a: Answer): void {
  if (!grant.scope.includes('video.publish')) return a.error(res, 401, 'scope_not_authorized', 'video.publish is required.');
  const body = bodyOf(req);
  const keyword = typeof body.keyword === 'string' ? body.keyword.trim().toLowerCase() : '';
  if (req.path === '/v2/post/publish/location/search/') {
    const max = count(body, 20, 20);
    if (max === undefined) return a.error(res, 400, 'invalid_params', 'max_count must be an integer from 1 to 20.');
    if (!keyword) return a.error(res, 400, 'invalid_params', 'keyword is required.');
    const found = TIKTOK_SIM_LOCATIONS.filter((l) => l.name.toLowerCase().includes(keyword) || l.address.toLowerCase().includes(keyword));
    return a.ok(res, { locations: found.slice(0, max) });
  }
  const max = count(body, 50, 20);
  if (max === undefined) return a.error(res, 400, 'invalid_params', 'max_count must be an integer from 1 to 50.');
  const start = body.cursor === undefined ? 0 : body.cursor;
  if (typeof start !== 'number' || !Number.isInteger(start) || start < 0) return a.error(res, 400, 'invalid_params', 'cursor must be a non-negative integer.');
  let list: TikTokSimMusic[];
  if (req.path === '/v2/post/publish/music/search/') {
    if (!keyword) return a.error(res, 400, 'invalid_params', 'keyword is required.');
    list = TIKTOK_SIM_MUSIC.filter((m) => m.title.toLowerCase().includes(keyword) || m.author.toLowerCase().includes(keyword));
  } else {
    list = TIKTOK_SIM_MUSIC.filter((m) => m.trending_rank !== undefined).sort((x, y) => x.trending_rank! - y.trending_rank!);
  }
  const page = list.slice(start, start + max);
  a.ok(res, { music_list: page, cursor: start + page.length, has_more: start + page.length < list.length });
}

export const TIKTOK_LOOKUP_PATHS = ['/v2/post/publish/music/trending/', '/v2/post/publish/music/search/', '/v2/post/publish/location/search/'];
