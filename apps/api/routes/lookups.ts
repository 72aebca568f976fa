import type Router from '@koa/router';
import type { Context } from 'koa';
import type { Platform } from '../../../core/domain/platforms';
import { listLookup, readLookup, type LookupItem } from '../../../core/usecases/lookups';
import type { ApiDeps, AppState } from '../deps';
import { mount } from '../catalogue/mount';
import * as ops from '../catalogue/lookups';

const extra = (item: LookupItem, key: string) => item.extra?.[key] ?? null;
/** `id` and `name` beside the spec's `page_id`/`page_name` (`board_*`): the published clients read these. */
const alsoIdName = (item: LookupItem) => ({ id: item.id, name: item.name });

/**
 * Lookups (core/usecases/lookups.ts), each `{success, <things>[]}` with `<thing>_id`,
 * `<thing>_name` and `profile` per item, or `{success, profile, platform, ...record}`:
 * - `GET /facebook/pages`, `/linkedin/pages`, `/pinterest/boards`, `/google-business/locations`
 *   (`profile` optional: every profile's when omitted);
 * - `GET /tiktok/music/trending`, `/tiktok/music/search?query=`, `/tiktok/locations?query=` (at
 *   most 20), `/tiktok/settings`, `/instagram/publishing_limit`, `/threads/publishing_limit`
 *   (`profile` required).
 */
export function lookupRoutes(router: Router<AppState>, deps: ApiDeps, ns: string): void {
  const list = (ctx: Context, platform: Platform, kind: string, profile: string | undefined, request = {}) =>
    listLookup(deps, ctx.state.caller.account, platform, kind, profile, request);

  mount(router, ops.listGoogleBusinessLocations, ns, async (ctx, { query: q }) => {
    const items = await list(ctx, 'google_business', 'locations', q.profile);
    ctx.body = {
      success: true,
      locations: items.map((item) => ({
        location_id: item.id, location_name: item.name, account_id: extra(item, 'account_id'), account_name: extra(item, 'account_name'),
        address: extra(item, 'address'), maps_uri: extra(item, 'maps_uri'), profile: item.profile,
      })),
    };
  });

  mount(router, ops.listFacebookPages, ns, async (ctx, { query: q }) => {
    const items = await list(ctx, 'facebook', 'pages', q.profile);
    ctx.body = { pages: items.map((item) => ({ page_id: item.id, page_name: item.name, ...alsoIdName(item), profile: item.profile })), success: true };
  });

  mount(router, ops.listLinkedInPages, ns, async (ctx, { query: q }) => {
    const items = await list(ctx, 'linkedin', 'pages', q.profile);
    ctx.body = {
      pages: items.map((item) => ({
        page_id: item.id, page_name: item.name, ...alsoIdName(item), page_urn: extra(item, 'urn'), role: extra(item, 'role'), vanity_name: extra(item, 'vanity_name'), profile: item.profile,
      })),
      success: true,
    };
  });

  mount(router, ops.listPinterestBoards, ns, async (ctx, { query: q }) => {
    const items = await list(ctx, 'pinterest', 'boards', q.profile);
    ctx.body = {
      boards: items.map((item) => ({ board_id: item.id, board_name: item.name, ...alsoIdName(item), description: extra(item, 'description'), privacy: extra(item, 'privacy'), profile: item.profile })),
      success: true,
    };
  });

  const music = (item: LookupItem) => ({
    music_id: item.id, title: item.name, author: extra(item, 'author'), duration_sec: extra(item, 'duration_sec'), cover_url: extra(item, 'cover_url'), profile: item.profile,
  });
  mount(router, ops.listTikTokTrendingMusic, ns, async (ctx, { query: q }) => {
    const items = await list(ctx, 'tiktok', 'music_trending', q.profile, { limit: q.limit });
    ctx.body = { success: true, music: items.map(music) };
  });
  mount(router, ops.searchTikTokMusic, ns, async (ctx, { query: q }) => {
    const { query } = q;
    const items = await list(ctx, 'tiktok', 'music_search', q.profile, { query, limit: q.limit });
    ctx.body = { success: true, query, music: items.map(music) };
  });
  mount(router, ops.searchTikTokLocations, ns, async (ctx, { query: q }) => {
    const { query } = q;
    const items = await list(ctx, 'tiktok', 'locations', q.profile, { query, limit: q.limit ?? 20 });
    ctx.body = {
      success: true, query,
      locations: items.slice(0, 20).map((item) => ({ location_id: item.id, location_name: item.name, address: extra(item, 'address'), profile: item.profile })),
    };
  });

  const record = (platform: Platform, kind: string, op: typeof ops.getTikTokSettings | typeof ops.getInstagramPublishingLimit | typeof ops.getThreadsPublishingLimit) => mount(router, op, ns, async (ctx, { query: q }) => {
    const { profile } = q;
    const fields = await readLookup(deps, ctx.state.caller.account, platform, kind, profile);
    ctx.body = { success: true, profile, platform, ...fields };
  });
  record('tiktok', 'settings', ops.getTikTokSettings);
  record('instagram', 'publishing_limit', ops.getInstagramPublishingLimit);
  record('threads', 'publishing_limit', ops.getThreadsPublishingLimit);
}
