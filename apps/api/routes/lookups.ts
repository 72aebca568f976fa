import type Router from '@koa/router';
import { invalidInput } from '../../../core/domain/errors';
import { listLookup } from '../../../core/usecases/lookups';
import { single } from '../input';
import type { ApiDeps, AppState } from '../deps';
import { mount } from '../catalogue/mount';
import * as ops from '../catalogue/lookups';

/**
 * `GET /google-business/locations?profile=` (also `profile_username`): the Business Profile
 * locations of a profile's connected Google account, or of every profile when omitted, as
 * `{location_id, location_name, account_id, account_name, address, maps_uri, profile}`: the ids
 * `gbp_location_id` and the location pin take.
 */
export function lookupRoutes(router: Router<AppState>, deps: ApiDeps, ns: string): void {
  mount(router, ops.listGoogleBusinessLocations, ns, async (ctx) => {
    const raw = single(ctx.query.profile ?? ctx.query.profile_username);
    if (raw !== undefined && (typeof raw !== 'string' || raw === '')) throw invalidInput('profile must be a profile username.');
    const items = await listLookup(deps, ctx.state.caller.account, 'google_business', 'locations', raw as string | undefined);
    ctx.body = {
      success: true,
      locations: items.map((item) => ({
        location_id: item.id,
        location_name: item.name,
        account_id: item.extra?.account_id ?? null,
        account_name: item.extra?.account_name ?? null,
        address: item.extra?.address ?? null,
        maps_uri: item.extra?.maps_uri ?? null,
        profile: item.profile,
      })),
    };
  });
}
