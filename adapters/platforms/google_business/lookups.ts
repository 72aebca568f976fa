/** GET /google-business/locations: the locations the connection manages (listed in locations.ts). */
import { PlatformError } from '../../../core/domain/errors';
import type { Lookups } from '../../../core/ports/platform';
import type { GoogleBusinessClient } from './client';
import { listLocations } from './locations';

export function createGoogleBusinessLookups(client: GoogleBusinessClient): Lookups {
  return {
    lists: ['locations'],
    async list(ctx, kind) {
      if (kind !== 'locations') throw new PlatformError('google_business', { kind: 'unsupported' }, `Google Business Profile has no "${kind}" lookup; it has locations.`);
      const all = await listLocations(client, ctx);
      return {
        items: all.map((l) => ({
          id: l.locationId, name: l.title,
          extra: { account_id: l.accountId, account_name: l.accountName, ...(l.address ? { address: l.address } : {}), ...(l.mapsUri ? { maps_uri: l.mapsUri } : {}) },
        })),
      };
    },
  };
}
