import { z } from 'zod';
import { checkedByCore, operation } from './types';
import { ok, ProfileUsername } from './common';

/** Lookups: ids a publish request takes (pages, boards, locations), read from the connected accounts. */
export const listGoogleBusinessLocations = operation({
  id: 'listGoogleBusinessLocations', method: 'get', path: '/svc/google-business/locations', tags: ['lookups'],
  summary: 'Google Business locations',
  description: 'The Business Profile locations of a profile\'s connected Google account (or of every profile): `location_id` is what `gbp_location_id` and the location pin take. Errors: 404 `PROFILE_NOT_FOUND`, 409 `reauth_required`.',
  auth: 'apiKey',
  query: z.object({
    profile: checkedByCore(ProfileUsername.optional().describe('The profile; every profile when omitted.')),
    profile_username: checkedByCore(ProfileUsername.optional().describe('Alias of profile.')),
  }),
  responses: {
    200: {
      description: 'Locations.',
      schema: ok({
        locations: z.array(z.object({
          location_id: z.string(), location_name: z.string(), account_id: z.string().nullable(), account_name: z.string().nullable(),
          address: z.any().nullable(), maps_uri: z.string().nullable(), profile: z.string(),
        })),
      }),
    },
  },
  errors: { 400: 'profile is not a username.', 404: 'PROFILE_NOT_FOUND.', 409: 'reauth_required.' },
});

export const lookupOperations = [listGoogleBusinessLocations];
