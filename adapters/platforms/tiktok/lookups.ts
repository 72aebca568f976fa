/**
 * TikTok helpers: creator settings (POST /v2/post/publish/creator_info/query/: privacy levels,
 * longest video, comment/duet/stitch switches), trending and searched music, and location search
 * (at most 20 matches). Music and locations are not in TikTok's public reference: see
 * ops/simulators/tiktok/lookups.ts for the wire format assumed. All need a current connection:
 * one whose stored grant has the scopes Herald asks for today; an older one answers 400
 * tiktok_reconnect_required before any call (an expired token is 409 reauth_required as usual).
 */
import { PlatformError } from '../../../core/domain/errors';
import type { CallContext, LookupEntry, Lookups } from '../../../core/ports/platform';
import { isObject, num, str, strList, type Json } from '../kit/http';
import type { TikTokClient } from './client';

const NEEDED_SCOPE = 'video.publish';
export const TIKTOK_LOCATION_MATCHES = 20;

function requireCurrent(ctx: CallContext): void {
  const granted = (ctx.credentials.scope ?? '').split(/[\s,]+/).filter(Boolean);
  if (!granted.includes(NEEDED_SCOPE)) {
    throw new PlatformError('tiktok', { kind: 'invalid_content', code: 'tiktok_reconnect_required' },
      `This TikTok connection does not carry the ${NEEDED_SCOPE} grant the helper needs; reconnect the TikTok account.`);
  }
}

const music = (m: Json): LookupEntry | undefined => {
  const id = str(m.music_id) ?? (typeof m.music_id === 'number' ? String(m.music_id) : undefined);
  return id ? { id, name: str(m.title) ?? id, extra: { author: str(m.author) ?? null, duration_sec: num(m.duration) ?? null, cover_url: str(m.cover_url) ?? null } } : undefined;
};

export function createTikTokLookups(client: TikTokClient): Lookups {
  const call = (ctx: CallContext, path: string, body: Json) => client.api(client.tokenOf(ctx), 'POST', path, body, ctx.signal);
  return {
    lists: ['music_trending', 'music_search', 'locations'],
    records: ['settings'],
    async list(ctx, kind, request = {}) {
      requireCurrent(ctx);
      if (kind === 'locations') {
        const data = await call(ctx, '/v2/post/publish/location/search/', { keyword: request.query ?? '', max_count: Math.min(request.limit ?? TIKTOK_LOCATION_MATCHES, TIKTOK_LOCATION_MATCHES) });
        if (!Array.isArray(data.locations)) throw client.failure({ kind: 'malformed', status: 200, what: 'a location list' });
        const items = data.locations.filter(isObject).flatMap((l): LookupEntry[] => {
          const id = str(l.location_id) ?? (typeof l.location_id === 'number' ? String(l.location_id) : undefined);
          return id ? [{ id, name: str(l.name) ?? id, extra: { address: str(l.address) ?? null } }] : [];
        });
        return { items: items.slice(0, TIKTOK_LOCATION_MATCHES) };
      }
      if (kind !== 'music_trending' && kind !== 'music_search') throw new PlatformError('tiktok', { kind: 'unsupported' }, `TikTok has no "${kind}" lookup.`);
      const data = await call(ctx, `/v2/post/publish/music/${kind === 'music_search' ? 'search' : 'trending'}/`, {
        max_count: request.limit ?? 20, ...(kind === 'music_search' ? { keyword: request.query ?? '' } : {}),
      });
      if (!Array.isArray(data.music_list)) throw client.failure({ kind: 'malformed', status: 200, what: 'a music list' });
      return { items: data.music_list.filter(isObject).map(music).filter((m): m is LookupEntry => m !== undefined) };
    },
    async read(ctx, kind) {
      if (kind !== 'settings') throw new PlatformError('tiktok', { kind: 'unsupported' }, `TikTok has no "${kind}" lookup.`);
      requireCurrent(ctx);
      const data = await call(ctx, '/v2/post/publish/creator_info/query/', {});
      const options = strList(data.privacy_level_options);
      if (!options.length) throw client.failure({ kind: 'malformed', status: 200, what: 'privacy_level_options' });
      return {
        creator_username: str(data.creator_username) ?? null,
        creator_nickname: str(data.creator_nickname) ?? null,
        creator_avatar_url: str(data.creator_avatar_url) ?? null,
        privacy_level_options: options,
        max_video_post_duration_sec: num(data.max_video_post_duration_sec) ?? null,
        comment_disabled: data.comment_disabled === true,
        duet_disabled: data.duet_disabled === true,
        stitch_disabled: data.stitch_disabled === true,
      };
    },
  };
}
